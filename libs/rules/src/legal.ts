// What a seat may do now: the legal moves, the winner of a trick, the contracts forehand may choose.
// The follow-suit and trick rules themselves are trick.ts's, over card numbers; here over codes and states.
import { cutterOf } from './fairness';
import { type CardSet, SUITS, inSuits, parseCard, suitOf, suitsOf, toCodes } from './cards';
import { dealPlan, exhaustive } from './options';
import { CONTRACTS } from './scoring';
import { type AwaitingContract, type MatchState, trumpSuitId } from './state';
import { playableSuits, winningIndex } from './trick';
import type { Contract, MatchOptions, PlayedCard, Seat, Suit } from './types';
import type { LegalAction } from './shown';

/** The cards of `hand` that may be played to `trick` (`playableSuits`). */
export const legalPlays = (hand: CardSet, trick: readonly PlayedCard[], trump: number, mustTrump: boolean): CardSet => {
  const led = trick.length === 0 ? -1 : suitOf(parseCard(trick[0].card));
  const held = suitsOf(hand);
  const suits = playableSuits(held, led, trump, mustTrump);
  // every suit held (a lead, a discard): the hand itself, not a copy
  return suits === held ? hand : inSuits(hand, suits);
};

/** The place in `trick` of the card winning it so far (`winningIndex`), or -1 for no card yet. */
export const winningPlay = (trick: readonly PlayedCard[], trump: number): number =>
  trick.length === 0 ? -1 : winningIndex(trick.map((p) => parseCard(p.card)), 0, trick.length, trump);

/** The seat whose card takes the trick (`winningIndex`). */
export const trickWinner = (cards: readonly PlayedCard[], trump: number): Seat => cards[winningPlay(cards, trump)].seat;

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
