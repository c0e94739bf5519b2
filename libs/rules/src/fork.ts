// Forking a finished match at any position (POST /api/matches/{id}/fork?version=N): a new match whose
// log starts with its own MatchCreated (seeded, `forkedFrom`) and then the original's moves up to
// version N, each decided again by the rules on the fork's own state, so that the fork rests exactly
// where the original rested after event N and plays on from there.
//
// What is not copied: the original's fairness events (DeckCommitted, SeedRevealed), its clock's
// (TurnTimedOut, SeatReturned: a stand-in's moves are copied as moves), its lobby (SeatJoined: the
// fork's MatchCreated names every seat) and its RematchOffered (the rematch follows the original, not
// the fork; a fork at the version after it is the finished fork, as at the one before). A fork deals from cards that are public, so
// it is seeded and commits to nothing; a deck it takes from the original says so in its DealStarted
// (`shuffle.copiedFrom`). So the fork's versions can be lower than the original's.
import { refuse, RuleViolation } from './errors';
import { recordedMove } from './recorded';
import { evolve, fold } from './evolve';
import { initialState, type MatchState } from './state';
import type { BismarckEvent, Command, CreateMatch, ForkedFrom, ForkMatch } from './types';

/**
 * Events never copied into a fork: the original's dealer's (part of the move before them) and its
 * clock's (who was at the table then says nothing about the position).
 */
const NOT_COPIED = new Set<BismarckEvent['type']>(['DeckCommitted', 'SeedRevealed', 'TurnTimedOut', 'SeatReturned']);

type Decide = (command: Command, state: MatchState) => BismarckEvent[];

/** What a fork's DealStarted records for a deck taken from the original: where it comes from, and the fork's cut. */
export type CopiedShuffle = {
  seeded: true;
  /** The cut made in the fork before the deal (recorded; a copied deck is the original's, whatever the cut). */
  cut: string | null;
  copiedFrom: ForkedFrom;
};

/**
 * The versions of a match's log at which it can be forked: 0 (the match as it started), then every
 * version at which the match, all seats taken, rests between two moves and waits for a seat. A
 * version inside a move (the third card of a trick before its TrickTaken, a DealScored before its
 * SeedRevealed) or inside a lobby's joins is no such position. Ascending; the last is the head of a
 * started match's log. Throws an Error for a log the rules do not replay.
 */
export const forkPositions = (events: readonly BismarckEvent[], decide: Decide): number[] =>
  [...replay(events, { matchId: 'original', version: 0 }, 'fork', decide).positions.keys()].sort((a, b) => a - b);

/**
 * Why `version` (no forkable version) is refused, and the forkable versions just before and after it
 * (`positions` ascending, from forkableVersions in decide.ts): the same words in the rules and the API.
 */
export const notForkable = (version: number, positions: readonly number[]): { before: number; after: number; message: string } => {
  const before = Math.max(...positions.filter((v) => v < version));
  const after = Math.min(...positions.filter((v) => v > version));
  const start = Math.min(...positions.filter((v) => v > 0));
  const why = version < start ? 'is before the match started (its seats were being taken)' : 'is inside a move (the events of one move are appended together)';
  return { before, after, message: `version ${version} ${why}: fork at ${before} or ${after}` };
};

/** forkMatch: refused unless the original is finished and `version` one of its forkableVersions. */
export const forkMatch = (command: ForkMatch, state: MatchState, decide: Decide): BismarckEvent[] => {
  if (state.status !== 'empty') return refuse('MATCH_EXISTS', 'this match already exists');
  const { matchId, from } = command;
  if (typeof matchId !== 'string' || matchId.length === 0) return refuse('VALIDATION_FAILED', 'matchId must be a non-empty string');
  if (from === null || typeof from !== 'object' || typeof from.matchId !== 'string' || from.matchId.length === 0 || !Array.isArray(from.events))
    return refuse('VALIDATION_FAILED', 'from must name the original match and hold its log');
  const log = from.events;
  if (log[0]?.type !== 'MatchCreated') return refuse('VALIDATION_FAILED', "the original's log starts with MatchCreated");
  if (fold(log).status !== 'finished') return refuse('MATCH_NOT_FINISHED', 'only a finished match can be forked: before the end its hands are secret');
  if (!Number.isSafeInteger(from.version) || from.version < 0 || from.version > log.length)
    return refuse('VALIDATION_FAILED', `version must be from 0 to ${log.length}, the match's version`);
  const { events, positions } = replay(log, { matchId: from.matchId, version: from.version }, matchId, decide);
  const length = positions.get(from.version);
  if (length === undefined) return refuse('VERSION_NOT_FORKABLE', notForkable(from.version, [...positions.keys()].sort((a, b) => a - b)).message);
  return events.slice(0, length);
};

