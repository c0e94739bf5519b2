// The follow-suit and trick rules in the compact form libs/solver and libs/bots call: suits 0..3 = S H D C,
// sets of suits as 4-bit masks. libs/bots/test/one-rule.spec.ts checks every consumer against them.
import fc from 'fast-check';
import { beatingRanks, beats, cardOf, freshDeck, mulberry32, parseCard, trickWinner, winningIndex, type Seat } from '../src';
import { playableSuits, voidsShown } from '../src';

const S = 1;
const H = 2;
const D = 4;
const C = 8;
const [SPADES, HEARTS, DIAMONDS, CLUBS] = [0, 1, 2, 3];
const NONE = -1;

// Rows: name, suits held, suit led (NONE when leading), trump, mustTrump → suits that may be played.
const playable: [string, number, number, number, boolean, number][] = [
  ['a lead may be of any suit held', S | D, NONE, HEARTS, true, S | D],
  ['a follower holding the suit led must follow', S | H | C, HEARTS, CLUBS, true, H],
  ['the suit led binds even when it is trumps', S | H, SPADES, SPADES, false, S],
  ['void in the suit led: any suit, trumping is optional', S | D | C, HEARTS, CLUBS, false, S | D | C],
  ['void in the suit led under mustTrump: a trump', S | D | C, HEARTS, CLUBS, true, C],
  ['void in the suit led and in trumps under mustTrump: any suit', S | D, HEARTS, CLUBS, true, S | D],
  ['no trump under mustTrump: any suit', S | D, HEARTS, NONE, true, S | D],
];

// Rows: name, suit played, suit led, trump, mustTrump → suits the seat showed it does not hold.
const voids: [string, number, number, number, boolean, number][] = [
  ['following suit shows nothing', HEARTS, HEARTS, CLUBS, true, 0],
  ['not following shows a void in the suit led', SPADES, HEARTS, CLUBS, false, H],
  ['trumping under mustTrump shows only the suit led', CLUBS, HEARTS, CLUBS, true, H],
  ['neither following nor trumping under mustTrump shows both', SPADES, HEARTS, CLUBS, true, H | C],
  ['a discard in notrump under mustTrump shows only the suit led', DIAMONDS, HEARTS, NONE, true, H],
];

// Rows: name, (suit, rank) of the card, (suit, rank) of the card winning so far, trump → does it beat it?
const beating: [string, [number, number], [number, number], number, boolean][] = [
  ['a higher card of the same suit', [HEARTS, 9], [HEARTS, 3], CLUBS, true],
  ['a lower card of the same suit', [HEARTS, 3], [HEARTS, 9], NONE, false],
  ['a card never beats itself', [HEARTS, 9], [HEARTS, 9], HEARTS, false],
  ['a trump on a side suit, however low', [CLUBS, 0], [HEARTS, 12], CLUBS, true],
  ['a higher trump on a trump', [CLUBS, 5], [CLUBS, 4], CLUBS, true],
  ['a side suit on a trump', [HEARTS, 12], [CLUBS, 0], CLUBS, false],
  ['another side suit, however high', [SPADES, 12], [HEARTS, 0], CLUBS, false],
];

describe('the follow-suit rule over suit masks', () => {
  it.each(playable)('%s', (_name, held, led, trump, mustTrump, expected) => {
    expect(playableSuits(held, led, trump, mustTrump)).toBe(expected);
  });
});

describe('the voids a play shows', () => {
  it.each(voids)('%s', (_name, played, led, trump, mustTrump, expected) => {
    expect(voidsShown(played, led, trump, mustTrump)).toBe(expected);
  });
});

describe('one card beating the card winning the trick', () => {
  it.each(beating)('%s', (_name, [suit, rank], [bestSuit, bestRank], trump, expected) => {
    expect(beats(suit, rank, bestSuit, bestRank, trump)).toBe(expected);
  });
});

// The trick winner over card numbers, the one loop libs/solver and the bots' playouts call.
describe('winningIndex', () => {
  const ids = (codes: string[]) => codes.map(parseCard);
  it.each<[string, string[], number, number]>([
    ['the highest card of the suit led takes a trick with no trump in it', ['TH', 'AH', '9H'], NONE, 1],
    ['a card of another suit never takes it without trumps, however high', ['TH', 'AS', '9H'], NONE, 0],
    ['a trump takes it from the suit led', ['AH', '2C', 'KH'], CLUBS, 1],
    ['the highest trump takes it', ['AH', '2C', '3C'], CLUBS, 2],
    ['the suit led may be trumps', ['5C', 'AC', 'AH'], CLUBS, 1],
    ['two cards: the card winning the trick so far', ['QD', 'KD'], SPADES, 1],
  ])('%s', (_name, codes, trump, expected) => {
    expect(winningIndex(ids(codes), 0, codes.length, trump)).toBe(expected);
    // at an offset inside a longer list of plays, as the solver keeps them
    expect(winningIndex(Int32Array.from([0, 0, ...ids(codes)]), 2, codes.length, trump)).toBe(expected);
  });

  it('agrees with "the highest trump, else the highest card of the suit led" on random tricks, and trickWinner names its seat', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -1, max: 3 }), (seed, trump) => {
        const random = mulberry32(seed);
        const deck = freshDeck().map(parseCard).sort(() => random() - 0.5);
        const trick = deck.slice(0, 3);
        const suit = (c: number) => Math.floor(c / 13);
        const trumps = trick.filter((c) => suit(c) === trump);
        const pool = trumps.length > 0 ? trumps : trick.filter((c) => suit(c) === suit(trick[0]));
        const expected = trick.indexOf(Math.max(...pool));
        expect(winningIndex(trick, 0, 3, trump)).toBe(expected);
        const plays = trick.map((c, i) => ({ seat: ((i + 1) % 3) as Seat, card: freshDeck()[c] }));
        expect(trickWinner(plays, trump)).toBe(plays[expected].seat);
      }),
      { numRuns: 500 },
    );
  });

  it('beatingRanks holds exactly the ranks of a suit that beat the card winning the trick', () => {
    for (const trump of [NONE, SPADES, HEARTS])
      for (const suit of [SPADES, HEARTS, DIAMONDS])
        for (let bestRank = 0; bestRank < 13; bestRank++)
          for (let rank = 0; rank < 13; rank++)
            expect(Boolean(beatingRanks(suit, HEARTS, bestRank, trump) & (1 << rank))).toBe(beats(suit, rank, HEARTS, bestRank, trump));
    expect(cardOf(HEARTS, 12)).toBe(parseCard('AH'));
  });
});
