// Turn clocks (docs/rules.md, "Turn clocks"): a match created with `clock: { turnSeconds }` gives the
// person to act that long from the moment the turn began (the time the last event was recorded).
// When it runs out the service asks the rules to time the seat out (TurnTimedOut), and a stand-in bot
// makes that one decision for it; after two timeouts in a row the seat is away and the stand-in plays
// its turns at once, until the person acts again or says it is back (SeatReturned). The time is an
// input, like the deck: the rules never read a clock.
import { refuse } from './errors';
import { EVERYONE_PRESENT, seatToAct, type MatchState, type StartedMatch } from './state';
import type { BismarckEvent, Command, ReturnToSeat, Seat, TimeOut } from './types';
import type { TurnClock } from './shown';

const isStarted = (state: MatchState): state is StartedMatch =>
  state.status !== 'empty' && state.status !== 'awaitingPlayers' && state.status !== 'abandoned';

/** The seat to act when it is a person's (a started match, not a bot seat), with the match; else null. */
const personToAct = (state: MatchState): { seat: Seat; match: StartedMatch } | null => {
  const seat = seatToAct(state);
  return seat === null || !isStarted(state) || state.bots[seat] !== null ? null : { seat, match: state };
};

const standInIsDue = ({ seat, match }: { seat: Seat; match: StartedMatch }): boolean =>
  match.presence.away[seat] || match.presence.standingIn === seat;

/** The seat to act, when it is a person whose turn the stand-in takes now (it timed out, or it is away). */
export const standInDue = (state: MatchState): Seat | null => {
  const person = personToAct(state);
  return person !== null && standInIsDue(person) ? person.seat : null;
};

/**
 * When the service has to act next for the person to act, counted from `since` (when the turn
 * began): at the deadline of a running clock, or at once for a stand-in that is due. Null when no
 * clock runs (no clock option, a bot's turn, nobody to act).
 */
export const turnDue = (state: MatchState, since: string): (TurnClock & { standIn: boolean }) | null => {
  const person = personToAct(state);
  const turnSeconds = person?.match.options.clock?.turnSeconds;
  if (person === null || turnSeconds === undefined) return null;
  if (standInIsDue(person)) return { seat: person.seat, deadline: since, turnSeconds, standIn: true };
  return { seat: person.seat, deadline: new Date(Date.parse(since) + turnSeconds * 1000).toISOString(), turnSeconds, standIn: false };
};

/** The clock a caller is shown: the person's running turn (none while a stand-in plays for it). */
export const turnClock = (state: MatchState, since: string): TurnClock | null => {
  const due = turnDue(state, since);
  return due === null || due.standIn ? null : { seat: due.seat, deadline: due.deadline, turnSeconds: due.turnSeconds };
};

/** timeOut: only once the deadline has passed, for a person whose stand-in is not already due. */
export const timeOut = (command: TimeOut, state: StartedMatch): BismarckEvent[] => {
  const { now, since } = command;
  if (typeof now !== 'string' || typeof since !== 'string' || Number.isNaN(Date.parse(now)) || Number.isNaN(Date.parse(since)))
    return refuse('VALIDATION_FAILED', 'a timeout needs the time now and when the turn began');
  const due = turnDue(state, since);
  if (due === null) return refuse('WRONG_PHASE', 'no turn clock runs now');
  if (due.standIn) return refuse('WRONG_PHASE', `the stand-in is already due for seat ${due.seat}`);
  if (Date.parse(now) < Date.parse(due.deadline)) return refuse('WRONG_PHASE', `seat ${due.seat} has until ${due.deadline}`);
  return [{ type: 'TurnTimedOut', data: { seat: due.seat, deadline: due.deadline } }];
};

/** returnToSeat: only for a seat that is away. */
export const returnToSeat = (command: ReturnToSeat, state: StartedMatch): BismarckEvent[] => {
  const { seat } = command;
  if (seat !== 0 && seat !== 1 && seat !== 2) return refuse('VALIDATION_FAILED', 'seat must be 0, 1 or 2');
  if (!state.presence.away[seat]) return refuse('SEAT_NOT_AWAY', `seat ${seat} is not away`);
  return [{ type: 'SeatReturned', data: { seat } }];
};

/**
 * A seat's move as decided (`moved`), with presence around it: a stand-in's move only when one is due
 * for that seat, and then only the stand-in's; a person's own move while away brings the seat back first.
 */
export const withReturn = (command: Command & { seat: Seat }, state: StartedMatch, moved: BismarckEvent[]): BismarckEvent[] => {
  if (command.standIn === true) {
    if (standInDue(state) !== command.seat) return refuse('NOT_YOUR_TURN', `no stand-in is due for seat ${command.seat}`);
    return moved;
  }
  // Nobody timed out or away (every match without a clock): the move as it is.
  if (state.presence === EVERYONE_PRESENT) return moved;
  // Timed out: this decision is the stand-in's. A move arriving now lost the race to the timeout (never both).
  if (state.presence.standingIn === command.seat) return refuse('NOT_YOUR_TURN', `seat ${command.seat}'s time ran out: its stand-in makes this decision`);
  return state.presence.away[command.seat] ? [{ type: 'SeatReturned', data: { seat: command.seat } }, ...moved] : moved;
};
