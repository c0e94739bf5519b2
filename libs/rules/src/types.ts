// The shared vocabulary of the game: what crosses the boundary of libs/rules.
// Cards are two-character codes at this edge ('AS', 'TH', '2C'); the engine may use numbers inside.

export type Seat = 0 | 1 | 2;
export type Suit = 'S' | 'H' | 'D' | 'C';
export type Card = string;
export type Contract = 'spades' | 'trump' | 'notrump' | 'pass';
export type Triple<T> = [T, T, T];

/** Who is looking: a seat of the match, or anyone else. */
export type Viewer = Seat | 'spectator';

export interface MatchOptions {
  schedule: 'modern' | 'traditional' | 'quick';
  scoring: 'zeroSum' | 'overOnly';
  contractChoice: 'blind' | 'informed';
  spadesInFreeTrump: boolean;
  mustTrump: boolean;
  leadBeforeDiscard: 'reject' | 'redeal';
  fourthRound: 'none' | 'freeTrump' | 'freeTrumpBlind';
  /** A turn clock (docs/rules.md, "Turn clocks"); absent: no clock, the match waits for every seat. */
  clock?: ClockOption;
}

/** Options as a creator asks for them: each one may be left out (its default), and so may a clock's `onTimeout`. */
export type AskedOptions = Partial<Omit<MatchOptions, 'clock'>> & { clock?: Pick<ClockOption, 'turnSeconds'> & Partial<ClockOption> };

/** How long a person's turn may take, and what happens when it has not acted by then. */
export interface ClockOption {
  /** 5 to 3600. */
  turnSeconds: number;
  /** `standIn`: a bot makes that one decision for the seat (the only choice so far). */
  onTimeout: 'standIn';
}

// ---- commands: orders, decided against the state -------------------------------------------

export interface CreateMatch {
  type: 'createMatch';
  matchId: string;
  /** The seats' names; null leaves a seat open for someone to join (a lobby table). */
  players: Triple<string | null>;
  /**
   * The seats the service plays, by strategy name (null: a person). A bot seat has a name too. The
   * rules only record the names; which strategies exist is the service's to check.
   */
  bots?: Triple<string | null>;
  /**
   * The player accounts the seats are bound to (null: an anonymous person, a bot or an open seat).
   * The service checks who may bind which account; the rules only record it, once per match.
   */
  accounts?: Triple<string | null>;
  options?: AskedOptions;
  /** Drawn fairly by the caller (randomness stays outside the rules). */
  firstDealer: Seat;
  /** True when the match was created with a caller-chosen seed (reproducible, not provably fair). */
  seeded: boolean;
  /** Only for a fork (always seeded): the finished match and the version it starts from. */
  forkedFrom?: ForkedFrom;
  /** Only for a rematch (POST /api/matches/{id}/rematch): the finished match it follows. */
  rematchOf?: string;
}
/** Where a fork starts: a finished match and the version of its log (docs/clients.md, "Forking a finished match"). */
export interface ForkedFrom {
  matchId: string;
  version: number;
}
/**
 * A new match at exactly the position of a finished match after event `from.version`: its own
 * MatchCreated (seeded, with `forkedFrom`), then the original's moves up to there decided again
 * (fork.ts). `from.events` is the original's whole log, unredacted (all of it is public once finished).
 */
