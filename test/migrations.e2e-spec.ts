import { runMigrationsLocked } from '@bismarck/database';
import { eventStoreMigrations } from '@bismarck/event-store';
import {
  DealSeeds1799000002000,
  PLAYER_PROJECT_FUNCTION,
  Projections1799000000000,
  projectionMigrations,
  SlimProjections1799000003000,
  type PlayerProjectionArgument,
} from '@bismarck/projections';
import type { DataSource } from 'typeorm';
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

describe('migration PlayerProjectFunction1799000018000', () => {
  let db: TestDatabase;
  const before = [...eventStoreMigrations, ...projectionMigrations.slice(0, -1)];
  beforeAll(async () => {
    db = await createTestDatabase({ migrations: before });
  }, 60_000);
  afterAll(async () => db?.drop(), 60_000);

  // An account's life through bismarck_project_player: registered with a token, a second token, one
  // revoked, a stale write, another account's token of the same id, then deleted. The tables after each step.
  async function life(ds: DataSource, id: string, other: string): Promise<unknown[]> {
    const at = (n: number) => `2026-01-01T00:00:0${n}Z`;
    const player = (version: number, deleted = false) => ({ id, version, name: 'Ann', deleted, created_at: at(version), updated_at: at(version) });
    const token = (owner: string, tokenId: string) => ({ token_hash: `${owner}:${tokenId}`, player_id: owner, token_id: tokenId, created_at: at(1) });
    const steps: [string, PlayerProjectionArgument][] = [
      [id, { player: player(1), token: token(id, 't1') }],
      [id, { player: player(2), token: token(id, 't2') }],
      [other, { player: { ...player(1), id: other }, token: token(other, 't1') }],
      [id, { player: player(3), revoked: ['t1'] }],
      [id, { player: { ...player(2), name: 'stale' } }],
      [id, { player: player(4, true) }],
    ];
    const seen: unknown[] = [];
    for (const [stream, arg] of steps) {
      await ds.query(`SELECT ${PLAYER_PROJECT_FUNCTION}($1, $2, $3::jsonb)`, [stream, arg.player.version, JSON.stringify(arg)]);
      seen.push(
        await ds.query(
          `SELECT (SELECT jsonb_agg(to_jsonb(p) ORDER BY id) FROM players p WHERE id IN ($1, $2)) AS players,
                  (SELECT jsonb_agg(to_jsonb(t) ORDER BY token_hash) FROM player_tokens t WHERE player_id IN ($1, $2)) AS tokens`,
          [id, other],
        ),
      );
    }
    return JSON.parse(JSON.stringify(seen).replaceAll(id, '<id>').replaceAll(other, '<other>'));
  }

  it('installs a function that writes and deletes exactly as the one it replaces, and down() puts that one back', async () => {
    const ds = await openDataSource(db, { migrations: [...eventStoreMigrations, ...projectionMigrations] });
    const source = async () => (await ds.query(`SELECT prosrc FROM pg_proc WHERE proname = $1`, [PLAYER_PROJECT_FUNCTION])).map((r: { prosrc: string }) => r.prosrc);
    try {
      const replaced = await source();
      const asBefore = await life(ds, 'pl-old', 'pl-old-other');
      await runMigrationsLocked(ds);
      expect(await source()).not.toEqual(replaced);
      expect(await life(ds, 'pl-new', 'pl-new-other')).toEqual(asBefore);
      await ds.undoLastMigration();
      expect(await source()).toEqual(replaced);
    } finally {
      await ds.destroy();
    }
  }, 60_000);
});
