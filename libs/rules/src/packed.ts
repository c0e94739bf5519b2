// The packed card numbering, the specialised form of trick.ts for libs/solver's search: a card is
// suit * 16 + rank (rank 0..12 = 2..A, suit 0..3 = S H D C), so its suit and rank are a shift and a
// mask where the engine's numbering (cards.ts, suit * 13 + rank) needs a division and a remainder,
// and a card's rank is its bit in the suit's 13-bit rank mask. The trick rule is still `beats`
// (trick.ts); only the numbering differs. The search keeps its plays in an Int32Array, so
// `winningIndexPacked` takes one: one array shape at that call site, and the rules' own callers of
// `winningIndex` (plain arrays) do not make it polymorphic.
import type { CardId } from './cards';
import { beats } from './trick';

/** The packed card of a suit (0..3) and a rank (0..12). */
export const packedCard = (suit: number, rank: number): number => (suit << 4) | rank;
export const packedSuit = (p: number): number => p >> 4;
export const packedRank = (p: number): number => p & 15;

/** The packed number of a card number (suit * 13 + rank), and back. */
export const packCard = (c: CardId): number => (((c / 13) | 0) << 4) | c % 13;
export const unpackCard = (p: number): CardId => (p >> 4) * 13 + (p & 15);

/** `beatsCard` on packed cards. */
export const beatsPacked = (card: number, best: number, trump: number): boolean => beats(card >> 4, card & 15, best >> 4, best & 15, trump);

/** `winningIndex` on packed cards held in an Int32Array: the place of the card taking the `count` cards at cards[from..]. */
export const winningIndexPacked = (cards: Int32Array, from: number, count: number, trump: number): number => {
  let best = 0;
  for (let i = 1; i < count; i++) if (beatsPacked(cards[from + i], cards[from + best], trump)) best = i;
  return best;
};
