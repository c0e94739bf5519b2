// What callers are shown: the public view, a seat's view, the scorecard, and the stable codes of the
// rules' refusals. Part of the shared vocabulary (types.ts re-exports it).
import type { Card, Contract, ForkedFrom, MatchOptions, PlayedCard, Seat, Suit, Triple } from './types';

export type Phase = 'deal' | 'contract' | 'discard' | 'play' | 'finished';
/** A match's status as callers see it; `abandoned`: a lobby table closed before its seats were filled. */
export const STATUSES = ['waiting', 'playing', 'finished', 'abandoned'] as const;
export type Status = (typeof STATUSES)[number];

export type LegalAction =
  | { action: 'deal' }
  | { action: 'cut' }
  | { action: 'chooseContract'; contracts: Contract[]; trumps: Suit[] }
  | { action: 'discard'; count: number }
  | { action: 'play'; cards: Card[] };

/** The spectator's view: only public information (docs/rules.md §7). */
export interface PublicView {
  options: MatchOptions;
  /** `name` is null for a seat still open (status `waiting`); `bot` is the strategy of a seat the service plays, else null. */
  /** `player`: only on a seat bound to a player account (its id). */
  seats: { seat: Seat; name: string | null; bot: string | null; player?: string }[];
  status: Status;
  phase: Phase;
  /** 1-based; 0 before the first deal. */
  dealNumber: number;
  dealsInMatch: number;
  dealer: Seat | null;
  forehand: Seat | null;
  turn: Seat | null;
  /** The 4 face-up cards until forehand has laid away (empty otherwise). */
  tableCards: Card[];
  contract: Contract | null;
  trump: Suit | null;
  trick: PlayedCard[];
  lastTrick: { cards: PlayedCard[]; winner: Seat } | null;
  tricksTaken: Triple<number>;
  /**
   * Per seat, the tricks it must take in the deal under way (in pass: may take at most), the rules'
   * `quotas`; null until the deal's contract is known.
   */
  quotas: Triple<number> | null;
  /** Cards held by each seat (public knowledge: counts only). */
  handSizes: Triple<number>;
  totals: Triple<number>;
  /** Per seat, the contracts already used (modern schedule). */
  contractsPlayed: Triple<Partial<Record<Contract, number>>>;
  winners: Seat[] | null;
  seeded: boolean;
  /** A fork's origin: the finished match and the version of its log it starts from; null for any other match. */
  forkedFrom: ForkedFrom | null;
  /** The next deck's commitment and cut while the deal phase waits (provably fair deals), else nulls. */
  fairness: { commitment: string | null; cut: string | null };
  /** Per seat: away after two timeouts in a row, its turns played by a stand-in bot until it acts again. */
  away: Triple<boolean>;
  /** The running turn clock: the person to act and when its time runs out; null when none runs. */
  clock: TurnClock | null;
  /** The id of the match that follows this finished one (RematchOffered), else null. */
  rematch: string | null;
}

export interface TurnClock {
  seat: Seat;
  /** ISO time. */
  deadline: string;
  turnSeconds: number;
}

/** What one seat sees beyond the public view. */
export interface SeatOwn {
  seat: Seat;
  hand: Card[];
  /** Forehand's own laid-away cards once discarded, else null. */
  laidAway: Card[] | null;
  legal: LegalAction | null;
}

export interface SeatView extends PublicView, SeatOwn {}

export interface ScorecardDeal {
  number: number;
  dealer: Seat;
  forehand: Seat;
  contract: Contract;
  trump: Suit | null;
  tricks: Triple<number>;
  points: Triple<number>;
  totals: Triple<number>;
}

export interface Scorecard {
  /** The public view's seats (name, and the strategy of a bot seat). */
  seats: PublicView['seats'];
  deals: ScorecardDeal[];
  /** Per seat, the deal number in which each contract was used. */
  contractsPlayed: Triple<Partial<Record<Contract, number>>>;
  totals: Triple<number>;
  finished: boolean;
  winners: Seat[] | null;
}

/** Stable codes of the public HTTP contract; the HTTP layer maps them to statuses. */
export type RuleErrorCode =
  | 'NOT_YOUR_TURN'
  | 'MUST_FOLLOW_SUIT'
  | 'MUST_TRUMP'
  | 'CARD_NOT_IN_HAND'
  | 'CONTRACT_ALREADY_PLAYED'
  | 'CONTRACT_LOCKED'
  | 'SPADES_NOT_ALLOWED'
  | 'WRONG_PHASE'
  | 'DISCARD_FIRST'
  | 'MATCH_EXISTS'
  | 'MATCH_NOT_FOUND'
  | 'VALIDATION_FAILED'
  /** A command to a match whose seats are not all taken yet (status `waiting`). */
  | 'MATCH_NOT_STARTED'
  /** joinSeat on a seat someone already holds. */
  | 'SEAT_TAKEN'
  /** joinSeat with an account that already holds a seat of this match. */
  | 'ALREADY_SEATED'
  /** createMatch with a seed and an open seat: the creator could compute a stranger's hand. */
  | 'SEED_WITH_OPEN_SEATS'
  /** A command to a lobby table that was closed because its seats were not filled in time. */
  | 'MATCH_ABANDONED'
  /** forkMatch of a match still in play: before the end its hands are secret. */
  | 'MATCH_NOT_FINISHED'
  /** forkMatch at a version inside a move (or before the match started): no position the rules rest in. */
  | 'VERSION_NOT_FORKABLE'
  /** returnToSeat by a seat that is not away. */
  | 'SEAT_NOT_AWAY'
  /** offerRematch on a finished match that has its rematch already: the service answers that one. */
  | 'REMATCH_OFFERED';
