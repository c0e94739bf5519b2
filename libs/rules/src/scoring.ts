// Quotas and points of one deal (docs/rules.md §5).
import type { Contract, MatchOptions, Seat, Triple } from './types';

export const CONTRACTS: readonly Contract[] = ['spades', 'trump', 'notrump', 'pass'];

/**
 * The quota table: the tricks forehand and each other seat must take in a take-tricks contract, or may
 * take at most in pass. Every row sums to 16, the tricks of a deal.
 */
const QUOTAS: Readonly<Record<Contract, { readonly forehand: number; readonly other: number }>> = {
  spades: { forehand: 8, other: 4 },
  trump: { forehand: 8, other: 4 },
  notrump: { forehand: 8, other: 4 },
  pass: { forehand: 4, other: 6 },
};

/** One seat's quota in a deal whose forehand is `forehand`. */
export const quotaOf = (contract: Contract, seat: Seat, forehand: Seat): number =>
  seat === forehand ? QUOTAS[contract].forehand : QUOTAS[contract].other;

/** Forehand 8 / others 4 in take-tricks contracts; forehand 4 / others 6 in pass. Always sums to 16. */
export const quotas = (contract: Contract, forehand: Seat): Triple<number> =>
  [quotaOf(contract, 0, forehand), quotaOf(contract, 1, forehand), quotaOf(contract, 2, forehand)];

/** The points rule for one seat. zeroSum: t − q (take tricks) or q − t (pass). overOnly: the same, never below 0. */
export const seatPoints = (scoring: MatchOptions['scoring'], contract: Contract, tricks: number, quota: number): number => {
  const score = contract === 'pass' ? quota - tricks : tricks - quota;
  return scoring === 'overOnly' ? Math.max(0, score) : score;
};

/** Every seat's points (`seatPoints`). */
export const points = (
  scoring: MatchOptions['scoring'],
  contract: Contract,
  tricks: Triple<number>,
  quota: Triple<number>,
): Triple<number> => [
  seatPoints(scoring, contract, tricks[0], quota[0]),
  seatPoints(scoring, contract, tricks[1], quota[1]),
  seatPoints(scoring, contract, tricks[2], quota[2]),
];

/** All seats with the highest total (joint winners on a tie). */
export const winnersOf = (totals: Triple<number>): Seat[] => {
  const best = Math.max(...totals);
  return ([0, 1, 2] as Seat[]).filter((s) => totals[s] === best);
};
