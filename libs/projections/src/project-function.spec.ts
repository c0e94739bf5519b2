import { eventStoreMigrations } from '@bismarck/event-store';
import { useTestDatabase } from '../../../test/support/database';
import { projectionMigrations } from './index';
import {
  PLAYER_PROJECT_FUNCTION,
  PLAYER_PROJECT_FUNCTION_BODY,
  PLAYER_PROJECT_WRITES,
  PROJECT_FUNCTION,
  PROJECT_FUNCTION_BODY,
  PROJECT_WRITES,
  type PlayerProjectionArgument,
  type ProjectionArgument,
} from './project-function';
import { RATINGS, SEAT_PRESENCE, type Table } from './tables';

const t = useTestDatabase({ migrations: [...eventStoreMigrations, ...projectionMigrations] });

// The tables the two inline functions write, and the ratings and presence (written by the api, not inline).
const written = [...Object.values(PROJECT_WRITES), ...Object.values(PLAYER_PROJECT_WRITES)].map((w) => ('into' in w ? w.into : w.from));
const tables: Table[] = [...new Set<Table>([...written, RATINGS, SEAT_PRESENCE])];

const functions = [
  [PROJECT_FUNCTION, PROJECT_FUNCTION_BODY, PROJECT_WRITES],
  [PLAYER_PROJECT_FUNCTION, PLAYER_PROJECT_FUNCTION_BODY, PLAYER_PROJECT_WRITES],
] as const;

describe.each(functions)('%s in a migrated database', (name, body, writes) => {
  it('is the text of project-function.ts: the latest migration installs it', async () => {
    const [fn, ...more] = await t.ds.query(`SELECT prosrc, pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = $1`, [name]);
    expect(more).toEqual([]);
    expect(fn.args).toBe('p_stream text, p_version integer, p_arg jsonb');
    expect(fn.prosrc).toBe(body);
  });

  it('reads from its argument exactly the keys of its writes (whence its argument type)', async () => {
    const [{ prosrc }] = await t.ds.query(`SELECT prosrc FROM pg_proc WHERE proname = $1`, [name]);
    const read = new Set([...(prosrc as string).matchAll(/p_arg(?:->| \? )'(\w+)'/g)].map((m) => m[1]));
    expect([...read].sort()).toEqual(Object.keys(writes).sort());
  });
});

describe('the tables in a migrated database', () => {
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

describe('bismarck_project_player', () => {
  const at = (day: number): string => `2026-01-0${day}T00:00:00.000Z`;
  const player = (id: string, version: number, extra: Partial<PlayerProjectionArgument['player']> = {}): PlayerProjectionArgument['player'] => ({
    id, version, name: 'Ann', deleted: false, created_at: at(version), updated_at: at(version), ...extra,
  });
  const token = (playerId: string, tokenId: string): NonNullable<PlayerProjectionArgument['token']> => ({
    token_hash: `${playerId}:${tokenId}`, player_id: playerId, token_id: tokenId, created_at: at(1),
  });
  const project = (stream: string, arg: PlayerProjectionArgument) =>
    t.ds.query(`SELECT ${PLAYER_PROJECT_FUNCTION}($1, $2, $3::jsonb)`, [stream, arg.player.version, JSON.stringify(arg)]);
  // Times back as ISO text in UTC, whatever the server's TimeZone.
  const iso = <R extends { created_at: string }>(row: R): R => ({ ...row, ...Object.fromEntries(['created_at', 'updated_at'].filter((c) => c in row).map((c) => [c, new Date(row[c as keyof R] as string).toISOString()])) });
  const playerRow = async (id: string) => iso((await t.ds.query(`SELECT to_jsonb(p) AS row FROM players p WHERE id = $1`, [id]))[0].row);
  const tokenIds = async (playerId: string): Promise<string[]> =>
    (await t.ds.query(`SELECT token_id FROM player_tokens WHERE player_id = $1 ORDER BY token_id`, [playerId])).map((r: { token_id: string }) => r.token_id);

  it("writes the account and a new token's hash", async () => {
    await project('pl-a', { player: player('pl-a', 1), token: token('pl-a', 't1') });
    expect(await playerRow('pl-a')).toEqual(player('pl-a', 1));
    const rows = await t.ds.query(`SELECT to_jsonb(t) AS row FROM player_tokens t WHERE player_id = 'pl-a'`);
    expect(rows.map((r: { row: { created_at: string } }) => iso(r.row))).toEqual([token('pl-a', 't1')]);
  });

  it('moves the account forward in every column but its key and creation time, and never back', async () => {
    await project('pl-b', { player: player('pl-b', 1) });
    await project('pl-b', { player: player('pl-b', 2, { name: 'Bo' }) });
    expect(await playerRow('pl-b')).toEqual(player('pl-b', 2, { name: 'Bo', created_at: at(1) }));
    await project('pl-b', { player: player('pl-b', 1, { name: 'Cy' }) });
    expect(await playerRow('pl-b')).toEqual(player('pl-b', 2, { name: 'Bo', created_at: at(1) }));
  });

  it('deletes the revoked tokens of its own stream only', async () => {
    await project('pl-c', { player: player('pl-c', 1), token: token('pl-c', 't1') });
    await project('pl-c', { player: player('pl-c', 2), token: token('pl-c', 't2') });
    await project('pl-d', { player: player('pl-d', 1), token: token('pl-d', 't1') });
    await project('pl-c', { player: player('pl-c', 3), revoked: ['t1'] });
    expect(await tokenIds('pl-c')).toEqual(['t2']);
    expect(await tokenIds('pl-d')).toEqual(['t1']);
  });

  it('deletes every token of a deleted account, and only its own', async () => {
    await project('pl-e', { player: player('pl-e', 1), token: token('pl-e', 't1') });
    await project('pl-e', { player: player('pl-e', 2), token: token('pl-e', 't2') });
    await project('pl-f', { player: player('pl-f', 1), token: token('pl-f', 't1') });
    await project('pl-e', { player: player('pl-e', 3, { deleted: true }) });
    expect(await tokenIds('pl-e')).toEqual([]);
    expect(await tokenIds('pl-f')).toEqual(['t1']);
    expect((await playerRow('pl-e')).deleted).toBe(true);
  });
});
