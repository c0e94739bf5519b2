import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { guardConnectionErrors } from '@bismarck/database';
import { startTestApp } from './support/app';
import { onRealServer } from './support/database';
import { createMatch, playOneAction } from './support/player';

describe('guardConnectionErrors', () => {
  it('puts an error listener on every pooled client, present and future', () => {
    const listeners: string[] = [];
    const client = { on: (event: string) => listeners.push(`old:${event}`) };
    let onConnect: ((c: typeof client) => void) | undefined;
    const pool = { _clients: [client], on: (_: string, l: (c: typeof client) => void) => (onConnect = l) };
    guardConnectionErrors({ driver: { master: pool } } as unknown as DataSource, () => undefined);
    onConnect!({ on: (event: string) => listeners.push(`new:${event}`) });
    expect(listeners).toEqual(['old:error', 'new:error']);
  });
});

// Defined only against a real server: it ends the service's database sessions from outside.
if (onRealServer) {
  describe('a database connection cut under the service', () => {
    it('does not crash it: the cut sessions fail, the pool reconnects, and play goes on', async () => {
      const t = await startTestApp();
      try {
        const m = await createMatch(t.http);
        await playOneAction(t.http, m);
        // A client checked out of the pool when its session ends is where pg emits an unhandled 'error'.
        const pool = (t.app.get(DataSource).driver as unknown as { master: { connect(): Promise<{ release(e?: unknown): void; query(q: string): Promise<unknown> }> } }).master;
        const held = await pool.connect();
        const admin = new Client({ connectionString: t.db.url });
        await admin.connect();
        const database = new URL(t.db.url).pathname.slice(1);
        const cut = await admin.query(`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
        await admin.end();
        expect(cut.rows[0].n).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 200)); // let the FATAL messages arrive
        await expect(held.query('SELECT 1')).rejects.toThrow();
        held.release(new Error('session ended'));
        // The service lives on: health comes back and the match can be played.
        let healthy = false;
        for (let i = 0; i < 20 && !healthy; i++) healthy = (await t.http().get('/health')).status === 200;
        expect(healthy).toBe(true);
        for (let i = 0; i < 5; i++) await playOneAction(t.http, m);
      } finally {
        await t.close();
      }
    }, 60_000);
  });
}
