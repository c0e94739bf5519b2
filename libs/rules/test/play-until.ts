// A deterministic bot for building histories: always the first legal choice, decks from shuffleDeck.
import { type BismarckEvent, type Command, type MatchState, decide, evolve, fold, shuffleDeck } from '../src';
import { randomCommand } from '../src/simulate';

export interface Driven {
  events: BismarckEvent[];
  state: MatchState;
}

/** Plays on from `events` with the first legal choice until `stop(state)` holds (or the match ends). */
export const playUntil = (
  events: BismarckEvent[],
  stop: (state: MatchState) => boolean,
  override?: (state: MatchState, command: Command) => Command,
): Driven => {
  const out = events.slice();
  let state = fold(out);
  let deals = out.filter((e) => e.type === 'DealStarted').length;
  while (!stop(state)) {
    let command = randomCommand(state, { random: () => 0, deck: (n) => shuffleDeck('play-until', n) }, deals);
    if (command === null) break;
    if (override) command = override(state, command);
    if (command.type === 'deal') deals++;
    for (const e of decide(command, state)) {
      out.push(e);
      state = evolve(state, e);
    }
  }
  return { events: out, state };
};

export const awaiting = (status: MatchState['status'], deal?: number) => (s: MatchState) =>
  s.status === status && (deal === undefined || (s.status !== 'empty' && dealOfState(s) === deal));

const dealOfState = (s: Exclude<MatchState, { status: 'empty' }>): number =>
  s.status === 'awaitingDeal' ? s.upcomingDeal : s.status === 'awaitingPlayers' || s.status === 'abandoned' ? 0 : s.dealNumber;
