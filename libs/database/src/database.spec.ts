import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, onRealServer, type TestDatabase } from '../../../test/support/database';
import { eventStoreMigrations } from '../../event-store/src';
import { postgresDataSourceOptions, resolveDatabaseUrl, runMigrationsLocked, startEmbeddedPostgres } from './index';

jest.setTimeout(90_000);

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL (PGlite)', () => {
  it('an on-disk embedded database keeps its data across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bismarck-pglite-'));
    try {
      const first = await startEmbeddedPostgres({ dataDir: dir });
      await query(first.url, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
      await first.stop();
      const second = await startEmbeddedPostgres({ dataDir: dir });
      try {
        expect(await query(second.url, `SELECT v FROM kept`)).toEqual([{ v: 'still here' }]);
        // Several connections at once (maxConnections is above any pool size); it reports PGlite.
        const clients = Array.from({ length: 5 }, () => new Client({ connectionString: second.url }));
        await Promise.all(clients.map((c) => c.connect()));
        for (const c of clients) expect((await c.query('SELECT version() AS v')).rows[0].v).toMatch(/PGlite/);
        await Promise.all(clients.map((c) => c.end()));
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("several connections at once each get their own answers: one's parameters, rows and transaction never mix with another's", async () => {
    const db = await startEmbeddedPostgres({ dataDir: 'memory' });
    const clients = Array.from({ length: 6 }, () => new Client({ connectionString: db.url }));
    try {
      await Promise.all(clients.map((c) => c.connect()));
      await clients[0].query('CREATE TABLE counted (client int, n int)');
      // Each client: parameterised queries (Parse, Bind, Execute, Sync), some in a transaction of its own.
      const mixed: string[] = [];
      await Promise.all(
        clients.map(async (c, client) => {
          for (let n = 0; n < 60; n++) {
            const { rows } = await c.query('SELECT $1::int AS client, $2::text AS n', [client, `${client}:${n}`]);
            if (rows[0]?.client !== client || rows[0]?.n !== `${client}:${n}`) mixed.push(`client ${client} asked ${n}, got ${JSON.stringify(rows[0])}`);
            if (n % 10 === 0) {
              await c.query('BEGIN');
              await c.query('INSERT INTO counted VALUES ($1, $2)', [client, n]);
              await c.query(client % 2 ? 'ROLLBACK' : 'COMMIT');
            }
          }
        }),
      );
      expect(mixed).toEqual([]);
      const kept = (await clients[0].query('SELECT client, count(*)::int AS rows FROM counted GROUP BY client ORDER BY client')).rows;
      expect(kept).toEqual([0, 2, 4].map((client) => ({ client, rows: 6 })));
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
      await db.stop();
    }
  });
});

describe('resolveDatabaseUrl', () => {
  it('uses DATABASE_URL when it is set and starts nothing', async () => {
    const r = await resolveDatabaseUrl({ env: { DATABASE_URL: 'postgres://u@db.example:5432/x' } });
    expect(r).toMatchObject({ url: 'postgres://u@db.example:5432/x', embedded: false });
    await r.stop();
  });
});

describe('postgresDataSourceOptions', () => {
  it('never synchronises and sizes the pool (one connection on the embedded database)', () => {
    const real = postgresDataSourceOptions({ url: 'postgres://x/y', poolSize: 7, migrations: eventStoreMigrations });
    expect(real).toMatchObject({ type: 'postgres', synchronize: false, poolSize: 7, extra: { max: 7 } });
    expect(real.migrations).toEqual([...eventStoreMigrations]);
    expect(postgresDataSourceOptions({ url: 'postgres://x/y', poolSize: 7, embedded: true })).toMatchObject({
      extra: { max: 1 },
    });
  });
});

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
  });
  afterAll(async () => {
    await db?.drop();
  });

  const open = async () => {
    const ds = new DataSource(
      postgresDataSourceOptions({ url: db.url, embedded: db.embedded, migrations: eventStoreMigrations }),
    );
    return ds.initialize();
  };

  it('running migrations again at start applies nothing twice', async () => {
    const ds = await open();
    try {
      const names = eventStoreMigrations.map((m) => m.name); // EventStoreSchema1764400000000, EventStoreAppendBatch…
      expect((await runMigrationsLocked(ds)).map((m) => m.name)).toEqual(names);
      expect(await runMigrationsLocked(ds)).toEqual([]);
      const rows = (await ds.query(`SELECT name FROM migrations ORDER BY id`)) as { name: string }[];
      expect(rows.map((r) => r.name)).toEqual(names);
    } finally {
      await ds.destroy();
    }
  });

  if (onRealServer) {
    it('two processes starting at once apply each migration once (real server only: PGlite serves one process)', async () => {
      const fresh = await createTestDatabase({ migrations: [] });
      const sources = await Promise.all(
        [0, 1].map(() =>
          new DataSource(postgresDataSourceOptions({ url: fresh.url, migrations: eventStoreMigrations })).initialize(),
        ),
      );
      try {
        const applied = await Promise.all(sources.map((ds) => runMigrationsLocked(ds)));
        expect(applied.map((a) => a.length).sort()).toEqual([0, eventStoreMigrations.length]);
        const rows = (await sources[0].query(`SELECT count(*)::int AS n FROM migrations`)) as { n: number }[];
        expect(rows[0].n).toBe(eventStoreMigrations.length);
      } finally {
        await Promise.all(sources.map((ds) => ds.destroy()));
        await fresh.drop();
      }
    });
  }
});
