import fc from 'fast-check';
import { type Identity, type RatedMatch, type RatingEntry, type Triple, applyInOrder, botIdentity, leaderboardOrder, rateMatch, ratingView } from '../src';

const people = ['ann', 'bob', 'cat', 'dan', botIdentity('strong'), botIdentity('greedy'), botIdentity('random')];
/** Random rated matches over a few identities (one may hold several seats). */
const match = fc.record({
  seats: fc.tuple(fc.constantFrom(...people), fc.constantFrom(...people), fc.constantFrom(...people)),
  totals: fc.tuple(fc.integer({ min: -12, max: 12 }), fc.integer({ min: -12, max: 12 }), fc.integer({ min: -12, max: 12 })),
}) as fc.Arbitrary<RatedMatch>;

/** The fold written out by hand, one rateMatch at a time. */
const byHand = (matches: RatedMatch[]): Map<Identity, RatingEntry> => {
  const table = new Map<Identity, RatingEntry>();
  for (const m of matches) {
    const next = rateMatch(m, (id) => table.get(id)?.rating);
    for (const [id, rating] of next) table.set(id, { rating, matches: (table.get(id)?.matches ?? 0) + 1 });
  }
  return table;
};

describe('applyInOrder: the table as a fold over rated matches', () => {
  it('equals rating the matches one by one', () => {
    fc.assert(
      fc.property(fc.array(match, { maxLength: 30 }), (matches) => {
        expect(applyInOrder(matches)).toStrictEqual(byHand(matches));
      }),
      { numRuns: 50 },
    );
  });

  it('goes on from a table exactly as if everything had been applied at once (a recomputation equals the live table)', () => {
    fc.assert(
      fc.property(fc.array(match, { maxLength: 30 }), fc.nat(), (matches, cut) => {
        const at = cut % (matches.length + 1);
        const live = applyInOrder(matches.slice(at), applyInOrder(matches.slice(0, at)));
        expect(live).toStrictEqual(applyInOrder(matches));
      }),
      { numRuns: 50 },
    );
  });

  it('leaves its start table alone', () => {
    const start = applyInOrder([{ seats: ['ann', 'bob', 'cat'], totals: [1, 0, -1] }]);
    const copy = new Map(start);
    applyInOrder([{ seats: ['ann', 'bob', 'dan'], totals: [-1, 0, 1] }], start);
    expect(start).toStrictEqual(copy);
  });

  it('counts the rated matches of each identity (one per match, however many seats it held)', () => {
    const greedy = botIdentity('greedy');
    const table = applyInOrder([
      { seats: ['ann', greedy, greedy], totals: [3, 0, -3] },
      { seats: ['ann', 'bob', greedy], totals: [0, 3, -3] },
      { seats: [greedy, greedy, greedy], totals: [1, 0, -1] },
    ]);
    expect(table.get('ann')!.matches).toBe(2);
    expect(table.get('bob')!.matches).toBe(1);
    expect(table.get(greedy)!.matches).toBe(2);
  });

  it('depends on commit order: the same two matches the other way round give other ratings', () => {
    const first: RatedMatch = { seats: ['ann', 'bob', 'cat'], totals: [5, 0, -5] };
    const second: RatedMatch = { seats: ['bob', 'ann', 'dan'], totals: [5, 0, -5] };
    const ab = applyInOrder([first, second]);
    const ba = applyInOrder([second, first]);
    expect(ab.get('ann')!.rating.mu).not.toBe(ba.get('ann')!.rating.mu);
    expect(ab.get('bob')!.rating.mu).not.toBe(ba.get('bob')!.rating.mu);
  });
});

describe('leaderboardOrder: best ordinal first, then id', () => {
  const row = (id: string, mu: number, sigma: number) => ({ id, rating: { mu, sigma } });

  it('puts the higher ordinal (mu − 3σ) first, not the higher mu', () => {
    const sure = row('zed', 28, 2); // ordinal 22
    const lucky = row('amy', 35, 5); // ordinal 20
    expect([lucky, sure].sort(leaderboardOrder).map((r) => r.id)).toEqual(['zed', 'amy']);
  });

  it('breaks an equal ordinal by id, by code units (so "B" before "a", "bot:…" after a player id starting "a")', () => {
    const rows = [row('bot:strong', 25, 25 / 3), row('a', 25, 25 / 3), row('B', 25, 25 / 3), row('ann', 31, 2)];
    expect(rows.sort(leaderboardOrder).map((r) => r.id)).toEqual(['ann', 'B', 'a', 'bot:strong']);
  });

  it('sorts a recomputed table the same whatever order its rows come in', () => {
    fc.assert(
      fc.property(fc.array(match, { maxLength: 20 }), (matches) => {
        const rows = [...applyInOrder(matches)].map(([id, { rating }]) => ({ id, rating }));
        const sorted = [...rows].sort(leaderboardOrder);
        expect([...rows].reverse().sort(leaderboardOrder)).toStrictEqual(sorted);
        for (let i = 1; i < sorted.length; i++) {
          expect(ratingView(sorted[i - 1].rating).ordinal).toBeGreaterThanOrEqual(ratingView(sorted[i].rating).ordinal);
        }
      }),
      { numRuns: 50 },
    );
  });
});
