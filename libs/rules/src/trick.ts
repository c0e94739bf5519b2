// Following suit and taking a trick, stated once, over the engine's card numbers (cards.ts: a card is
// suit * 13 + rank) and 4-bit suit masks (bit s = suit s). In this form libs/solver's search and the
// bots' playouts call them on their hot paths with no card converted and nothing allocated; the rules'
// own `legalPlays` and `trickWinner` (legal.ts) are these same functions over card codes.
import { type CardId, rankOf, suitOf } from './cards';

/**
 * The suits a hand holding the suits `held` may play from: any it holds when leading (`led` -1);
 * else the suit led if it holds one; else (mustTrump only) trumps if it holds one; else any it holds.
 */
export const playableSuits = (held: number, led: number, trump: number, mustTrump: boolean): number => {
  if (led < 0) return held;
  if (held & (1 << led)) return 1 << led;
  if (mustTrump && trump >= 0 && held & (1 << trump)) return 1 << trump;
  return held;
};

/**
 * The suits a seat shows it does not hold by playing a card of suit `played` to a trick led in `led`:
 * those whose holding would have forbidden that card (the suit led; under mustTrump, trumps too).
 */
export const voidsShown = (played: number, led: number, trump: number, mustTrump: boolean): number => {
  let voids = 0;
  for (let s = 0; s < 4; s++) if ((playableSuits((1 << played) | (1 << s), led, trump, mustTrump) & (1 << played)) === 0) voids |= 1 << s;
  return voids;
};

/**
 * Does a card (its suit and rank, 0..12 = 2..A) beat the card winning the trick so far? Only a higher
 * card of the same suit, or a trump on a card that is not one: so the highest trump takes the trick,
 * and with no trump in it the highest card of the suit led.
 */
export const beats = (suit: number, rank: number, bestSuit: number, bestRank: number, trump: number): boolean =>
  suit === bestSuit ? rank > bestRank : suit === trump;

/** `beats` on two cards. */
export const beatsCard = (card: CardId, best: CardId, trump: number): boolean =>
  beats(suitOf(card), rankOf(card), suitOf(best), rankOf(best), trump);

/** `beats` over a whole suit: the ranks of suit `suit` (bit r = rank r) that beat the card winning the trick. */
export const beatingRanks = (suit: number, bestSuit: number, bestRank: number, trump: number): number =>
  suit === bestSuit ? 0x1fff & ~((2 << bestRank) - 1) : suit === trump ? 0x1fff : 0;

/**
 * The trick winner: the place, 0 to count - 1, of the card that beats every other of the `count`
 * cards at cards[from..] (in the order played; fewer than three: the card winning the trick so far).
 */
export const winningIndex = (cards: ArrayLike<CardId>, from: number, count: number, trump: number): number => {
  let best = 0;
  for (let i = 1; i < count; i++) if (beatsCard(cards[from + i], cards[from + best], trump)) best = i;
  return best;
};
