// What a seat may do now: the legal moves, the winner of a trick, the contracts forehand may choose.
import { cutterOf } from './fairness';
import { type CardSet, type SuitId, SUITS, parseCard, rankOf, suitCards, suitMask, suitOf, toCodes } from './cards';
import { dealPlan, exhaustive } from './options';
import { CONTRACTS } from './scoring';
import { type AwaitingContract, type MatchState, trumpSuitId } from './state';
import type { Contract, LegalAction, MatchOptions, PlayedCard, Seat, Suit } from './types';

/**
 * The cards of `hand` that may be played to `trick`: anything when leading; else a card of the led
 * suit if the hand holds one; else (mustTrump only) a trump if it holds one; else anything.
 */
export const legalPlays = (hand: CardSet, trick: readonly PlayedCard[], trump: number, mustTrump: boolean): CardSet => {
  if (trick.length === 0) return hand;
  const led = suitOf(parseCard(trick[0].card));
  if (suitMask(hand, led) !== 0) return suitCards(hand, led);
  if (mustTrump && trump >= 0 && suitMask(hand, trump as SuitId) !== 0) return suitCards(hand, trump as SuitId);
  return hand;
};

/** The highest trump in the trick wins it; with no trump in it, the highest card of the led suit. */
export const trickWinner = (cards: readonly PlayedCard[], trump: number): Seat => {
  let best = parseCard(cards[0].card);
  let winner = cards[0].seat;
  for (let i = 1; i < cards.length; i++) {
    const c = parseCard(cards[i].card);
    if (beats(c, best, trump)) {
      best = c;
      winner = cards[i].seat;
    }
  }
  return winner;
};

const beats = (c: number, best: number, trump: number): boolean => {
  const s = suitOf(c);
  const b = suitOf(best);
  if (s === b) return rankOf(c) > rankOf(best);
  return s === trump;
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
