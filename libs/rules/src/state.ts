// The state of a match, rebuilt from its events by `evolve`. A union keyed on `status`, so that a
// state cannot hold what it should not (no hands before the deal, no trick before the lay-away).
// Cards are numbers and hands are bit sets here; events carry codes and are parsed in `evolve`.
import {
  type CardId,
  type CardSet,
  EMPTY,
  fromCards,
  parseCard,
  suitId,
  union,
  withCard,
  withoutCard,
  size,
} from './cards';
import { dealsInMatch, exhaustive } from './options';
import { winnersOf } from './scoring';
import type { BismarckEvent, Contract, ForkedFrom, MatchOptions, PlayedCard, Seat, Suit, Triple } from './types';
import type { ScorecardDeal } from './shown';

/** What every started match knows, whatever the phase. */
export interface MatchInfo {
  readonly matchId: string;
  readonly players: Triple<string>;
  /** Per seat, the strategy the service plays it with, or null for a person. */
  readonly bots: Triple<string | null>;
  /** Per seat, the player account it is bound to, or null. */
  readonly accounts: Triple<string | null>;
  readonly options: MatchOptions;
  readonly firstDealer: Seat;
  readonly seeded: boolean;
  /** A fork's origin (a finished match and the version it starts from); null for any other match. */
  readonly forkedFrom: ForkedFrom | null;
  readonly dealsInMatch: number;
  /** The latest deal started (1-based), 0 before the first deal. */
  readonly dealNumber: number;
  readonly totals: Triple<number>;
  /** Per seat, the deal number in which it used each contract as forehand (modern schedule). */
  readonly contractsPlayed: Triple<Partial<Record<Contract, number>>>;
  /** One row per scored deal, for the scorecard. */
  readonly scored: readonly ScorecardDeal[];
  /** Who is at the table (turn clocks): changes only in matches with a clock. */
  readonly presence: Presence;
}

/**
 * The turn clock's memory (clock.ts): per seat, the timeouts in a row and whether it is away (a
 * stand-in plays its turns at once); `standingIn`: the seat whose turn timed out, until the stand-in
 * has made that decision.
 */
export interface Presence {
  readonly timeouts: Triple<number>;
  readonly away: Triple<boolean>;
  readonly standingIn: Seat | null;
}

export const EVERYONE_PRESENT: Presence = Object.freeze({
  timeouts: Object.freeze([0, 0, 0]) as unknown as Triple<number>,
  away: Object.freeze([false, false, false]) as unknown as Triple<boolean>,
  standingIn: null,
});

/** The seats of the deal in progress. */
export interface DealSeats {
  readonly dealer: Seat;
  readonly forehand: Seat;
}

export interface ContractSettled {
  readonly contract: Contract;
  readonly trump: Suit | null;
}

/** A trick just taken, shown until the next one is taken. */
export interface TakenTrick {
  readonly cards: readonly PlayedCard[];
  readonly winner: Seat;
}

export interface Empty {
  readonly status: 'empty';
}

/** A lobby table: created with open seats (null names); it starts when SeatJoined has filled all three. */
export interface AwaitingPlayers {
  readonly status: 'awaitingPlayers';
  readonly matchId: string;
  readonly players: Triple<string | null>;
  readonly bots: Triple<string | null>;
  readonly accounts: Triple<string | null>;
  readonly options: MatchOptions;
  readonly firstDealer: Seat;
  readonly seeded: boolean;
  readonly forkedFrom: ForkedFrom | null;
}

/** A lobby table closed before its seats were filled (TableAbandoned): nothing more happens in it. */
export interface Abandoned extends Omit<AwaitingPlayers, 'status'> {
  readonly status: 'abandoned';
}

