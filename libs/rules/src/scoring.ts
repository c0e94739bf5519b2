// Quotas and points of one deal (docs/rules.md §5).
import type { Contract, MatchOptions, Seat, Triple } from './types';

export const CONTRACTS: readonly Contract[] = ['spades', 'trump', 'notrump', 'pass'];

/** Forehand 8 / others 4 in take-tricks contracts; forehand 4 / others 6 in pass. Always sums to 16. */
export const quotas = (contract: Contract, forehand: Seat): Triple<number> => {
  const [mine, theirs] = contract === 'pass' ? [4, 6] : [8, 4];
  return [0, 1, 2].map((s) => (s === forehand ? mine : theirs)) as Triple<number>;
};

/** zeroSum: t − q (take tricks) or q − t (pass). overOnly: the same, never below 0. */
export const points = (
  scoring: MatchOptions['scoring'],
  contract: Contract,
  tricks: Triple<number>,
  quota: Triple<number>,
): Triple<number> =>
  tricks.map((t, s) => {
    const score = contract === 'pass' ? quota[s] - t : t - quota[s];
    return scoring === 'overOnly' ? Math.max(0, score) : score;
  }) as Triple<number>;

/** All seats with the highest total (joint winners on a tie). */
export const winnersOf = (totals: Triple<number>): Seat[] => {
  const best = Math.max(...totals);
  return ([0, 1, 2] as Seat[]).filter((s) => totals[s] === best);
};
