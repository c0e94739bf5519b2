// Plays deals locally with libs/rules (decide/evolve, no HTTP): each seat's bot sees only its seat view
// and the public history of the deal, as it would through the api. For the bench and the tests.
import {
  type BismarckEvent,
  type Card,
  type MatchOptions,
  type MatchState,
  type Seat,
  type SeatMove,
  type SeatView,
  type Triple,
  commandForMove,
  decide,
  evolve,
  freshDeck,
  initialState,
  legalActions,
  seatToAct,
  seatView,
  visibleEvents,
} from '@bismarck/rules';
import { type DealHistory, dealHistory } from './history';
import { type StrategyName, chooseAction } from './strategy';

export interface LocalMatch {
  state: MatchState;
  events: BismarckEvent[];
  /** Index in `events` of the current deal's DealStarted (the history a seat reads starts there). */
  dealStart: number;
}

/** A seeded match with three seats taken, waiting for its first deal. */
/** A deck in random order (Fisher–Yates over `random`), for local play. */
export const shuffledDeck = (random: () => number): Card[] => {
  const deck = freshDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
};

export const newLocalMatch = (options: Partial<MatchOptions>, firstDealer: Seat): LocalMatch => {
  const events = decide({ type: 'createMatch', matchId: 'local', players: ['a', 'b', 'c'], options, firstDealer, seeded: true }, initialState());
  return { state: events.reduce(evolve, initialState()), events, dealStart: events.length };
};

export interface Seats {
  readonly strategies: Triple<StrategyName>;
  /** Each seat's random source. */
  readonly random: Triple<() => number>;
  /** Extra context for the strong seats: its time budget and deals drawn per decision. */
  readonly budgetMs?: number;
  readonly samples?: number;
  /** Called with the time each decision of a `strong` seat took (milliseconds). */
  readonly onStrongDecision?: (ms: number, move: SeatMove) => void;
  /** Called before each decision, with what the seat sees (the tests check it). */
  readonly onDecision?: (seat: Seat, view: SeatView, history: DealHistory, match: LocalMatch) => void;
}

/** One step: the seat to act decides from its view and history; returns false when the match is over. */
export const step = (match: LocalMatch, seats: Seats, deck: () => string[]): boolean => {
  const seat = seatToAct(match.state);
  if (seat === null || legalActions(match.state, seat) === null) return false;
  const view = seatView(match.state, seat);
  const history = dealHistory(visibleEvents(match.events.slice(match.dealStart), seat));
  seats.onDecision?.(seat, view, history, match);
  const strategy = seats.strategies[seat];
  const start = performance.now();
  const move = chooseAction(view, strategy, { random: seats.random[seat], history, budgetMs: seats.budgetMs, samples: seats.samples });
  if (move === null) throw new Error(`seat ${seat} has a legal action and its bot chose none`);
  if (strategy === 'strong' && move.type !== 'deal') seats.onStrongDecision?.(performance.now() - start, move);
  const produced = decide(commandForMove(seat, move, deck), match.state);
  for (const e of produced) {
    if (e.type === 'DealStarted') match.dealStart = match.events.length;
    match.state = evolve(match.state, e);
    match.events.push(e);
  }
  return true;
};

/** Plays until the deal now under way (or about to be dealt) is scored; returns its points. */
export const playDeal = (match: LocalMatch, seats: Seats, deck: () => string[]): Triple<number> => {
  const scored = match.events.length;
  for (;;) {
    if (!step(match, seats, deck)) throw new Error('the match ended before the deal was scored');
    const last = match.events.slice(scored).find((e) => e.type === 'DealScored');
    if (last && last.type === 'DealScored') return last.data.points;
  }
};

/** A copy of a match to replay the same deal with other seats (events are never mutated). */
export const forkMatch = (match: LocalMatch): LocalMatch => ({ state: match.state, events: match.events.slice(), dealStart: match.dealStart });