/** Waiting for the dealer of the next deal (or of the same deal again, after a void). */
export interface AwaitingDeal extends MatchInfo, DealSeats {
  readonly status: 'awaitingDeal';
  /** The number of the deal to deal next (dealNumber + 1, or dealNumber again after a void). */
  readonly upcomingDeal: number;
  /** Set when the previous attempt at this deal was voided: its contract and trump stand. */
  readonly carried: ContractSettled | null;
  /** How the previous deal ended (shown until the next deal starts). */
  readonly previous: { readonly tricksTaken: Triple<number>; readonly lastTrick: TakenTrick | null } | null;
  /** The server's commitment to the next deck, and the cutter's string (null until given). */
  readonly commitment: string | null;
  readonly cut: string | null;
}

/** The table cards are up; forehand has to announce (hands dealt already only if `informed`). */
export interface AwaitingContract extends MatchInfo, DealSeats {
  readonly status: 'awaitingContract';
  readonly deck: readonly CardId[];
  readonly tableCards: readonly CardId[];
  /** null until the 48 cards are dealt (blind choice). */
  readonly hands: Triple<CardSet> | null;
}

/**
 * The contract is settled; forehand holds 20 cards and lays 4 away. `hands` is null only between a
 * blind ContractChosen and the HandsDealt of the same decision.
 */
export interface LayingAway extends MatchInfo, DealSeats, ContractSettled {
  readonly status: 'layingAway';
  readonly deck: readonly CardId[];
  readonly tableCards: readonly CardId[];
  readonly hands: Triple<CardSet> | null;
}

/** Each seat holds 16 cards after the lay-away: a deal is 16 tricks of three cards. */
export const TRICKS_PER_DEAL = 16;

/** The card about to be played is the last of the deal: the third of its last trick. */
export const endsTheDeal = (state: TrickPlay): boolean => state.trickNumber === TRICKS_PER_DEAL && state.trick.length === 2;

export interface TrickPlay extends MatchInfo, DealSeats, ContractSettled {
  readonly status: 'trickPlay';
  readonly hands: Triple<CardSet>;
  readonly laidAway: CardSet;
  /** Every card played to a finished trick of this deal. */
  readonly played: CardSet;
  /** 1..TRICKS_PER_DEAL */
  readonly trickNumber: number;
  readonly trick: readonly PlayedCard[];
  readonly turn: Seat;
  readonly tricksTaken: Triple<number>;
  readonly lastTrick: TakenTrick | null;
}

export interface Finished extends MatchInfo {
  readonly status: 'finished';
  readonly winners: Seat[];
  /** The match that follows this one (RematchOffered: at most one), else null. */
  readonly rematch: string | null;
  readonly previous: { readonly tricksTaken: Triple<number>; readonly lastTrick: TakenTrick | null } | null;
}

export type MatchState = Empty | AwaitingPlayers | Abandoned | AwaitingDeal | AwaitingContract | LayingAway | TrickPlay | Finished;
/** A match with all three seats taken (the lobby is not started). */
export type StartedMatch = Exclude<MatchState, Empty | AwaitingPlayers | Abandoned>;
export type DealInProgress = AwaitingContract | LayingAway | TrickPlay;

export const initialState = (): MatchState => ({ status: 'empty' });

/** No seat is a bot. */
export const NO_BOTS: Triple<string | null> = Object.freeze([null, null, null]) as unknown as Triple<string | null>;

export const nextSeat = (s: Seat): Seat => ((s + 1) % 3) as Seat;
export const dealerOf = (firstDealer: Seat, deal: number): Seat => ((firstDealer + deal - 1) % 3) as Seat;

// ---- small readers shared by decide, legal moves and views -----------------------------------

/** The seat that has to act now, or null when nobody has (no match, a lobby table, or finished). */
export const seatToAct = (state: MatchState): Seat | null => {
  switch (state.status) {
    case 'awaitingDeal':
      return state.dealer;
    case 'awaitingContract':
    case 'layingAway':
      return state.forehand;
    case 'trickPlay':
      return state.turn;
    default:
      return null;
  }
};

export const handSize = (state: MatchState, seat: Seat): number =>
  'hands' in state && state.hands ? size(state.hands[seat]) : 0;

export const trumpSuitId = (trump: Suit | null): number => (trump === null ? -1 : suitId(trump));

export { exhaustive };
