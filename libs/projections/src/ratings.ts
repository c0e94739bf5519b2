// The ratings table (issue 31): which finished match is rated and by whom, read and written the same
// way by the api's projector (live, in commit order) and by the rebuild (from scratch).
import type { MatchState } from '@bismarck/rules';
import { rowsOf, type Checkpoint, type Queryable } from '@bismarck/event-store';
import { isRated, ratingView, seatIdentity, type Identity, type RatedMatch, type RatingEntry, type Triple } from '@bismarck/ratings';
import type { RatingRow } from './tables';

/** The projector's checkpoint in subscription_checkpoints (the rebuild's swap sets it too). */
export const RATINGS_CHECKPOINT = 'ratings';
/** The transaction-level advisory lock every writer of `ratings` holds: one writer at a time. */
export const RATINGS_LOCK = 7_362_031_401;

/**
 * The standings a finished match is rated on, or null when it is not rated (still going, seeded, a
 * fork, or a seat that is neither a registered player nor a bot). A bot seat is its kind
 * (`bot:strong`), whatever its name.
 */
export function ratedMatchOf(state: MatchState): RatedMatch | null {
  if (state.status !== 'finished') return null;
  const seats = ([0, 1, 2] as const).map((s) => seatIdentity({ bot: state.bots[s], player: state.accounts[s] }));
  if (!isRated({ finished: true, seeded: state.seeded, forked: state.forkedFrom !== null, seats })) return null;
  return { seats: seats as unknown as Triple<Identity>, totals: state.totals };
}

/** A row of `ratings` as stored: the ordinal is derived, kept for the leaderboard's index. */
export const ratingRow = (id: Identity, entry: RatingEntry): RatingRow => ({ id, ...ratingView(entry.rating), matches: entry.matches });

/** The stored ratings of `ids` (absent ids have none yet: the prior). */
export async function readRatings(q: Queryable, ids: readonly Identity[], table = 'ratings'): Promise<Map<Identity, RatingEntry>> {
  const rows = rowsOf(await q.query(`SELECT id, mu, sigma, matches FROM ${table} WHERE id = ANY($1::text[])`, [[...new Set(ids)]]));
  return new Map(rows.map((r) => [String(r.id), { rating: { mu: Number(r.mu), sigma: Number(r.sigma) }, matches: Number(r.matches) }]));
}

/**
 * Upserts the entries. The doubles travel as JSON numbers, the shortest text that reads back as the
 * same double, so the stored bits are the computed ones.
 */
export async function writeRatings(q: Queryable, entries: ReadonlyMap<Identity, RatingEntry>, table = 'ratings'): Promise<void> {
  if (entries.size === 0) return;
  const rows = [...entries].map(([id, entry]) => ratingRow(id, entry));
  await q.query(
    `INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)
     ON CONFLICT (id) DO UPDATE SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal, matches = EXCLUDED.matches`,
    [JSON.stringify(rows)],
  );
}

/** Commit order of two feed checkpoints: (transaction id, position), both decimal bigints. */
export const isLaterThan = (a: Checkpoint, b: Checkpoint): boolean => {
  const [at, bt] = [BigInt(a.txId), BigInt(b.txId)];
  return at !== bt ? at > bt : BigInt(a.position) > BigInt(b.position);
};
