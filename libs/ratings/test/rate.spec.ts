import fc from 'fast-check';
import { rate } from 'openskill';
import { plackettLuce } from 'openskill/models';
import { DEFAULT_RATING, MODEL, type RatedMatch, type Rating, type Triple, botIdentity, rateMatch, ranksOf, ratingView } from '../src';

const newcomers = () => undefined;
const priors =
  (table: Record<string, Rating>) =>
  (id: string): Rating | undefined =>
    table[id];
/** openskill used directly, with its own defaults: three one-player teams ranked by score. */
const direct = (ratings: Triple<Rating>, totals: Triple<number>): Rating[] =>
  rate(ratings.map((r) => [{ ...r }]), { score: [...totals] }).map(([r]) => r);

describe('ranksOf: final totals to shared ranks', () => {
  it.each([
    ['a clear order', [3, 0, -3], [1, 2, 3]],
    ['any seat may win', [-3, 0, 3], [3, 2, 1]],
    ['a shared first place', [2, 2, -4], [1, 1, 3]],
    ['a shared second place', [4, -2, -2], [1, 2, 2]],
    ['all three tied', [0, 0, 0], [1, 1, 1]],
  ] as [string, Triple<number>, Triple<number>][])('%s', (_name, totals, ranks) => {
    expect(ranksOf(totals)).toEqual(ranks);
  });
});

describe('rateMatch: one player per seat', () => {
  it('gives what openskill gives, used directly, with newcomers', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [3, 0, -3] }, newcomers);
    const expected = direct([DEFAULT_RATING, DEFAULT_RATING, DEFAULT_RATING], [3, 0, -3]);
    expect([...result.entries()]).toStrictEqual([
      ['ann', expected[0]],
      ['bob', expected[1]],
      ['cat', expected[2]],
    ]);
  });

  // Today's numbers, to the bit: a new openskill release that changed them would change a rebuild.
  it('keeps the numbers of openskill 5.0.1 (newcomers, 3 > 0 > −3)', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [3, 0, -3] }, newcomers);
    expect(Object.fromEntries(result)).toStrictEqual({
      ann: { mu: 27.869048680749426, sigma: 8.205243377397993 },
      bob: { mu: 25.717262170187357, sigma: 8.058224222802378 },
      cat: { mu: 21.413689149063217, sigma: 8.058224222802378 },
    });
  });

  it('raises the winner, lowers the last, and every sigma shrinks', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [-5, 7, 1] }, newcomers);
    expect(result.get('bob')!.mu).toBeGreaterThan(DEFAULT_RATING.mu);
    expect(result.get('ann')!.mu).toBeLessThan(DEFAULT_RATING.mu);
    for (const r of result.values()) expect(r.sigma).toBeLessThan(DEFAULT_RATING.sigma);
  });

  it('changes no mu when all three tie with equal priors (sigma still shrinks)', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [0, 0, 0] }, newcomers);
    for (const r of result.values()) {
      expect(r.mu).toBe(DEFAULT_RATING.mu);
      expect(r.sigma).toBeLessThan(DEFAULT_RATING.sigma);
    }
  });

  it('lets a three-way tie move unequal priors as openskill says (the weaker gains)', () => {
    const table = { ann: { mu: 30, sigma: 4 }, bob: { mu: 25, sigma: 6 }, cat: { mu: 18, sigma: 8 } };
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [1, 1, 1] }, priors(table));
    expect([...result.values()]).toStrictEqual(direct([table.ann, table.bob, table.cat], [1, 1, 1]));
    expect(result.get('cat')!.mu).toBeGreaterThan(18);
    expect(result.get('ann')!.mu).toBeLessThan(30);
  });

  it('shares a second place: the two seats tied behind the winner end alike', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [-2, 4, -2] }, newcomers);
    expect(result.get('ann')).toStrictEqual(result.get('cat'));
    expect(result.get('ann')!.mu).toBeLessThan(DEFAULT_RATING.mu);
    expect([...result.values()]).toStrictEqual(direct([DEFAULT_RATING, DEFAULT_RATING, DEFAULT_RATING], [-2, 4, -2]));
  });

  it('shares a first place: the two winners end alike, above the third', () => {
    const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [5, 5, -10] }, newcomers);
    expect(result.get('ann')).toStrictEqual(result.get('bob'));
    expect(result.get('ann')!.mu).toBeGreaterThan(DEFAULT_RATING.mu);
    expect(result.get('cat')!.mu).toBeLessThan(DEFAULT_RATING.mu);
  });

  it('rates from the ratings so far: beating a stronger player gains more than beating a newcomer', () => {
    const strong = { mu: 35, sigma: 3 };
    const vsStrong = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [3, 0, -3] }, priors({ bob: strong, cat: strong }));
    const vsNew = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [3, 0, -3] }, newcomers);
    expect(vsStrong.get('ann')!.mu).toBeGreaterThan(vsNew.get('ann')!.mu);
  });

  it('refuses a match that is not three seats with finite totals', () => {
    expect(() => rateMatch({ seats: ['ann', 'bob', 'cat'], totals: [1, NaN, 0] }, newcomers)).toThrow(RangeError);
    expect(() => rateMatch({ seats: ['ann', 'bob'], totals: [1, 0] } as unknown as RatedMatch, newcomers)).toThrow(RangeError);
  });
});

