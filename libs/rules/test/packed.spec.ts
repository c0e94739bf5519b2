// The packed numbering (suit * 16 + rank) libs/solver's search counts in: the same cards, the same
// trick rule as the engine's numbering (trick.ts), only the numbers differ.
import fc from 'fast-check';
import {
  DECK_SIZE,
  beatsCard,
  beatsPacked,
  cardOf,
  freshDeck,
  mulberry32,
  packCard,
  packedCard,
  packedRank,
  packedSuit,
  parseCard,
  rankOf,
  suitOf,
  unpackCard,
  winningIndex,
  winningIndexPacked,
} from '../src';

const ALL = Array.from({ length: DECK_SIZE }, (_, c) => c);

describe('the packed card numbering', () => {
  it('names every card once, suit and rank a shift and a mask, and converts both ways', () => {
    const packed = ALL.map(packCard);
    expect(new Set(packed).size).toBe(DECK_SIZE);
    for (const c of ALL) {
      const p = packCard(c);
      expect(p).toBe(suitOf(c) * 16 + rankOf(c));
      expect([packedSuit(p), packedRank(p)]).toEqual([suitOf(c), rankOf(c)]);
      expect(packedCard(suitOf(c), rankOf(c))).toBe(p);
      expect(unpackCard(p)).toBe(c);
    }
    expect(packCard(parseCard('AH'))).toBe(packedCard(1, 12));
    expect(unpackCard(packedCard(3, 0))).toBe(cardOf(3, 0));
  });

  it('beatsPacked is beatsCard on every pair of cards under every trump', () => {
    for (const trump of [-1, 0, 1, 2, 3])
      for (const a of ALL) for (const b of ALL) expect(beatsPacked(packCard(a), packCard(b), trump)).toBe(beatsCard(a, b, trump));
  });

  it('winningIndexPacked is winningIndex on random tricks of one to three cards, at any offset', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 4 }), (seed, trump, count, from) => {
        const random = mulberry32(seed);
        const deck = freshDeck().map(parseCard).sort(() => random() - 0.5);
        const cards = deck.slice(0, from + count);
        expect(winningIndexPacked(Int32Array.from(cards.map(packCard)), from, count, trump)).toBe(winningIndex(cards, from, count, trump));
      }),
      { numRuns: 1000 },
    );
  });
});
