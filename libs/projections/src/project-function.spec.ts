import { eventStoreMigrations } from '@bismarck/event-store';
import { useTestDatabase } from '../../../test/support/database';
import { projectionMigrations } from './index';
import { PROJECT_FUNCTION, PROJECT_FUNCTION_BODY, PROJECT_WRITES, type ProjectionArgument } from './project-function';
import { PLAYERS, PLAYER_TOKENS, RATINGS, SEAT_PRESENCE, type Table } from './tables';

const t = useTestDatabase({ migrations: [...eventStoreMigrations, ...projectionMigrations] });

// The match tables bismarck_project writes, the accounts' (bismarck_project_player, migration Players1799000014000),
// the ratings and presence (written by the api, not by the projection).
const tables: Table[] = [...Object.values(PROJECT_WRITES).map((w) => w.into), PLAYERS, PLAYER_TOKENS, RATINGS, SEAT_PRESENCE];

describe('bismarck_project in a migrated database', () => {
  it('is the text of project-function.ts: the latest migration installs it', async () => {
    const [fn] = await t.ds.query(`SELECT prosrc, pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = $1`, [PROJECT_FUNCTION]);
    expect(fn.args).toBe('p_stream text, p_version integer, p_arg jsonb');
    expect(fn.prosrc).toBe(PROJECT_FUNCTION_BODY);
  });

  it('reads from its argument exactly the keys of ProjectionArgument', async () => {
    const [{ prosrc }] = await t.ds.query(`SELECT prosrc FROM pg_proc WHERE proname = $1`, [PROJECT_FUNCTION]);
    const read = new Set([...(prosrc as string).matchAll(/p_arg(?:->| \? )'(\w+)'/g)].map((m) => m[1]));
    expect([...read].sort()).toEqual(Object.keys(PROJECT_WRITES).sort());
  });

  it.each(tables.map((table) => [table.table, table] as const))('%s has the columns of tables.ts, in their order, with their types and NULLs', async (name, table) => {
    const columns = await t.ds.query(
      `SELECT column_name, data_type, is_nullable = 'YES' AS nullable FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
      [name],
    );
    expect(columns).toEqual(Object.entries(table.columns).map(([column, c]) => ({ column_name: column, data_type: c.type, nullable: c.nullable })));
  });

  it.each(tables.map((table) => [table.table, table] as const))('%s has the primary key of tables.ts', async (name, table) => {
    const key = await t.ds.query(
      `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      [name],
    );
    expect(key.map((k: { attname: string }) => k.attname)).toEqual(table.key);
  });
});

describe('bismarck_project', () => {
  const match: ProjectionArgument['match'] = {
    id: 'm1', version: 1, status: 'playing', phase: 'deal', deal_number: 0, deals_in_match: 3, players: ['Ann', 'Bo', null], options: { deals: 3 },
    seeded: true, totals: [0, 0, 0], winners: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', forked_from: { matchId: 'm0', version: 9 },
    turn_deadline: null,
  };
  const argument = (m: ProjectionArgument['match'], extra: Partial<ProjectionArgument> = {}): ProjectionArgument => ({
    match: m,
    view: { match_id: 'm1', version: m.version, doc: { v: m.version } },
    seats: [{ match_id: 'm1', seat: 0, version: m.version, doc: { hand: [] } }],
    ...extra,
  });
  const project = (arg: ProjectionArgument) => t.ds.query(`SELECT ${PROJECT_FUNCTION}($1, $2, $3::jsonb)`, ['m1', arg.match.version, JSON.stringify(arg)]);
  const listRow = async () => (await t.ds.query(`SELECT to_jsonb(l) - 'created_at' - 'updated_at' AS row, created_at FROM match_list l WHERE id = 'm1'`))[0];
  const { created_at: _c, updated_at: _u, ...rest } = match;

  it('writes every row it is sent, each column where it belongs', async () => {
    await project(
      argument(match, {
        scorecard: { match_id: 'm1', version: 1, doc: { totals: [0, 0, 0] } },
        credentials: [{ match_id: 'm1', seat: 0, token_hash: 'ab' }],
        secret: { match_id: 'm1', seed: 'sandbox' },
        seeds: [{ match_id: 'm1', deal: 1, commitment: 'c1', seed: 's1' }],
      }),
    );
    expect((await listRow()).row).toEqual(rest);
    expect(await t.ds.query(`SELECT to_jsonb(s) AS row FROM seat_views s`)).toEqual([{ row: { match_id: 'm1', seat: 0, version: 1, doc: { hand: [] } } }]);
    expect(await t.ds.query(`SELECT to_jsonb(s) AS row FROM seat_credentials s`)).toEqual([{ row: { match_id: 'm1', seat: 0, token_hash: 'ab' } }]);
    expect(await t.ds.query(`SELECT to_jsonb(s) AS row FROM match_secrets s`)).toEqual([{ row: { match_id: 'm1', seed: 'sandbox' } }]);
    expect(await t.ds.query(`SELECT to_jsonb(s) AS row FROM deal_seeds s`)).toEqual([{ row: { match_id: 'm1', deal: 1, commitment: 'c1', seed: 's1' } }]);
    expect(await t.ds.query(`SELECT to_jsonb(s) AS row FROM scorecards s`)).toEqual([{ row: { match_id: 'm1', version: 1, doc: { totals: [0, 0, 0] } } }]);
  });

  it('moves a list row forward in every column but its key and creation time, and never back', async () => {
    const { created_at: createdBefore } = await listRow();
    const later = { ...match, version: 2, phase: 'contract', players: ['Ann', 'Bo', 'Cy'], forked_from: null, created_at: '2027-01-01T00:00:00.000Z', updated_at: '2027-01-01T00:00:00.000Z' };
    await project(argument(later));
    const moved = await listRow();
    expect(moved.created_at).toEqual(createdBefore);
    expect(moved.row).toEqual({ ...rest, version: 2, phase: 'contract', players: ['Ann', 'Bo', 'Cy'], forked_from: null });

    await project(argument({ ...match, version: 1, phase: 'deal' }));
    expect((await listRow()).row).toEqual(moved.row);
  });
});