export interface ForkMatch {
  type: 'forkMatch';
  /** The new match's id. */
  matchId: string;
  from: ForkedFrom & { events: readonly BismarckEvent[] };
}
export interface Deal {
  type: 'deal';
  seat: Seat;
  /** The shuffled 52-card deck, top card first: the outcome of the shuffle is an input. */
  deck: Card[];
  /** Opaque facts about how the deck was made (algorithm, index, commitment), copied into DealStarted. */
  shuffle?: Record<string, unknown>;
}
export interface ChooseContract {
  type: 'chooseContract';
  seat: Seat;
  contract: Contract;
  trump?: Suit | null;
}
export interface Discard {
  type: 'discard';
  seat: Seat;
  cards: Card[];
}
export interface PlayCard {
  type: 'playCard';
  seat: Seat;
  card: Card;
}
/** The seat on the dealer's right cuts before the deal: its string is mixed into the shuffle (docs/fairness.md). */
export interface Cut {
  type: 'cut';
  seat: Seat;
  cut: string;
}
/** Someone takes an open seat of a waiting match; the match starts when the third seat is taken. */
export interface JoinSeat {
  type: 'joinSeat';
  seat: Seat;
  name: string;
  /** The strategy the service plays this seat with; absent for a person. */
  bot?: string;
  /** The player account the seat is bound to (a person who joined with a player token). */
  account?: string;
}
/**
 * A lobby table whose open seats nobody took is closed (the service decides when: LOBBY_TTL_MS). It
 * leaves the waiting list and takes no more joins.
 */
export interface AbandonTable {
  type: 'abandonTable';
}
/**
 * The seat to act let its clock run out. `now` and `since` (when the last event was recorded, which
 * started the turn) are brought by the service before the decision: time stays outside the rules.
 */
export interface TimeOut {
  type: 'timeOut';
  now: string;
  since: string;
}
/** A seat marked away comes back to the table without making a move. */
export interface ReturnToSeat {
  type: 'returnToSeat';
  seat: Seat;
}
/**
 * What the server's dealer brings to a decision (docs/fairness.md §7), fetched before it: the
 * commitment to the next deck (SHA-256 of a fresh secret seed) and the seeds of the deal in play. The
 * rules decide when each is published. Without them no dealer event is decided (a seeded match
 * needs none).
 */
export interface DealerFacts {
  /** Published as DeckCommitted when, after this decision, the match waits for a deal with no commitment. */
  readonly commitment?: string;
  /** The seeds committed for the deal in play (one per attempt), revealed right after its DealScored. */
  readonly seeds?: readonly { deal: number; commitment: string; seed: string }[];
}

/**
 * A seat of a finished match asks for the next one with the same players (docs/clients.md, "Rematch").
 * `matchId` is the new match's id, drawn by the caller; a match has one rematch, whoever asks first.
 */
export interface OfferRematch {
  type: 'offerRematch';
  seat: Seat;
  matchId: string;
}

export type Command = (JoinSeat | CreateMatch | ForkMatch | Deal | ChooseContract | Discard | PlayCard | Cut | AbandonTable | TimeOut | ReturnToSeat | OfferRematch) & {
  dealer?: DealerFacts;
  /** The move is the stand-in bot's, for a seat that timed out or is away (never set from a caller's request). */
  standIn?: boolean;
};

/**
 * A seat's move as a client orders it (the api's seat commands, a bot's decision): the rules' command
 * without the seat, which the caller's credential names, and without what the dealer brings (a deal's
 * deck, dealer facts). `commandForMove` adds them.
 */
export type SeatMove =
  | { type: 'deal' }
  | { type: 'cut'; cut: string }
  | { type: 'chooseContract'; contract: Contract; trump?: Suit | null }
  | { type: 'discard'; cards: Card[] }
  | { type: 'playCard'; card: Card };
/** Every order a seat may give: a move, or saying it is back at the table (turn clocks). */
export type SeatCommand = SeatMove | { type: 'returnToSeat' };

// ---- events: past-tense facts carrying everything replay needs ------------------------------

export interface PlayedCard {
  seat: Seat;
  card: Card;
}

