import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { guardConnectionErrors, pgPool } from '@bismarck/database';
import { startTestApp } from './support/app';
import { onRealServer } from './support/database';
import { createMatch, playOneAction } from './support/player';
import { waitFor } from './support/wait';

describe('guardConnectionErrors', () => {
  it('puts one error listener on every client the pool hands out, also those it opened before', () => {
    const listeners: string[] = [];
    const client = (name: string) => ({ on: (event: string) => listeners.push(`${name}:${event}`) });
    const handlers = new Map<string, (c: ReturnType<typeof client>) => void>();
    const pool = { on: (event: string, l: (c: ReturnType<typeof client>) => void) => handlers.set(event, l) };
    guardConnectionErrors({ driver: { master: pool } } as unknown as DataSource, () => undefined);
    // 'old' was opened by initialize() before the guard; 'new' after it. Each is checked out twice.
    const old = client('old');
    const fresh = client('new');
    for (const c of [old, fresh, old, fresh]) handlers.get('acquire')!(c);
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
        const pool = pgPool(t.app.get(DataSource))!;
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
        await waitFor('health to come back', async () => ((await t.http().get('/health')).status === 200 ? true : null), 30_000);
        for (let i = 0; i < 5; i++) await playOneAction(t.http, m);
      } finally {
        await t.close();
      }
    }, 60_000);
  });
}