describe('rateMatch: one identity on several seats', () => {
  const greedy = botIdentity('greedy');

  it('rates each seat from the one prior and gives the identity the mean of its seats', () => {
    const result = rateMatch({ seats: ['ann', greedy, greedy], totals: [6, -1, -5] }, newcomers);
    const [ann, g1, g2] = direct([DEFAULT_RATING, DEFAULT_RATING, DEFAULT_RATING], [6, -1, -5]);
    expect([...result.keys()]).toEqual(['ann', greedy]);
    expect(result.get('ann')).toStrictEqual(ann);
    expect(result.get(greedy)).toStrictEqual({ mu: (g1.mu + g2.mu) / 2, sigma: (g1.sigma + g2.sigma) / 2 });
  });

  it('moves the identity half as far as the one it played, the other way (equal priors)', () => {
    const result = rateMatch({ seats: [greedy, 'ann', greedy], totals: [-1, 6, -5] }, newcomers);
    const gained = result.get('ann')!.mu - DEFAULT_RATING.mu;
    expect(result.get(greedy)!.mu - DEFAULT_RATING.mu).toBeCloseTo(-gained / 2, 12);
  });

  it('does not depend on which seats the identity holds', () => {
    const a = rateMatch({ seats: ['ann', greedy, greedy], totals: [6, -1, -5] }, newcomers);
    const b = rateMatch({ seats: [greedy, greedy, 'ann'], totals: [-5, -1, 6] }, newcomers);
    expect(b.get('ann')).toStrictEqual(a.get('ann'));
    expect(b.get(greedy)!.mu).toBeCloseTo(a.get(greedy)!.mu, 12);
    expect(b.get(greedy)!.sigma).toBeCloseTo(a.get(greedy)!.sigma, 12);
  });

  it('treats a person who took two seats the same way', () => {
    const result = rateMatch({ seats: ['ann', 'ann', 'bob'], totals: [4, 0, -4] }, newcomers);
    const [a1, a2, bob] = direct([DEFAULT_RATING, DEFAULT_RATING, DEFAULT_RATING], [4, 0, -4]);
    expect(result.get('ann')).toStrictEqual({ mu: (a1.mu + a2.mu) / 2, sigma: (a1.sigma + a2.sigma) / 2 });
    expect(result.get('bob')).toStrictEqual(bob);
  });

  it('rates nobody when one identity holds all three seats (it played only itself)', () => {
    expect(rateMatch({ seats: [greedy, greedy, greedy], totals: [5, 0, -5] }, newcomers).size).toBe(0);
  });
});

describe('rateMatch: determinism and the pinned model', () => {
  const rating = fc.record({ mu: fc.double({ min: 0, max: 50, noNaN: true }), sigma: fc.double({ min: 0.5, max: 10, noNaN: true }) });
  const totals = fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }));

  it('gives the same bits for the same input, every time', () => {
    fc.assert(
      fc.property(fc.tuple(rating, rating, rating), totals, (ratings, t) => {
        const table = { ann: ratings[0], bob: ratings[1], cat: ratings[2] };
        const match: RatedMatch = { seats: ['ann', 'bob', 'cat'], totals: t };
        const once = [...rateMatch(match, priors(table)).values()].flatMap((r) => [r.mu, r.sigma]);
        const again = [...rateMatch(match, priors(table)).values()].flatMap((r) => [r.mu, r.sigma]);
        expect(Buffer.from(new Float64Array(again).buffer).equals(Buffer.from(new Float64Array(once).buffer))).toBe(true);
      }),
    );
  });

  it("pins openskill's defaults: MODEL gives exactly what openskill gives with no options", () => {
    fc.assert(
      fc.property(fc.tuple(rating, rating, rating), totals, (ratings, t) => {
        const ours = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: t }, priors({ ann: ratings[0], bob: ratings[1], cat: ratings[2] }));
        expect([...ours.values()]).toStrictEqual(direct(ratings, t));
      }),
    );
    expect(ratingView(DEFAULT_RATING)).toStrictEqual({ mu: 25, sigma: 25 / 3, ordinal: 0 });
    expect(ratingView({ mu: 30, sigma: 2 }).ordinal).toBe(24);
    expect(MODEL.model).toBe(plackettLuce);
  });

  // Plackett–Luce: a seat's mu moves by σ²/c · ω, and the ω of the three seats add up to 0; with
  // equal sigmas (any mus, any standings) the mu changes therefore cancel out.
  it('keeps the sum of mu constant when the three sigmas are equal', () => {
    fc.assert(
      fc.property(fc.tuple(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true })), fc.double({ min: 0.5, max: 10, noNaN: true }), totals, (mus, sigma, t) => {
        const table = { ann: { mu: mus[0], sigma }, bob: { mu: mus[1], sigma }, cat: { mu: mus[2], sigma } };
        const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: t }, priors(table));
        const change = [...result.values()].reduce((sum, r) => sum + r.mu, 0) - (mus[0] + mus[1] + mus[2]);
        expect(Math.abs(change)).toBeLessThan(1e-9);
      }),
    );
  });

  it('orders the new mus as the standings when the priors are equal (ties within rounding)', () => {
    fc.assert(
      fc.property(rating, totals, (prior, t) => {
        const result = rateMatch({ seats: ['ann', 'bob', 'cat'], totals: t }, () => prior);
        const mus = [...result.values()].map((r) => r.mu);
        for (const i of [0, 1, 2]) {
          for (const j of [0, 1, 2]) {
            if (t[i] > t[j]) expect(mus[i]).toBeGreaterThan(mus[j]);
            if (t[i] === t[j]) expect(Math.abs(mus[i] - mus[j])).toBeLessThan(1e-9);
          }
        }
      }),
    );
  });
});
