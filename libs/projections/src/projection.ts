import { changesScorecard, publicView, scorecard, seatOwn, turnDue, type BismarckEvent, type Seat } from '@bismarck/rules';
import type { FoldedMatch } from '@bismarck/match';
import type { ProjectionArgument } from './project-function';

/**
 * Every row the read side keeps for one match, as a pure function of its folded state. The
 * scorecard's `version` is that of the last event that changed it; it is left out when the
 * caller knows that nothing changed it (most commands: a card played).
 */
export type MatchProjection = Pick<ProjectionArgument, 'match' | 'view' | 'seats' | 'scorecard'>;

/** The rest of the inline projection's argument: rows kept beside the log (a new seat's token hash, a seeded match's seed, a deal's seed). */
export type ProjectionExtras = Omit<ProjectionArgument, keyof MatchProjection>;

export interface StreamTimes {
  /** When the stream's first event was recorded. */
  createdAt: string;
  /** When its last event was recorded. */
  updatedAt: string;
}

const SEATS: Seat[] = [0, 1, 2];

/** The version of the last of `events` (the first at `firstVersion`) that changed the scorecard, or null. */
export function scorecardChangedAt(events: readonly BismarckEvent[], firstVersion: number): number | null {
  for (let i = events.length - 1; i >= 0; i--) if (changesScorecard(events[i])) return firstVersion + i;
  return null;
}

/**
 * The documents served to callers. Built here, once, from the folded state: the same function feeds
 * the inline write of a command and a rebuild from the log, so the two cannot drift apart.
 * `scorecardAt`: the version of the last event that changed the scorecard; null leaves it out.
 */
export function projectMatch(matchId: string, { version, state, checkpoint }: FoldedMatch, times: StreamTimes, scorecardAt: number | null): MatchProjection {
  // The turn began when the last event was recorded: the clock counts from there.
  const view = publicView(state, times.updatedAt);
  const projection: MatchProjection = {
    match: {
      id: matchId,
      version,
      status: view.status,
      phase: view.phase,
      deal_number: view.dealNumber,
      deals_in_match: view.dealsInMatch,
      players: view.seats.map((s) => s.name),
      options: view.options,
      seeded: view.seeded,
      totals: view.totals,
      winners: view.winners,
      created_at: times.createdAt,
      updated_at: times.updatedAt,
      forked_from: view.forkedFrom,
      turn_deadline: turnDue(state, times.updatedAt)?.deadline ?? null,
    },
    // The checkpoint's hash is added when the view is read (it is in the events table, computed by the append).
    view: { match_id: matchId, version, doc: { id: matchId, version, ...view, checkpoint: { version: checkpoint } } },
    seats: SEATS.map((seat) => ({ match_id: matchId, seat, version, doc: seatOwn(state, seat) })),
  };
  if (scorecardAt !== null) projection.scorecard = { match_id: matchId, version: scorecardAt, doc: scorecard(state) };
  return projection;
}
