import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { postgresDataSourceOptions } from '@bismarck/database';
import { startTestApp } from './support/app';
import { createTestDatabase, onRealServer } from './support/database';

// On a real server, a command is acknowledged only once its commit is durable: every connection of
// the service runs with synchronous_commit = on, even where the database's default turns it off.
// (The embedded PGlite never fsyncs at all; docs/operations.md says so.)

describe('connection options', () => {
  it('ask a real server for synchronous_commit = on, and leave the embedded one (which cannot fsync) alone', () => {
    const server = postgresDataSourceOptions({ url: 'postgres://x@127.0.0.1/db' }) as { extra: { options?: string } };
    expect(server.extra.options).toBe('-c synchronous_commit=on');
    const embedded = postgresDataSourceOptions({ url: 'postgres://x@127.0.0.1/db', embedded: true }) as { extra: { options?: string } };
    expect(embedded.extra.options).toBeUndefined();
  });
});

// Defined only against a real server: the embedded PGlite has no synchronous commit to check.
if (onRealServer) {
  describe('durable commits on a real server', () => {
    it('runs every connection with synchronous_commit = on although the database default is off', async () => {
      const db = await createTestDatabase({ migrations: [] });
      const admin = new Client({ connectionString: db.url });
      await admin.connect();
      await admin.query(`ALTER DATABASE "${new URL(db.url).pathname.slice(1)}" SET synchronous_commit = off`);
      await admin.end();
      const t = await startTestApp(db);
      try {
        const rows: { synchronous_commit: string }[] = await t.app.get(DataSource).query('SHOW synchronous_commit');
        expect(rows[0].synchronous_commit).toBe('on');
        const [{ fsync }] = await t.app.get(DataSource).query('SHOW fsync');
        expect(fsync).toBe('on');
      } finally {
        await t.close();
      }
    }, 60_000);
  });
}
