// Turn clocks: the rules decide a timeout from the times they are given, remember who timed out and
// who is away, and let a stand-in move only for such a seat.
import { type BismarckEvent, type Command, decide, fold, forkableVersions, publicView, seatToAct, standInDue, turnClock, turnDue, type MatchState } from '../src';
import { randomCommand } from '../src/simulate';
import { shuffleDeck } from '../src';
import { create, given, history } from './given';

const T0 = '2026-12-05T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const clocked = (turnSeconds = 30) => history(create({ schedule: 'quick', clock: { turnSeconds, onTimeout: 'standIn' } }, 0));
const timeOut = (now: string, since = T0): Command => ({ type: 'timeOut', now, since });

/** The first legal move of the seat to act (decks from a fixed shuffle), as that seat's own or the stand-in's. */
const move = (state: MatchState, standIn = false): Command => {
  const command = randomCommand(state, { random: () => 0, deck: (n) => shuffleDeck('clock', n) }, 0)!;
  return standIn ? { ...command, standIn: true } : command;
};
const apply = (events: BismarckEvent[], command: Command): BismarckEvent[] => [...events, ...decide(command, fold(events))];

describe('the clock option', () => {
  it('is recorded only when set, with its default onTimeout', () => {
    const [created] = history(create({ clock: { turnSeconds: 60 } as never }));
    expect(created.type === 'MatchCreated' && created.data.options.clock).toEqual({ turnSeconds: 60, onTimeout: 'standIn' });
    const [plain] = history(create());
    expect(plain.type === 'MatchCreated' && plain.data.options).not.toHaveProperty('clock');
  });

  it.each([[{ turnSeconds: 4 }], [{ turnSeconds: 3601 }], [{ turnSeconds: 10.5 }], [{ turnSeconds: 10, onTimeout: 'skip' }], [{ turnSeconds: 10, x: 1 }], [[10]]])('refuses %j', (clock) => {
    given([]).when(create({ clock } as never)).thenThrows('VALIDATION_FAILED');
  });
});

describe('a timeout', () => {
  it('is refused before the deadline and in a match without a clock', () => {
    given(clocked(30)).when(timeOut(at(29.999))).thenThrows('WRONG_PHASE');
    given(history(create({ schedule: 'quick' }))).when(timeOut(at(3600))).thenThrows('WRONG_PHASE');
  });

  it('times out the seat to act at its deadline, counted from when the turn began', () => {
    const events = clocked(30);
    expect(seatToAct(fold(events))).toBe(0);
    given(events).when(timeOut(at(31), at(1))).then([{ type: 'TurnTimedOut', data: { seat: 0, deadline: at(31) } }]);
  });

  it('lets a stand-in make that one decision, then the clock runs for the next seat', () => {
    let events = apply(clocked(), timeOut(at(30)));
    const state = fold(events);
    expect(standInDue(state)).toBe(0);
    expect(turnClock(state, at(30))).toBeNull();
    expect(turnDue(state, at(30))).toMatchObject({ seat: 0, deadline: at(30), standIn: true });
    // A second timeout while the stand-in is due is refused: one timeout per turn.
    given(events).when(timeOut(at(90), at(30))).thenThrows('WRONG_PHASE');
    events = apply(events, move(state, true));
    const after = fold(events);
    expect(standInDue(after)).toBeNull();
    expect(after.status !== 'empty' && after.status !== 'awaitingPlayers' && after.status !== 'abandoned' && after.presence.timeouts).toEqual([1, 0, 0]);
    expect(publicView(after, at(31)).clock).toEqual({ seat: seatToAct(after), deadline: at(61), turnSeconds: 30 });
  });

  it("refuses the person's own move once it timed out: that decision is the stand-in's, and the row of timeouts stands", () => {
    const events = apply(clocked(), timeOut(at(30)));
    given(events).when(move(fold(events))).thenThrows('NOT_YOUR_TURN');
    const after = fold(apply(events, move(fold(events), true)));
    expect(after.status !== 'empty' && after.status !== 'awaitingPlayers' && after.status !== 'abandoned' && after.presence).toEqual({
      timeouts: [1, 0, 0],
      away: [false, false, false],
      standingIn: null,
    });
  });

  it('refuses the own move after the second timeout too; coming back with POST …/back takes that decision back', () => {
    const events = timeOutSeat0(clocked(), 2);
    given(events).when(move(fold(events))).thenThrows('NOT_YOUR_TURN');
    const back = apply(events, { type: 'returnToSeat', seat: 0 });
    expect(standInDue(fold(back))).toBeNull();
    expect(decide(move(fold(back)), fold(back))[0]?.type).not.toBe('SeatReturned');
  });

  it('refuses a stand-in for a seat that is present', () => {
    const events = clocked();
    given(events).when(move(fold(events), true)).thenThrows('NOT_YOUR_TURN');
  });
});

