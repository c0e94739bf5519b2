import { DataSource } from 'typeorm';
import { EventStore } from '@bismarck/event-store';
import { COMPARED_TABLES, ProjectionRebuilder } from '@bismarck/projections';
import { useTestApp } from './support/app';
import { createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

const ADMIN = 'test-admin-token-0123456789';
const t = useTestApp(
  () => (process.env.ADMIN_TOKEN = ADMIN),
  () => delete process.env.ADMIN_TOKEN,
);

/** Plays `actions` random legal actions in each of `n` matches, interleaved, some to the end. */
async function playMany(n: number, actions: number): Promise<CreatedMatch[]> {
  const matches = await Promise.all(
    Array.from({ length: n }, (_, i) => createMatch(t.http, { options: i % 3 === 0 ? {} : { schedule: i % 3 === 1 ? 'quick' : 'traditional' } })),
  );
  await Promise.all(
    matches.map(async (m, i) => {
      const pick = seededPick(i + 1);
      for (let k = 0; k < actions; k++) if (!(await playOneAction(t.http, m, pick))) break;
    }),
  );
  return matches;
}

describe('projections rebuilt from the log', () => {
  it('the rebuilt tables equal the live ones row for row, after many interleaved matches', async () => {
    await playMany(9, 200);
    const rebuilder = new ProjectionRebuilder(t.app.get(EventStore), t.app.get(DataSource), (work) =>
      t.app.get(DataSource).transaction((m) => work(m)),
    );
    const stats = await rebuilder.rebuild();
    expect(stats.matches).toBe(9);
    expect(stats.events).toBeGreaterThan(9 * 150);
    const differences = await rebuilder.compare();
    expect(differences.map((d) => d.table)).toEqual(COMPARED_TABLES);
    for (const d of differences) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
    // Equal row counts too: EXCEPT is a set operation.
    const db = t.app.get(DataSource);
    for (const table of ['match_list', 'match_views', 'seat_views', 'scorecards']) {
      const [live] = await db.query(`SELECT count(*)::int AS n FROM ${table}`);
      const [rebuilt] = await db.query(`SELECT count(*)::int AS n FROM rebuild_${table}`);
      expect(rebuilt.n).toBe(live.n);
    }
    await rebuilder.dropRebuildTables();
  }, 180_000);

  it('POST /api/admin/rebuild repairs a damaged projection and reports what differed', async () => {
    const [m] = await playMany(1, 30);
    const before = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    const db = t.app.get(DataSource);
    await db.query(`UPDATE match_views SET doc = jsonb_set(doc, '{totals}', '[99,99,99]') WHERE match_id = $1`, [m.id]);
    await db.query(`DELETE FROM scorecards WHERE match_id = $1`, [m.id]);

    const res = await t.http().post('/api/admin/rebuild').set('Authorization', `Bearer ${ADMIN}`).expect(200);
    const byTable = Object.fromEntries(res.body.differences.map((d: { table: string }) => [d.table, d]));
    expect(byTable.match_views).toMatchObject({ onlyLive: 1, onlyRebuilt: 1 });
    expect(byTable.scorecards).toMatchObject({ onlyLive: 0, onlyRebuilt: 1 });
    expect(byTable.seat_views).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });

    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body).toEqual(before);
    await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200);
    // Play goes on after the swap, on the rebuilt rows.
    await playOneAction(t.http, m);
  }, 120_000);

  it('the admin route wants the admin token', async () => {
    const none = await t.http().post('/api/admin/rebuild');
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    const wrong = await t.http().post('/api/admin/rebuild').set('Authorization', 'Bearer not-the-admin-token');
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
});
