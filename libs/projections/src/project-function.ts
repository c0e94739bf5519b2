import { DEAL_SEEDS, MATCH_LIST, MATCH_SECRETS, MATCH_VIEWS, PLAYERS, PLAYER_TOKENS, SCORECARDS, SEAT_CREDENTIALS, SEAT_VIEWS, type RowOf, type Table } from './tables';

/**
 * The inline projections: SQL functions `(p_stream, p_version, p_arg)` that the event store calls
 * inside the append transaction, so a command's rows commit with its events. `bismarck_project`
 * writes a match's rows, `bismarck_project_player` an account's. Their SQL is written here only, from
 * the tables in tables.ts and the keys below, so the SQL, the row types and the argument the api
 * sends cannot drift apart (project-function.spec.ts checks the migrated database against them).
 *
 * To change one (or a table it writes):
 * 1. First freeze the text the latest migration installs: in the migration that imports its
 *    `…_SQL` today, put the text it runs now in its place (print it with
 *    `npm run -s build && node -p "require('./dist/libs/projections/src/project-function').PROJECT_FUNCTION_SQL"`,
 *    or `.PLAYER_PROJECT_FUNCTION_SQL`).
 *    A migration must run the same text whenever it runs; migrations.spec.ts fails otherwise.
 * 2. Change tables.ts or the function's writes here (a new column comes with a migration that adds it).
 * 3. Add a migration with the next timestamp whose up() runs the new `…_SQL` and whose down()
 *    runs the text frozen in step 1; list it in projectionMigrations and give it its row in
 *    migrations.spec.ts.
 */
export const PROJECT_FUNCTION = 'bismarck_project';
export const PLAYER_PROJECT_FUNCTION = 'bismarck_project_player';

interface Write {
  readonly into: Table;
  /** One row (a jsonb object) or many (an array). */
  readonly rows: 'one' | 'many';
  /** Sent with some commands only: the function looks for the key first. */
  readonly optional?: true;
  /** Rewrites a row with the same key, but only to move it forward (a version above its own), and leaves `keep` as it was. */
  readonly upsert?: { readonly keep: readonly string[] };
}

/**
 * Deletes rows of the stream's own (`owner` holds the stream's id): those whose text column `listed`
 * is among the values sent under this key (an array, sent with some commands only), and every one of
 * them once the row sent under `allWhen[0]` has its boolean column `allWhen[1]` true.
 */
interface Delete {
  readonly from: Table;
  readonly owner: string;
  readonly listed: string;
  readonly allWhen?: readonly [key: string, column: string];
}

type Step = Write | Delete;

/** What the match's function does with each key of its argument, in this order. */
export const PROJECT_WRITES = {
  match: { into: MATCH_LIST, rows: 'one', upsert: { keep: ['created_at'] } },
  view: { into: MATCH_VIEWS, rows: 'one', upsert: { keep: [] } },
  seats: { into: SEAT_VIEWS, rows: 'many', upsert: { keep: [] } },
  /** Only when an event changed it (changesScorecard): most commands do not rewrite it. */
  scorecard: { into: SCORECARDS, rows: 'one', optional: true, upsert: { keep: [] } },
  // Never rewritten: a second write of one fails the append.
  credentials: { into: SEAT_CREDENTIALS, rows: 'many', optional: true },
  secret: { into: MATCH_SECRETS, rows: 'one', optional: true },
  seeds: { into: DEAL_SEEDS, rows: 'many', optional: true },
} as const satisfies Record<string, Step>;

/**
 * What the account's function does with each key of its argument, in this order. A token's hash is
 * written and deleted in the append's transaction, so a token works, and a revoked one (or any of a
 * deleted account's) stops working, the moment its event commits, on every instance.
 */
