// Random legal play: a bot for tests, the bench and the CLI. Pure: randomness and decks come in.
import { type CardId, cardCode, toIds } from './cards';
import { decide } from './decide';
import { legalActions } from './legal';
import { evolve } from './evolve';
import { type MatchState, initialState, seatToAct } from './state';
import type { BismarckEvent, Card, Command, MatchOptions, Seat } from './types';

export interface RandomPlay {
  /** Uniform in [0, 1). */
  readonly random: () => number;
  /** The deck for the n-th deal command of the match (0-based, voided deals included). */
  readonly deck: (n: number) => Card[];
  /** Chance that forehand leads before laying away under leadBeforeDiscard=redeal (voids the deal). Default 0. */
  readonly leadBeforeDiscard?: number;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)];


/** A uniformly random legal command for the seat to act, or null when the match is over. */
export const randomCommand = (state: MatchState, play: RandomPlay, dealsSoFar: number): Command | null => {
  const seat = seatToAct(state);
  if (seat === null) return null;
  const legal = legalActions(state, seat);
  if (legal === null) return null;
  const { random } = play;
  switch (legal.action) {
    case 'deal':
      return { type: 'deal', seat, deck: play.deck(dealsSoFar) };
    case 'chooseContract': {
      const contract = pick(legal.contracts, random);
      return { type: 'chooseContract', seat, contract, trump: contract === 'trump' ? pick(legal.trumps, random) : null };
    }
    case 'discard': {
      const hand: CardId[] = state.status === 'layingAway' && state.hands ? toIds(state.hands[seat]) : [];
      const early = state.status === 'layingAway' && state.options.leadBeforeDiscard === 'redeal';
      if (early && (play.leadBeforeDiscard ?? 0) > random()) return { type: 'playCard', seat, card: cardCode(pick(hand, random)) };
      const cards: Card[] = [];
      for (let i = 0; i < legal.count; i++) {
        const k = Math.floor(random() * hand.length);
        cards.push(cardCode(hand[k]));
        hand.splice(k, 1);
      }
      return { type: 'discard', seat, cards };
    }
    case 'play':
      return { type: 'playCard', seat, card: pick(legal.cards, random) };
    case 'cut':
      return { type: 'cut', seat, cut: `cut-${Math.floor(random() * 1e9)}` };
  }
};

export interface PlayedMatch {
  readonly events: BismarckEvent[];
  readonly state: MatchState;
  readonly decisions: number;
}

/**
 * Creates a match and plays it to the end with random legal commands. `onStep` sees every state
 * with the command and the events it produced (for property tests). Stops after `maxDecisions`.
 */
export const playRandomMatch = (
  options: Partial<MatchOptions>,
  firstDealer: Seat,
  play: RandomPlay,
  onStep?: (before: MatchState, command: Command, events: BismarckEvent[], after: MatchState) => void,
  maxDecisions = 10_000,
): PlayedMatch => {
  const create: Command = {
    type: 'createMatch',
    matchId: 'm',
    players: ['ann', 'bob', 'cyd'],
    options,
    firstDealer,
    seeded: true,
  };
  const events = decide(create, initialState());
  let state = events.reduce(evolve, initialState());
  let decisions = 1;
  let deals = 0;
  for (;;) {
    const command = randomCommand(state, play, deals);
    if (command === null || decisions >= maxDecisions) break;
    if (command.type === 'deal') deals++;
    const produced = decide(command, state);
    const before = state;
    for (const e of produced) {
      state = evolve(state, e);
      events.push(e);
    }
    decisions++;
    onStep?.(before, command, produced, state);
  }
  return { events, state, decisions };
};

/** mulberry32: a small, fast, seedable PRNG for random players (benches, tests, bots); decks come from shuffleDeck. */
export const mulberry32 = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