/** The length of the original's log up to its start (creation, a lobby's joins, the first commitment), and its state there. */
function startOf(log: readonly BismarckEvent[]): { length: number; state: MatchState } {
  let state: MatchState = initialState();
  let i = 0;
  while (i < log.length && (i === 0 || state.status === 'awaitingPlayers')) state = evolve(state, log[i++]);
  while (i < log.length && NOT_COPIED.has(log[i].type)) i++;
  return { length: i, state };
}

/**
 * The fork's events for the whole original log, and its positions: original version → length of the
 * fork's log at that point. The fork starts with its own MatchCreated: the original's seats as the
 * lobby's joins filled them, its bots, options and first dealer; seeded, with `forkedFrom`. Then each
 * move of the original is decided again on the fork's state with the command it answers; what the
 * rules produce must be the original's events (its fairness events aside, and the shuffle record of a
 * deal, which is the fork's own). Anything else means the original's log does not replay: an Error,
 * not a refusal of the caller's request. A match that never started has only the position 0.
 */
function replay(log: readonly BismarckEvent[], forkedFrom: ForkedFrom, forkId: string, decide: Decide): { events: BismarckEvent[]; positions: Map<number, number> } {
  const start = startOf(log);
  const created = log[0];
  if (created?.type !== 'MatchCreated' || start.state.status !== 'awaitingDeal') return { events: [], positions: new Map([[0, 0]]) };
  const { players, bots, options, firstDealer } = start.state;
  const create: CreateMatch = { type: 'createMatch', matchId: forkId, players, bots, options, firstDealer, seeded: true, forkedFrom };
  const events = decide(create, initialState());
  let fork = fold(events);
  let i = start.length;
  const positions = new Map<number, number>([
    [0, events.length],
    [i, events.length],
  ]);
  while (i < log.length) {
    const first = log[i];
    // After the end: the rematch offered is no move of this match, and the match rests there as before it.
    if (first.type === 'RematchOffered' && fork.status === 'finished') {
      positions.set(++i, events.length);
      continue;
    }
    const command = commandOf(first, fork, { matchId: forkedFrom.matchId, version: i + 1 });
    if (command === null) throw new Error(`match ${forkedFrom.matchId}: ${first.type} at version ${i + 1} answers no move`);
    let produced: BismarckEvent[];
    try {
      produced = decide(command, fork);
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      throw new Error(`match ${forkedFrom.matchId}: the rules refuse the ${command.type} at version ${i + 1} (${error.code}): its log does not replay`);
    }
    for (const event of produced) {
      while (i < log.length && NOT_COPIED.has(log[i].type)) i++;
      if (i >= log.length || !sameEvent(event, log[i])) {
        throw new Error(`match ${forkedFrom.matchId}: version ${i + 1} is not the ${event.type} the rules decide: its log does not replay`);
      }
      fork = evolve(fork, event);
      events.push(event);
      i++;
    }
    // The dealer's events that close the move (a reveal, the next commitment) belong to it.
    while (i < log.length && NOT_COPIED.has(log[i].type)) i++;
    positions.set(i, events.length);
  }
  return { events, positions };
}

/** The command a move of the original answers, for the fork's state (a deal takes the original's deck). */
function commandOf(e: BismarckEvent, fork: MatchState, at: ForkedFrom): Command | null {
  switch (e.type) {
    case 'DealStarted': {
      const shuffle: CopiedShuffle = { seeded: true, cut: fork.status === 'awaitingDeal' ? fork.cut : null, copiedFrom: at };
      return { type: 'deal', seat: e.data.dealer, deck: e.data.deck ?? [], shuffle };
    }
    default:
      return recordedMove(e);
  }
}

/** The same event, key order aside; a DealStarted's shuffle record is the fork's own. */
function sameEvent(forked: BismarckEvent, original: BismarckEvent): boolean {
  if (forked.type !== original.type) return false;
  const data = (e: BismarckEvent): unknown => {
    if (e.type !== 'DealStarted') return e.data;
    const { shuffle: _shuffle, ...rest } = e.data;
    return rest;
  };
  return canonical(data(forked)) === canonical(data(original));
}

const canonical = (v: unknown): string => JSON.stringify(sortKeys(v));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  }
  return v;
}
