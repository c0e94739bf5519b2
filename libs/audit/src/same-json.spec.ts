import fc from 'fast-check';
import { sameJson } from './same-json';

// The audit compares each event the rules produce with the logged one as JSON (keys in any order):
// sameJson must say exactly what comparing the two JSON texts, keys sorted, says.
const sorted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)])) : v;
const asText = (v: unknown): string => JSON.stringify(sorted(JSON.parse(JSON.stringify(v) ?? 'null')));

const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.constantFrom(null, undefined, 0, -0, 1, NaN, Infinity, true, false, '', 'a', 'S'), fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 2 })),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'deal'), tie('node'), { maxKeys: 3 })),
})).node;

describe('sameJson', () => {
  it('agrees with comparing the sorted JSON texts, on random values and on a value and its JSON copy', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(asText(a) === asText(b));
        const copy = JSON.parse(JSON.stringify(a) ?? 'null');
        expect(sameJson(a, copy)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells events apart by any field, keys in any order, absent and undefined alike', () => {
    expect(sameJson({ deal: 1, seat: 2, card: 'AS' }, { card: 'AS', seat: 2, deal: 1 })).toBe(true);
    expect(sameJson({ deal: 1, seat: 2, card: 'AS' }, { deal: 1, seat: 2, card: 'KS' })).toBe(false);
    expect(sameJson({ deal: 1, shuffle: undefined }, { deal: 1 })).toBe(true);
    expect(sameJson({ a: null }, { c: null, a: undefined })).toBe(false);
    expect(sameJson({ deal: 1, shuffle: null }, { deal: 1 })).toBe(false);
    expect(sameJson({ cards: ['AS', 'KS'] }, { cards: ['KS', 'AS'] })).toBe(false);
    expect(sameJson({ cards: [] }, { cards: {} })).toBe(false);
    expect(sameJson({ n: 1 }, { n: '1' })).toBe(false);
  });
});
