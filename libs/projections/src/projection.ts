import { publicView, scorecard, seatView, type MatchState, type Seat } from '@bismarck/rules';

export interface MatchListRow {
  id: string;
  version: number;
  status: string;
  phase: string;
  deal_number: number;
  deals_in_match: number;
  /** null for an open seat of a waiting match. */
  players: (string | null)[];
  options: unknown;
  seeded: boolean;
  totals: number[];
  winners: number[] | null;
  created_at: string;
  updated_at: string;
}
export interface DocRow {
  match_id: string;
  version: number;
  doc: unknown;
}
export interface SeatViewRow extends DocRow {
  seat: Seat;
}

/** Every row the read side keeps for one match, as a pure function of its folded state. */
export interface MatchProjection {
  match: MatchListRow;
  view: DocRow;
  seats: SeatViewRow[];
  scorecard: DocRow;
}

export interface StreamTimes {
  /** When the stream's first event was recorded. */
  createdAt: string;
  /** When its last event was recorded. */
  updatedAt: string;
}

const SEATS: Seat[] = [0, 1, 2];

/**
 * The documents served to callers. Built here, once, from the folded state: the same function feeds
 * the inline write of a command and a rebuild from the log, so the two cannot drift apart.
 */
export function projectMatch(matchId: string, version: number, state: MatchState, times: StreamTimes): MatchProjection {
  const view = publicView(state);
  return {
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
    },
    view: { match_id: matchId, version, doc: { id: matchId, version, ...view } },
    seats: SEATS.map((seat) => ({
      match_id: matchId,
      seat,
      version,
      doc: { id: matchId, version, ...seatView(state, seat, view) },
    })),
    scorecard: { match_id: matchId, version, doc: { id: matchId, version, ...scorecard(state) } },
  };
}
