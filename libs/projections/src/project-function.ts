import { DEAL_SEEDS, MATCH_LIST, MATCH_SECRETS, MATCH_VIEWS, SCORECARDS, SEAT_CREDENTIALS, SEAT_VIEWS, type RowOf, type Table } from './tables';

/**
 * `bismarck_project(p_stream, p_version, p_arg)`, the inline projection: the event store calls it
 * inside the append transaction, so a command's rows commit with its events. Its SQL is written here
 * only, from the tables in tables.ts and the keys below, so the SQL, the row types and the argument
 * the api sends cannot drift apart (project-function.spec.ts and tables.spec.ts check the migrated
 * database against them).
 *
 * To change it (or a table it writes):
 * 1. First freeze the text the latest migration installs: in the migration that imports
 *    PROJECT_FUNCTION_SQL today, put the text it runs now in its place (print it with
 *    `npm run -s build && node -p "require('./dist/libs/projections/src/project-function').PROJECT_FUNCTION_SQL"`).
 *    A migration must run the same text whenever it runs; migrations.spec.ts fails otherwise.
 * 2. Change tables.ts or PROJECT_WRITES here (a new column comes with a migration that adds it).
 * 3. Add a migration with the next timestamp whose up() runs PROJECT_FUNCTION_SQL and whose down()
 *    runs the text frozen in step 1; list it in projectionMigrations and give it its row in
 *    migrations.spec.ts.
 */
export const PROJECT_FUNCTION = 'bismarck_project';

interface Write {
  readonly into: Table;
  /** One row (a jsonb object) or many (an array). */
  readonly rows: 'one' | 'many';
  /** Sent with some commands only: the function looks for the key first. */
  readonly optional?: true;
  /** Rewrites a row with the same key, but only to move it forward (a version above its own), and leaves `keep` as it was. */
  readonly upsert?: { readonly keep: readonly string[] };
}

/** What the function does with each key of its argument, in this order. */
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
} as const satisfies Record<string, Write>;

type Writes = typeof PROJECT_WRITES;
type RowsOf<K extends keyof Writes> = Writes[K]['rows'] extends 'many' ? RowOf<Writes[K]['into']>[] : RowOf<Writes[K]['into']>;
type OptionalKey = { [K in keyof Writes]: Writes[K] extends { optional: true } ? K : never }[keyof Writes];

/** The argument the api sends (`p_arg`), key for key what PROJECT_WRITES says. */
export type ProjectionArgument = { [K in Exclude<keyof Writes, OptionalKey>]: RowsOf<K> } & { [K in OptionalKey]?: RowsOf<K> };

function statement(key: string, { into, rows, upsert }: Write): string {
  const populate = rows === 'one' ? 'jsonb_populate_record' : 'jsonb_populate_recordset';
  const insert = `INSERT INTO ${into.table} SELECT * FROM ${populate}(NULL::${into.table}, p_arg->'${key}')`;
  if (!upsert) return `${insert};`;
  const set = Object.keys(into.columns).filter((c) => !into.key.includes(c) && !upsert.keep.includes(c));
  return `${insert}
  ON CONFLICT (${into.key.join(', ')}) DO UPDATE SET ${set.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
  WHERE ${into.table}.version < EXCLUDED.version;`;
}

const indented = (sql: string): string => sql.replace(/^/gm, '  ');

/** The function's body (pg_proc.prosrc). */
export const PROJECT_FUNCTION_BODY = `
BEGIN
${Object.entries(PROJECT_WRITES as Record<string, Write>)
  .map(([key, write]) => {
    const sql = statement(key, write);
    return indented(write.optional ? `IF p_arg ? '${key}' THEN\n${indented(sql)}\nEND IF;` : sql);
  })
  .join('\n\n')}
END
`;

export const PROJECT_FUNCTION_SQL = `CREATE OR REPLACE FUNCTION ${PROJECT_FUNCTION}(p_stream text, p_version int, p_arg jsonb) RETURNS void
LANGUAGE plpgsql AS $$${PROJECT_FUNCTION_BODY}$$`;