/** Plays on with timeouts for seat 0 and own moves for the others, until seat 0 has timed out `n` times. */
const timeOutSeat0 = (events: BismarckEvent[], n: number): BismarckEvent[] => {
  let timeouts = 0;
  while (timeouts < n) {
    const state = fold(events);
    if (seatToAct(state) === 0 && standInDue(state) === null) {
      events = apply(events, timeOut(at(10_000)));
      timeouts++;
    } else events = apply(events, move(state, standInDue(state) !== null));
  }
  return events;
};

describe('away', () => {
  it('follows two timeouts in a row; a move of its own in between breaks the row', () => {
    let events = timeOutSeat0(clocked(), 1);
    events = apply(events, move(fold(events), true));
    // Seat 0 acts itself the next time: the row is broken.
    while (seatToAct(fold(events)) !== 0) events = apply(events, move(fold(events)));
    events = apply(events, move(fold(events)));
    events = timeOutSeat0(events, 1);
    expect(publicView(fold(events)).away).toEqual([false, false, false]);
    events = apply(events, move(fold(events), true));
    events = timeOutSeat0(events, 1);
    expect(publicView(fold(events)).away).toEqual([true, false, false]);
  });

  it('lets the stand-in play every turn at once (no clock shown) until the person acts or comes back', () => {
    let events = timeOutSeat0(clocked(), 2);
    for (let i = 0; i < 6; i++) {
      const state = fold(events);
      if (seatToAct(state) === 0) {
        expect(standInDue(state)).toBe(0);
        expect(turnClock(state, T0)).toBeNull();
      }
      events = apply(events, move(state, standInDue(state) !== null));
    }
    expect(publicView(fold(events)).away[0]).toBe(true);
    // Coming back: SeatReturned alone; a second time is refused.
    const back = decide({ type: 'returnToSeat', seat: 0 }, fold(events));
    expect(back).toEqual([{ type: 'SeatReturned', data: { seat: 0 } }]);
    given([...events, ...back]).when({ type: 'returnToSeat', seat: 0 }).thenThrows('SEAT_NOT_AWAY');
    given(events).when({ type: 'returnToSeat', seat: 1 }).thenThrows('SEAT_NOT_AWAY');
  });

  it("brings the seat back with its own move: SeatReturned first, in the same decision", () => {
    let events = timeOutSeat0(clocked(), 2);
    // The decision that timed out is the stand-in's; the next turns of seat 0 are the person's to take back.
    events = apply(events, move(fold(events), true));
    while (seatToAct(fold(events)) !== 0) events = apply(events, move(fold(events)));
    const own = decide(move(fold(events)), fold(events));
    expect(own[0]).toEqual({ type: 'SeatReturned', data: { seat: 0 } });
    expect(own.length).toBeGreaterThan(1);
    const state = fold([...events, ...own]);
    expect(publicView(state).away).toEqual([false, false, false]);
  });

  it('is not copied into a fork: the moves are, the presence events are not', () => {
    let events = timeOutSeat0(clocked(), 2);
    while (fold(events).status !== 'finished') {
      const state = fold(events);
      events = apply(events, move(state, standInDue(state) !== null));
    }
    const versions = forkableVersions(events);
    const at = versions[versions.length - 1];
    const fork = decide({ type: 'forkMatch', matchId: 'fork-1', from: { matchId: 'match-1', version: at, events } }, fold([]));
    expect(fork.some((e) => e.type === 'TurnTimedOut' || e.type === 'SeatReturned')).toBe(false);
    expect(fold(fork).status).toBe('finished');
  });
});