export const PLAYER_PROJECT_WRITES = {
  player: { into: PLAYERS, rows: 'one', upsert: { keep: ['created_at'] } },
  /** A new token's hash (TokenIssued). */
  token: { into: PLAYER_TOKENS, rows: 'one', optional: true },
  /** The ids of revoked tokens (TokenRevoked); a deleted account loses them all. */
  revoked: { from: PLAYER_TOKENS, owner: 'player_id', listed: 'token_id', allWhen: ['player', 'deleted'] },
} as const satisfies Record<string, Step>;

type RowsOf<S extends Step> = S extends Delete
  ? RowOf<S['from']>[S['listed'] & keyof RowOf<S['from']>][]
  : S extends Write
    ? S['rows'] extends 'many'
      ? RowOf<S['into']>[]
      : RowOf<S['into']>
    : never;
/** A delete's key is always optional: without it, only `allWhen` can delete. */
type OptionalKey<W> = { [K in keyof W]: W[K] extends { optional: true } | Delete ? K : never }[keyof W];
type ArgumentOf<W extends Record<string, Step>> = { [K in Exclude<keyof W, OptionalKey<W>>]: RowsOf<W[K]> } & { [K in OptionalKey<W>]?: RowsOf<W[K]> };

/** The argument the api sends to bismarck_project (`p_arg`), key for key what PROJECT_WRITES says. */
export type ProjectionArgument = ArgumentOf<typeof PROJECT_WRITES>;
/** The argument of bismarck_project_player, key for key what PLAYER_PROJECT_WRITES says. */
export type PlayerProjectionArgument = ArgumentOf<typeof PLAYER_PROJECT_WRITES>;

function write(key: string, { into, rows, upsert }: Write): string {
  const populate = rows === 'one' ? 'jsonb_populate_record' : 'jsonb_populate_recordset';
  const insert = `INSERT INTO ${into.table} SELECT * FROM ${populate}(NULL::${into.table}, p_arg->'${key}')`;
  if (!upsert) return `${insert};`;
  const set = Object.keys(into.columns).filter((c) => !into.key.includes(c) && !upsert.keep.includes(c));
  return `${insert}
  ON CONFLICT (${into.key.join(', ')}) DO UPDATE SET ${set.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
  WHERE ${into.table}.version < EXCLUDED.version;`;
}

function remove(key: string, { from, owner, listed, allWhen }: Delete): string {
  const inList = `${listed} IN (SELECT jsonb_array_elements_text(coalesce(p_arg->'${key}', '[]'::jsonb)))`;
  return `DELETE FROM ${from.table}
  WHERE ${owner} = p_stream
    AND (${allWhen ? `(p_arg->'${allWhen[0]}'->>'${allWhen[1]}')::boolean OR ` : ''}${inList});`;
}

const indented = (sql: string): string => sql.replace(/^/gm, '  ');

function functionBody(steps: Record<string, Step>): string {
  return `
BEGIN
${Object.entries(steps)
  .map(([key, step]) => {
    if ('from' in step) return indented(remove(key, step));
    const sql = write(key, step);
    return indented(step.optional ? `IF p_arg ? '${key}' THEN\n${indented(sql)}\nEND IF;` : sql);
  })
  .join('\n\n')}
END
`;
}

const functionSql = (name: string, body: string): string => `CREATE OR REPLACE FUNCTION ${name}(p_stream text, p_version int, p_arg jsonb) RETURNS void
LANGUAGE plpgsql AS $$${body}$$`;

/** The functions' bodies (pg_proc.prosrc) and the statements that install them. */
export const PROJECT_FUNCTION_BODY = functionBody(PROJECT_WRITES);
export const PROJECT_FUNCTION_SQL = functionSql(PROJECT_FUNCTION, PROJECT_FUNCTION_BODY);
export const PLAYER_PROJECT_FUNCTION_BODY = functionBody(PLAYER_PROJECT_WRITES);
export const PLAYER_PROJECT_FUNCTION_SQL = functionSql(PLAYER_PROJECT_FUNCTION, PLAYER_PROJECT_FUNCTION_BODY);
