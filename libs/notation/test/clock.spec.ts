// Turn clocks in the notation: the clock's option line, and the timeouts and returns in log order,
// even in the middle of a trick (its line goes on below them): the round trip stays exact.
import { decide, evolve, initialState, mulberry32, randomCommand, seatToAct, shuffleDeck, standInDue, visibleEvents, type BismarckEvent, type Command, type MatchState } from '@bismarck/rules';
import { fromNotation, toNotation } from '../src';

/** A quick match with a 30-second clock in which seat 0 times out twice in a row (away), comes back now and then, and plays one turn itself. */
function clockedMatch(seed: number): BismarckEvent[] {
  const events: BismarckEvent[] = [];
  let state: MatchState = initialState();
  const apply = (command: Command): void => {
    for (const e of decide(command, state)) {
      events.push(e);
      state = evolve(state, e);
    }
  };
  apply({ type: 'createMatch', matchId: 'clocked', players: ['Ann', 'Bob', 'Cyd'], options: { schedule: 'quick', clock: { turnSeconds: 30 } }, firstDealer: 0, seeded: true });
  const random = mulberry32(seed);
  for (let deals = 0, turns = 0; state.status !== 'finished'; ) {
    if (seatToAct(state) === 0 && standInDue(state) === null && turns++ % 3 !== 2) {
      apply({ type: 'timeOut', now: '2026-12-05T12:00:30.000Z', since: '2026-12-05T12:00:00.000Z' });
      continue;
    }
    if (state.status !== 'empty' && state.status !== 'awaitingPlayers' && state.status !== 'abandoned' && state.presence.away[0] && random() < 0.1) {
      apply({ type: 'returnToSeat', seat: 0 });
      continue;
    }
    const command = randomCommand(state, { random, deck: (n) => shuffleDeck(`clock-${seed}`, n) }, deals)!;
    if (command.type === 'deal') deals++;
    apply(standInDue(state) === null ? command : { ...command, standIn: true });
  }
  return events;
}

describe('the notation of a match with a turn clock', () => {
  it.each([1, 2, 3])('gives back every event, timeouts and returns inside tricks included (seed %i)', (seed) => {
    const events = clockedMatch(seed);
    const midTrick = events.findIndex((e, i) => e.type === 'TurnTimedOut' && events[i - 1]?.type === 'CardPlayed');
    expect(midTrick).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'SeatReturned')).toBe(true);
    const text = toNotation(events);
    expect(text).toContain('Clock: 30s, standIn');
    expect(text).toContain('Timed out: seat 0, deadline "2026-12-05T12:00:30.000Z"');
    expect(fromNotation(text)).toEqual(events);
    // A seat's redacted view of the log in the middle, too.
    const cut = visibleEvents(events.slice(0, midTrick + 2), 1);
    expect(fromNotation(toNotation(cut))).toEqual(cut);
  });
});
