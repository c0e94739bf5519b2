import type { ForkedFrom, Seat } from '@bismarck/rules';

declare const carries: unique symbol;

/**
 * A column: its type as information_schema.columns names it, whether it takes NULL, and, for the
 * compiler only, the type its value has in a row as TypeScript sends it (jsonb as the value itself,
 * timestamptz as ISO text).
 */
export interface Column<T> {
  readonly type: string;
  readonly nullable: boolean;
  readonly [carries]?: T;
}

const column = <T>(type: string): Column<T> => ({ type, nullable: false });
const nullable = <T>(c: Column<T>): Column<T | null> => ({ ...c, nullable: true });
const text = column<string>('text');
const int = column<number>('integer');
const seat = column<Seat>('smallint');
const boolean = column<boolean>('boolean');
const double = column<number>('double precision');
const timestamptz = column<string>('timestamp with time zone');
const jsonb = <T>(): Column<T> => column<T>('jsonb');

/** A table the inline projection writes: its name, its primary key, its columns in their order. */
export interface Table {
  readonly table: string;
  readonly key: readonly string[];
  readonly columns: Readonly<Record<string, Column<unknown>>>;
}

const table = <Name extends string, Columns extends Record<string, Column<unknown>>>(table: Name, key: readonly (keyof Columns & string)[], columns: Columns) =>
  ({ table, key, columns }) as const;

/** A row of `t`, as the inline projection and the rebuild send it. */
export type RowOf<T extends Table> = { -readonly [C in keyof T['columns']]: T['columns'][C] extends Column<infer V> ? V : never };

// These say what the migrations made (tables.spec.ts compares them with the migrated database); a
// column added here goes with a migration that adds it, and the other way round.

export const MATCH_LIST = table('match_list', ['id'], {
  id: text,
  version: int,
  status: text,
  phase: text,
  deal_number: int,
  deals_in_match: int,
  /** null for an open seat of a waiting match. */
  players: jsonb<(string | null)[]>(),
  options: jsonb<unknown>(),
  seeded: boolean,
  totals: jsonb<number[]>(),
  winners: nullable(jsonb<number[]>()),
  created_at: timestamptz,
  updated_at: timestamptz,
  /** A fork's origin, null for any other match. */
  forked_from: nullable(jsonb<ForkedFrom>()),
  /** When the service has to act for the person to act (turn clocks: the rules' turnDue), else null. */
  turn_deadline: nullable(timestamptz),
});

const doc = { match_id: text, version: int, doc: jsonb<unknown>() };
export const MATCH_VIEWS = table('match_views', ['match_id'], doc);
/** Only what the seat sees beyond the public view (the read joins the two): a third of the bytes to write. */
export const SEAT_VIEWS = table('seat_views', ['match_id', 'seat'], { match_id: text, seat, version: int, doc: jsonb<unknown>() });
export const SCORECARDS = table('scorecards', ['match_id'], doc);

// Kept beside the log and never in it: credentials and seeds, not projections (a rebuild leaves them).

/** The SHA-256 (hex) of a seat's token. */
export const SEAT_CREDENTIALS = table('seat_credentials', ['match_id', 'seat'], { match_id: text, seat, token_hash: text });
/** A seeded match's seed. */
export const MATCH_SECRETS = table('match_secrets', ['match_id'], { match_id: text, seed: text });
/** A deal's secret seed and its published commitment. */
export const DEAL_SEEDS = table('deal_seeds', ['match_id', 'commitment'], { match_id: text, deal: int, commitment: text, seed: text });

/** A player's account (docs/players.md): its stream's id, its name as shown, and whether it was deleted. */
export const PLAYERS = table('players', ['id'], {
  id: text,
  version: int,
  name: text,
  deleted: boolean,
  created_at: timestamptz,
  updated_at: timestamptz,
});
/** The SHA-256 (hex) of a player's token, with the token's public id (kept beside the log, like a seat's). */
export const PLAYER_TOKENS = table('player_tokens', ['token_hash'], { token_hash: text, player_id: text, token_id: text, created_at: timestamptz });

/**
 * A rated identity's OpenSkill rating (a player id, or `bot:<strategy>` for a bot kind): written by
 * the api's ratings projector in commit order, not inline. Doubles, never a rounded numeric, so a
 * rebuild gives the same bits; `ordinal` (mu − 3σ) is stored for the leaderboard's index.
 */
export const RATINGS = table('ratings', ['id'], { id: text, mu: double, sigma: double, ordinal: double, matches: int });

/**
 * Presence (migration SeatPresence1799000016000): one api instance's open live streams for one seat
 * of a match, until `expires_at` (renewed on the instance's heartbeat). Never in the log.
 */
export const SEAT_PRESENCE = table('seat_presence', ['match_id', 'seat', 'instance_id'], {
  match_id: text,
  seat,
  instance_id: text,
  streams: int,
  expires_at: timestamptz,
});

export type MatchListRow = RowOf<typeof MATCH_LIST>;
export type RatingRow = RowOf<typeof RATINGS>;
export type PlayerRow = RowOf<typeof PLAYERS>;
export type PlayerTokenRow = RowOf<typeof PLAYER_TOKENS>;
export type DocRow = RowOf<typeof MATCH_VIEWS>;
export type SeatViewRow = RowOf<typeof SEAT_VIEWS>;
export type SeatCredentialRow = RowOf<typeof SEAT_CREDENTIALS>;
export type MatchSecretRow = RowOf<typeof MATCH_SECRETS>;
export type SeedRow = RowOf<typeof DEAL_SEEDS>;
