// What a seat may do now: the legal moves, the winner of a trick, the contracts forehand may choose.
import { cutterOf } from './fairness';
import { type CardSet, SUITS, inSuits, parseCard, rankOf, suitOf, suitsOf, toCodes } from './cards';
import { dealPlan, exhaustive } from './options';
import { CONTRACTS } from './scoring';
import { type AwaitingContract, type MatchState, trumpSuitId } from './state';
import type { Contract, LegalAction, MatchOptions, PlayedCard, Seat, Suit } from './types';

// The follow-suit and trick rules are stated once, over suit numbers and 4-bit suit masks (bit s =
// suit s), so that libs/solver and the bots' playouts, which keep cards in encodings of their own,
// call them on their hot paths without converting a card or allocating anything.

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

/** The cards of `hand` that may be played to `trick` (`playableSuits`). */
export const legalPlays = (hand: CardSet, trick: readonly PlayedCard[], trump: number, mustTrump: boolean): CardSet => {
  const led = trick.length === 0 ? -1 : suitOf(parseCard(trick[0].card));
  return inSuits(hand, playableSuits(suitsOf(hand), led, trump, mustTrump));
};

/** The seat whose card beats every other card of the trick (`beats`). */
export const trickWinner = (cards: readonly PlayedCard[], trump: number): Seat => {
  let best = parseCard(cards[0].card);
  let winner = cards[0].seat;
  for (let i = 1; i < cards.length; i++) {
    const c = parseCard(cards[i].card);
    if (beats(suitOf(c), rankOf(c), suitOf(best), rankOf(best), trump)) {
      best = c;
      winner = cards[i].seat;
    }
  }
  return winner;
};

/** The contracts forehand may announce now (the compendium rule of the modern schedule). */
export const allowedContracts = (state: AwaitingContract): Contract[] => {
  const plan = dealPlan(state.options, state.dealNumber);
  switch (plan.kind) {
    case 'choose': {
      const used = state.contractsPlayed[state.forehand];
      return CONTRACTS.filter((c) => used[c] === undefined);
    }
    case 'freeTrump':
      return ['trump'];
    case 'fixed':
      return [plan.contract];
    default:
      return exhaustive(plan);
  }
};

export const allowedTrumps = (options: MatchOptions): Suit[] =>
  options.spadesInFreeTrump ? SUITS.slice() : SUITS.filter((s) => s !== 'S');

/** What `seat` may do now, or null when it is not this seat's turn to act. */
export const legalActions = (state: MatchState, seat: Seat): LegalAction | null => {
  switch (state.status) {
    case 'empty':
    case 'awaitingPlayers':
    case 'abandoned':
    case 'finished':
      return null;
    case 'awaitingDeal':
      if (seat === state.dealer) return { action: 'deal' };
      return seat === cutterOf(state.dealer) && state.cut === null ? { action: 'cut' } : null;
    case 'awaitingContract': {
      if (seat !== state.forehand) return null;
      const contracts = allowedContracts(state);
      return { action: 'chooseContract', contracts, trumps: contracts.includes('trump') ? allowedTrumps(state.options) : [] };
    }
    case 'layingAway':
      return seat === state.forehand ? { action: 'discard', count: 4 } : null;
    case 'trickPlay':
      if (seat !== state.turn) return null;
      return {
        action: 'play',
        cards: toCodes(legalPlays(state.hands[seat], state.trick, trumpSuitId(state.trump), state.options.mustTrump)),
      };
    default:
      return exhaustive(state);
  }
};
