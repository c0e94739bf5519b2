import { type Contract, type MatchOptions, type Seat, type Triple, points, quotaOf, quotas, seatPoints, winnersOf } from '../src';

// Rows: name, scoring, contract, forehand, tricks → points. Forehand is seat 0 unless said otherwise.
const rows: [string, MatchOptions['scoring'], Contract, Seat, Triple<number>, Triple<number>][] = [
  ['seed: forehand taking 11 tricks in no-trump scores +3', 'zeroSum', 'notrump', 0, [11, 3, 2], [3, -1, -2]],
  ['seed: forehand taking 2 tricks in pass scores +2', 'zeroSum', 'pass', 0, [2, 7, 7], [2, -1, -1]],
  ['making the quota exactly scores 0 (take tricks)', 'zeroSum', 'spades', 0, [8, 4, 4], [0, 0, 0]],
  ['making the quota exactly scores 0 (pass)', 'zeroSum', 'pass', 0, [4, 6, 6], [0, 0, 0]],
  ['each trick under the quota is minus one', 'zeroSum', 'trump', 0, [5, 6, 5], [-3, 2, 1]],
  ['pass: each extra trick is minus one', 'zeroSum', 'pass', 0, [9, 4, 3], [-5, 2, 3]],
  ['forehand may be any seat', 'zeroSum', 'notrump', 2, [3, 3, 10], [-1, -1, 2]],
  ['overOnly: tricks over the quota score', 'overOnly', 'notrump', 0, [11, 3, 2], [3, 0, 0]],
  ['overOnly: tricks under the pass quota score', 'overOnly', 'pass', 0, [2, 7, 7], [2, 0, 0]],
  ['overOnly: Finnish table, others score over 4', 'overOnly', 'trump', 1, [6, 5, 5], [2, 0, 1]],
  ['overOnly: Finnish table, others score under 6 in pass', 'overOnly', 'pass', 1, [3, 10, 3], [3, 0, 3]],
  ['overOnly: making the quota exactly scores 0', 'overOnly', 'spades', 0, [8, 4, 4], [0, 0, 0]],
];

describe('scoring a deal', () => {
  it.each(rows)('%s', (_name, scoring, contract, forehand, tricks, expected) => {
    expect(points(scoring, contract, tricks, quotas(contract, forehand))).toEqual(expected);
  });

  // The quota table: contract → forehand's quota and each other seat's.
  it.each<[Contract, number, number]>([
    ['spades', 8, 4],
    ['trump', 8, 4],
    ['notrump', 8, 4],
    ['pass', 4, 6],
  ])('in %s forehand has %i and the others %i', (contract, forehand, other) => {
    expect(quotas(contract, 1)).toEqual([other, forehand, other]);
    expect(quotaOf(contract, 2, 2)).toBe(forehand);
    expect(quotaOf(contract, 0, 2)).toBe(other);
  });

  it('seatPoints is one seat of points', () => {
    for (const [, scoring, contract, forehand, tricks, expected] of rows)
      for (const s of [0, 1, 2] as Seat[]) expect(seatPoints(scoring, contract, tricks[s], quotaOf(contract, s, forehand))).toBe(expected[s]);
  });

  it.each(['spades', 'trump', 'notrump', 'pass'] as Contract[])('the quotas of %s add up to 16', (contract) => {
    for (const forehand of [0, 1, 2] as Seat[]) expect(quotas(contract, forehand).reduce((a, b) => a + b)).toBe(16);
  });

  it.each([
    ['a single winner', [3, -1, -2], [0]],
    ['joint winners on a tie', [2, 2, -4], [0, 1]],
    ['all three tied', [0, 0, 0], [0, 1, 2]],
  ] as [string, Triple<number>, Seat[]][])('%s', (_name, totals, winners) => {
    expect(winnersOf(totals)).toEqual(winners);
  });
});