export type BismarckEvent =
  | {
      type: 'MatchCreated';
      /**
       * A null name is an open seat: the match waits until SeatJoined has filled every seat. `bots`
       * (only when some seat is a bot): per seat the strategy the service plays it with, else null.
       * `forkedFrom` (only in a fork, which is always seeded): the finished match and version it starts from.
       * `rematchOf` (only in a rematch): the finished match whose RematchOffered names this one.
       */
      data: {
        matchId: string;
        players: Triple<string | null>;
        options: MatchOptions;
        firstDealer: Seat;
        seeded: boolean;
        bots?: Triple<string | null>;
        /** Only when some seat is bound to a player account: per seat its id, else null. */
        accounts?: Triple<string | null>;
        forkedFrom?: ForkedFrom;
        rematchOf?: string;
      };
    }
  /** `bot` (only for a bot): the strategy the service plays the seat with. */
  | { type: 'SeatJoined'; data: { seat: Seat; name: string; bot?: string; account?: string } }
  /** A lobby table closed before its seats were filled: the seats still open, for the record. */
  | { type: 'TableAbandoned'; data: { openSeats: Seat[] } }
  | {
      type: 'DealStarted';
      data: {
        deal: number;
        dealer: Seat;
        forehand: Seat;
        /** Secret until the deal is scored (null when redacted). */
        deck: Card[] | null;
        tableCards: Card[];
        /** Set here when the schedule (or a voided deal) fixes it; otherwise chosen later. */
        contract: Contract | null;
        trump: Suit | null;
        shuffle?: Record<string, unknown>;
      };
    }
  | { type: 'ContractChosen'; data: { deal: number; seat: Seat; contract: Contract; trump: Suit | null } }
  /** Each seat may see only its own entry (others are null) until the deal is scored. */
  | { type: 'HandsDealt'; data: { deal: number; hands: Triple<Card[] | null> } }
  /** Forehand's lay-away: cards are null for everyone else until the deal is scored. */
  | { type: 'CardsLaidAway'; data: { deal: number; seat: Seat; cards: Card[] | null } }
  | { type: 'CardPlayed'; data: { deal: number; trick: number; seat: Seat; card: Card } }
  | { type: 'TrickTaken'; data: { deal: number; trick: number; winner: Seat; cards: PlayedCard[] } }
  /** Forehand led while still holding 20 cards under leadBeforeDiscard=redeal: the same dealer deals again. */
  | { type: 'DealVoided'; data: { deal: number; seat: Seat; card: Card; reason: 'leadBeforeDiscard' } }
  | {
      type: 'DealScored';
      data: {
        deal: number;
        forehand: Seat;
        contract: Contract;
        trump: Suit | null;
        tricks: Triple<number>;
        quotas: Triple<number>;
        points: Triple<number>;
        totals: Triple<number>;
      };
    }
  | { type: 'MatchFinished'; data: { totals: Triple<number>; winners: Seat[] } }
  /** The server's commitment (SHA-256 of a secret seed) to the next deck, before anyone cuts or sees a card. */
  | { type: 'DeckCommitted'; data: { deal: number; commitment: string } }
  /** The cutter's contribution to the next deck (public). */
  | { type: 'DeckCut'; data: { deal: number; seat: Seat; cut: string } }
  /** After the deal is scored: the seed behind a commitment, so anyone can recompute the deck. */
  | { type: 'SeedRevealed'; data: { deal: number; commitment: string; seed: string } }
  /** The seat to act had not acted by its deadline: a stand-in bot makes this decision for it. */
  | { type: 'TurnTimedOut'; data: { seat: Seat; deadline: string } }
  /** A seat that was away (two timeouts in a row) is back: the stand-in stops playing for it. */
  | { type: 'SeatReturned'; data: { seat: Seat } }
  /** After MatchFinished, at most once: `seat` asked for the next match, `matchId` (same players, options; dealer rotated). */
  | { type: 'RematchOffered'; data: { matchId: string; seat: Seat } };

export type EventType = BismarckEvent['type'];

/** Every event type, in the order a match first meets them (for documents and clients). */
export const EVENT_TYPES = [
  'MatchCreated',
  'SeatJoined',
  'TableAbandoned',
  'DeckCommitted',
  'DeckCut',
  'DealStarted',
  'ContractChosen',
  'HandsDealt',
  'CardsLaidAway',
  'CardPlayed',
  'TrickTaken',
  'DealVoided',
  'DealScored',
  'SeedRevealed',
  'MatchFinished',
  'TurnTimedOut',
  'SeatReturned',
  'RematchOffered',
] as const satisfies readonly EventType[];
// A type added to BismarckEvent and forgotten above fails to compile here.
const everyEventType: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void everyEventType;
