// The ratings table as a fold over rated matches in commit order, and the leaderboard's order.
import { ordinal } from 'openskill';
import type { Identity } from './identity';
import { MODEL, type RatedMatch, type Rating, rateMatch } from './rate';

/** One row of the ratings table: the rating and how many rated matches moved it. */
export interface RatingEntry {
  readonly rating: Rating;
  readonly matches: number;
}

/**
 * The table after `matches`, applied in the order given (commit order: the order matters), from
 * `start` (not changed). A from-scratch recomputation is `applyInOrder(allRatedMatches)`; going on
 * from a table is `applyInOrder(later, table)`, the same as applying everything at once.
 */
export const applyInOrder = (
  matches: Iterable<RatedMatch>,
  start: ReadonlyMap<Identity, RatingEntry> = new Map(),
): Map<Identity, RatingEntry> => {
  const table = new Map(start);
  for (const match of matches) {
    for (const [id, rating] of rateMatch(match, (id) => table.get(id)?.rating)) {
      table.set(id, { rating, matches: (table.get(id)?.matches ?? 0) + 1 });
    }
  }
  return table;
};

/**
 * Best first: ordinal (mu − 3σ) descending, then id ascending by UTF-16 code units (not locale, so
 * a database sorting with the "C" collation agrees). For `Array.prototype.sort`.
 */
export const leaderboardOrder = (
  a: { readonly id: Identity; readonly rating: Rating },
  b: { readonly id: Identity; readonly rating: Rating },
): number => {
  const byOrdinal = ordinal(b.rating, MODEL) - ordinal(a.rating, MODEL);
  if (byOrdinal !== 0) return byOrdinal;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};
