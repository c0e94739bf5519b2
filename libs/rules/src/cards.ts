// Cards inside the engine are small integers and sets of cards are bit sets; the two-character codes
// of the HTTP API ('AS', 'TH', '2C') exist only at the edge. This is the one place that converts.
//
// A card is suit * 13 + rank, where suit 0..3 = S H D C and rank 0..12 = 2 3 4 5 6 7 8 9 T J Q K A
// (so a higher rank number is a higher card, and 0..51 is the order of `freshDeck`).
//
// A CardSet is two 32-bit words, chessops style (no bigint): `lo` holds spades in bits 0..12 and
// hearts in bits 16..28, `hi` holds diamonds and clubs the same way. Giving each suit its own 16-bit
// half-word makes "the cards of one suit" a shift and a mask, which is what following suit needs.
import type { Card, Suit } from './types';

export type CardId = number;
export type SuitId = 0 | 1 | 2 | 3;

export interface CardSet {
  readonly lo: number;
  readonly hi: number;
}

export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];
export const RANKS = '23456789TJQKA';
export const DECK_SIZE = 52;

const CODES: readonly Card[] = Array.from({ length: DECK_SIZE }, (_, c) => RANKS[c % 13] + SUITS[(c / 13) | 0]);
// Parsing is on the hot path of every play: two char-code table look-ups instead of a hash map.
const RANK_OF_CHAR = new Int8Array(128).fill(-1);
const SUIT_OF_CHAR = new Int8Array(128).fill(-1);
for (let r = 0; r < 13; r++) RANK_OF_CHAR[RANKS.charCodeAt(r)] = r;
for (let s = 0; s < 4; s++) SUIT_OF_CHAR[SUITS[s].charCodeAt(0)] = s;

/** 'AS' → 12. Returns -1 for anything that is not a card code (callers validate first). */
export const parseCard = (code: Card): CardId => {
  if (typeof code !== 'string' || code.length !== 2) return -1;
  const r = RANK_OF_CHAR[code.charCodeAt(0) & 127];
  const s = SUIT_OF_CHAR[code.charCodeAt(1) & 127];
  return r < 0 || s < 0 || code.charCodeAt(0) > 127 || code.charCodeAt(1) > 127 ? -1 : s * 13 + r;
};

export const isCardCode = (s: unknown): s is Card => parseCard(s as Card) >= 0;
export const cardCode = (c: CardId): Card => CODES[c];

/** The card of a suit (0..3 = S H D C) and a rank (0..12 = 2..A). */
export const cardOf = (suit: number, rank: number): CardId => suit * 13 + rank;
export const suitOf = (c: CardId): SuitId => ((c / 13) | 0) as SuitId;
export const rankOf = (c: CardId): number => c % 13;
export const suitId = (s: Suit): SuitId => SUITS.indexOf(s) as SuitId;
export const isSuit = (s: unknown): s is Suit => s === 'S' || s === 'H' || s === 'D' || s === 'C';

/** The 52 codes in the order 2S 3S .. AS 2H .. AC: the deck before shuffling. */
export const freshDeck = (): Card[] => CODES.slice();

// ---- card sets ---------------------------------------------------------------------------------

export const EMPTY: CardSet = { lo: 0, hi: 0 };

const bitOf = (c: CardId): number => 1 << (((c / 13) & 1) * 16 + (c % 13));
const inHi = (c: CardId): boolean => c >= 26;

export const has = (set: CardSet, c: CardId): boolean => ((inHi(c) ? set.hi : set.lo) & bitOf(c)) !== 0;

export const withCard = (set: CardSet, c: CardId): CardSet =>
  inHi(c) ? { lo: set.lo, hi: set.hi | bitOf(c) } : { lo: set.lo | bitOf(c), hi: set.hi };

export const withoutCard = (set: CardSet, c: CardId): CardSet =>
  inHi(c) ? { lo: set.lo, hi: set.hi & ~bitOf(c) } : { lo: set.lo & ~bitOf(c), hi: set.hi };

export const union = (a: CardSet, b: CardSet): CardSet => ({ lo: a.lo | b.lo, hi: a.hi | b.hi });

export const fromCards = (cards: Iterable<CardId>): CardSet => {
  let lo = 0;
  let hi = 0;
  for (const c of cards) {
    if (inHi(c)) hi |= bitOf(c);
    else lo |= bitOf(c);
  }
  return { lo, hi };
};

/** The 13-bit rank mask of one suit in a set (bit r = rank r). */
export const suitMask = (set: CardSet, s: SuitId): number =>
  ((s >= 2 ? set.hi : set.lo) >>> ((s & 1) * 16)) & 0x1fff;

/** The suits a set holds a card of (bit s = suit s). */
export const suitsOf = (set: CardSet): number =>
  ((set.lo & 0x1fff) !== 0 ? 1 : 0) | ((set.lo >>> 16) !== 0 ? 2 : 0) | ((set.hi & 0x1fff) !== 0 ? 4 : 0) | ((set.hi >>> 16) !== 0 ? 8 : 0);

/** The cards of a set in the suits of a 4-bit mask (bit s = suit s). */
export const inSuits = (set: CardSet, suits: number): CardSet => ({
  lo: set.lo & ((suits & 1 ? 0x1fff : 0) | (suits & 2 ? 0x1fff0000 : 0)),
  hi: set.hi & ((suits & 4 ? 0x1fff : 0) | (suits & 8 ? 0x1fff0000 : 0)),
});

/** The set bits of a 32-bit word (a rank mask's cards). */
export const popcount = (x: number): number => {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

export const size = (set: CardSet): number => popcount(set.lo) + popcount(set.hi);

/** The cards of a set, ascending (2S .. AS, 2H .. AC). */
export const toIds = (set: CardSet): CardId[] => {
  const out: CardId[] = [];
  for (let s = 0 as SuitId; s < 4; s++) {
    let m = suitMask(set, s as SuitId);
    while (m !== 0) {
      const low = m & -m;
      out.push(s * 13 + (31 - Math.clz32(low)));
      m ^= low;
    }
  }
  return out;
};

// Display order for a hand: suits S H D C, then rank from ace down.
const DISPLAY: readonly Card[][] = [0, 1, 2, 3].map((s) =>
  Array.from({ length: 13 }, (_, i) => CODES[s * 13 + 12 - i]),
);

/** The codes of a set in display order: by suit (S H D C), then rank from ace down. */
export const toCodes = (set: CardSet): Card[] => {
  const out: Card[] = [];
  for (let s = 0; s < 4; s++) {
    const m = suitMask(set, s as SuitId);
    if (m === 0) continue;
    const row = DISPLAY[s];
    for (let r = 12; r >= 0; r--) if (m & (1 << r)) out.push(row[12 - r]);
  }
  return out;
};

/** Sorts codes for display (suit S H D C, then rank from ace down). Non-card strings keep their place at the end. */
export const sortCodes = (codes: readonly Card[]): Card[] =>
  codes.slice().sort((a, b) => displayKey(a) - displayKey(b));
const displayKey = (code: Card): number => {
  const c = parseCard(code);
  return c < 0 ? 1000 : suitOf(c) * 13 + (12 - rankOf(c));
};
