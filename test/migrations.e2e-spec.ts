import { runMigrationsLocked } from '@bismarck/database';
import { eventStoreMigrations } from '@bismarck/event-store';
import { DealSeeds1799000002000, Projections1799000000000, projectionMigrations, SlimProjections1799000003000 } from '@bismarck/projections';
import { createTestDatabase, openDataSource, type TestDatabase } from './support/database';

// Upgrades: a database written by an earlier build is mended by the migrations that follow.
describe('migration ListPlayers1799000004000', () => {
  let db: TestDatabase;
  const before = [...eventStoreMigrations, Projections1799000000000, DealSeeds1799000002000, SlimProjections1799000003000];

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: before });
  }, 60_000);
  afterAll(async () => db?.drop(), 60_000);

  it('mends list rows that kept the players of creation, and later upserts carry the players', async () => {
    const ds = await openDataSource(db, { migrations: [...eventStoreMigrations, ...projectionMigrations] });
    try {
      const list = { id: 'm1', version: 3, status: 'playing', phase: 'deal', deal_number: 0, deals_in_match: 3, players: ['Host', null, null], options: {}, seeded: false, totals: [0, 0, 0], winners: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:01Z' };
      const view = { match_id: 'm1', version: 3, doc: { seats: [{ seat: 0, name: 'Host' }, { seat: 1, name: 'Bjørn' }, { seat: 2, name: 'Cecilia' }] } };
      await ds.query(`INSERT INTO match_list SELECT * FROM jsonb_populate_record(NULL::match_list, $1::jsonb)`, [JSON.stringify(list)]);
      await ds.query(`INSERT INTO match_views SELECT * FROM jsonb_populate_record(NULL::match_views, $1::jsonb)`, [JSON.stringify(view)]);

      await runMigrationsLocked(ds);
      const [mended] = await ds.query(`SELECT players FROM match_list WHERE id = 'm1'`);
      expect(mended.players).toEqual(['Host', 'Bjørn', 'Cecilia']);

      // The projection function now updates the players (and every other column but key and creation).
      const next = { ...list, version: 4, players: ['Host', 'Bjørn', 'Dagny'], phase: 'contract' };
      await ds.query(`SELECT bismarck_project('m1', 4, $1::jsonb)`, [JSON.stringify({ match: next, view: { ...view, version: 4 }, seats: [] })]);
      const [row] = await ds.query(`SELECT players, phase, version FROM match_list WHERE id = 'm1'`);
      expect(row).toEqual({ players: ['Host', 'Bjørn', 'Dagny'], phase: 'contract', version: 4 });
    } finally {
      await ds.destroy();
    }
  }, 60_000);
});
