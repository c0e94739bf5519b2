// Every read path goes through here: what a spectator may see (publicView), what one seat may see
// (seatView), the scorecard, and the event log as a given viewer may see it (redactEvent).
import { EMPTY, toCodes, cardCode, size } from './cards';
import { turnClock } from './clock';
import { legalActions } from './legal';
import { dealsInMatch, exhaustive, resolveOptions } from './options';
import { quotas } from './scoring';
import { type MatchState, type TakenTrick, nextSeat } from './state';
import type { BismarckEvent, ForkedFrom, PlayedCard, Seat, Triple, Viewer } from './types';
import type { Phase, PublicView, Scorecard, SeatOwn, SeatView } from './shown';

const PHASES: Record<MatchState['status'], Phase> = {
  empty: 'deal',
  awaitingPlayers: 'deal',
  abandoned: 'finished',
  awaitingDeal: 'deal',
  awaitingContract: 'contract',
  layingAway: 'discard',
  trickPlay: 'play',
  finished: 'finished',
};

const copyTrick = (cards: readonly PlayedCard[]): PlayedCard[] => cards.map((p) => ({ seat: p.seat, card: p.card }));
const copyTaken = (t: TakenTrick | null | undefined) => (t ? { cards: copyTrick(t.cards), winner: t.winner } : null);
const zeros = (): Triple<number> => [0, 0, 0];
// A copy: a view never shares an object with the state it was made from.
const copyOrigin = (origin: ForkedFrom | null): ForkedFrom | null => (origin ? { matchId: origin.matchId, version: origin.version } : null);

/** The deal fields when no deal is in play (before a match starts, after it ends): fresh arrays each time. */
const noDealInPlay = () => ({ dealer: null, forehand: null, turn: null, tableCards: [], contract: null, trump: null, trick: [] });

/** Who sits where: each seat's name (null: open) and, for a seat the service plays, its strategy. */
// `player` only on a seat bound to an account: every other match's views stay as they were.
const seatsOf = (state: { players: Triple<string | null>; bots?: Triple<string | null>; accounts?: Triple<string | null> }): PublicView['seats'] =>
  state.players.map((name, seat) => {
    const player = state.accounts?.[seat] ?? null;
    return { seat: seat as Seat, name, bot: state.bots?.[seat] ?? null, ...(player !== null ? { player } : {}) };
  });

/** The spectator's view: only public information (docs/rules.md §7). */
export const publicView = (state: MatchState, since: string | null = null): PublicView => {
  if (state.status === 'empty')
    return {
      options: resolveOptions(),
      seats: [],
      status: 'waiting',
      phase: 'deal',
      dealNumber: 0,
      dealsInMatch: 0,
      ...noDealInPlay(),
      lastTrick: null,
      tricksTaken: zeros(),
      quotas: null,
      handSizes: zeros(),
      totals: zeros(),
      contractsPlayed: [{}, {}, {}],
      winners: null,
      seeded: false,
      forkedFrom: null,
      fairness: { commitment: null, cut: null },
      away: [false, false, false],
      clock: null,
      rematch: null,
    };
  if (state.status === 'awaitingPlayers' || state.status === 'abandoned')
    return {
      ...publicView({ status: 'empty' }),
      options: { ...state.options },
      seats: seatsOf(state),
      status: state.status === 'abandoned' ? 'abandoned' : 'waiting',
      phase: PHASES[state.status],
      dealsInMatch: dealsInMatch(state.options),
      dealer: state.firstDealer,
      forehand: nextSeat(state.firstDealer),
      seeded: state.seeded,
      forkedFrom: copyOrigin(state.forkedFrom),
    };
  const base = {
    options: { ...state.options },
    seats: seatsOf(state),
    status: state.status === 'finished' ? ('finished' as const) : ('playing' as const),
    phase: PHASES[state.status],
    dealNumber: state.dealNumber,
    dealsInMatch: state.dealsInMatch,
    totals: state.totals.slice() as Triple<number>,
    contractsPlayed: state.contractsPlayed.map((c) => ({ ...c })) as PublicView['contractsPlayed'],
    seeded: state.seeded,
    forkedFrom: copyOrigin(state.forkedFrom),
    fairness: { commitment: null as string | null, cut: null as string | null },
    away: state.presence.away.slice() as Triple<boolean>,
    clock: since === null ? null : turnClock(state, since),
    handSizes: ('hands' in state && state.hands ? state.hands.map(size) : zeros()) as Triple<number>,
    rematch: state.status === 'finished' ? state.rematch : null,
  };
  switch (state.status) {
    case 'awaitingDeal':
      return {
        ...base,
        dealer: state.dealer,
        forehand: state.forehand,
        turn: state.dealer,
        tableCards: [],
        contract: state.carried?.contract ?? null,
        trump: state.carried?.trump ?? null,
        trick: [],
        lastTrick: copyTaken(state.previous?.lastTrick),
        tricksTaken: (state.previous?.tricksTaken.slice() ?? zeros()) as Triple<number>,
        quotas: state.carried ? quotas(state.carried.contract, state.forehand) : null,
        winners: null,
        fairness: { commitment: state.commitment, cut: state.cut },
      };
    case 'awaitingContract':
    case 'layingAway':
      return {
        ...base,
        dealer: state.dealer,
        forehand: state.forehand,
        turn: state.forehand,
        tableCards: state.tableCards.map(cardCode),
        contract: state.status === 'layingAway' ? state.contract : null,
        trump: state.status === 'layingAway' ? state.trump : null,
        trick: [],
        lastTrick: null,
        tricksTaken: zeros(),
        quotas: state.status === 'layingAway' ? quotas(state.contract, state.forehand) : null,
        winners: null,
      };
    case 'trickPlay':
      return {
        ...base,
        dealer: state.dealer,
        forehand: state.forehand,
        turn: state.turn,
        tableCards: [],
        contract: state.contract,
        trump: state.trump,
        trick: copyTrick(state.trick),
        lastTrick: copyTaken(state.lastTrick),
        tricksTaken: state.tricksTaken.slice() as Triple<number>,
        quotas: quotas(state.contract, state.forehand),
        winners: null,
      };
    case 'finished':
      return {
        ...base,
        ...noDealInPlay(),
        lastTrick: copyTaken(state.previous?.lastTrick),
        tricksTaken: (state.previous?.tricksTaken.slice() ?? zeros()) as Triple<number>,
        quotas: null,
        winners: state.winners.slice(),
      };
    default:
      return exhaustive(state);
  }
};

/** One seat's view: the public view plus its own hand, its own laid-away cards and what it may do. */
/** `view`: this state's publicView, when the caller has it already. */
export const seatView = (state: MatchState, seat: Seat, view: PublicView = publicView(state)): SeatView => ({
  ...view,
  ...seatOwn(state, seat),
});

/** Only what `seat` sees beyond the public view (projections store this, not the whole seat view). */
export const seatOwn = (state: MatchState, seat: Seat): SeatOwn => ({
  seat,
  hand: toCodes('hands' in state && state.hands ? state.hands[seat] : EMPTY),
  laidAway: state.status === 'trickPlay' && seat === state.forehand ? toCodes(state.laidAway) : null,
  legal: legalActions(state, seat),
});

export const scorecard = (state: MatchState): Scorecard => {
  if (state.status === 'empty')
    return { seats: [], deals: [], contractsPlayed: [{}, {}, {}], totals: zeros(), finished: false, winners: null };
  if (state.status === 'awaitingPlayers' || state.status === 'abandoned')
    return { ...scorecard({ status: 'empty' }), seats: seatsOf(state) };
  return {
    seats: seatsOf(state),
    deals: state.scored.map((d) => ({
      ...d,
      tricks: d.tricks.slice() as Triple<number>,
      points: d.points.slice() as Triple<number>,
      totals: d.totals.slice() as Triple<number>,
    })),
    contractsPlayed: state.contractsPlayed.map((c) => ({ ...c })) as Scorecard['contractsPlayed'],
    totals: state.totals.slice() as Triple<number>,
    finished: state.status === 'finished',
    winners: state.status === 'finished' ? state.winners.slice() : null,
  };
};

/**
 * Whether an event can change the scorecard (names, scored deals, contracts used, totals, the end):
 * the projection rewrites a scorecard only then, not on every card played.
 */
export const changesScorecard = (event: BismarckEvent): boolean => {
  switch (event.type) {
    case 'MatchCreated':
    case 'SeatJoined':
    case 'ContractChosen':
    case 'DealScored':
    case 'MatchFinished':
      return true;
    case 'DealStarted':
    case 'HandsDealt':
    case 'CardsLaidAway':
    case 'CardPlayed':
    case 'TrickTaken':
    case 'DealVoided':
    case 'DeckCommitted':
    case 'DeckCut':
    case 'SeedRevealed':
    case 'TableAbandoned':
    case 'TurnTimedOut':
    case 'SeatReturned':
    case 'RematchOffered':
      return false;
    default:
      return exhaustive(event);
  }
};

// ---- the event log as a viewer may see it ------------------------------------------------------

/**
 * True when every event so far may be shown to anyone: no deal is under way, and no voided attempt
 * waits for its redeal (its hands stay secret until that deal is scored). Only at such a version may
 * the log's hash be published: a hash that covers a secret hand lets a seat that knows its own hand
 * test every way the other cards could lie against it (docs/fairness.md §9).
 */
export const nothingSecret = (state: MatchState): boolean => {
  switch (state.status) {
    case 'empty':
    case 'awaitingPlayers':
    case 'abandoned':
    case 'finished':
      return true;
    case 'awaitingDeal':
      return state.carried === null;
    case 'awaitingContract':
    case 'layingAway':
    case 'trickPlay':
      return false;
    default:
      return exhaustive(state);
  }
};

/** True once the deal with this number has been scored: nothing of it is secret any more. */
export const isDealRevealed = (state: MatchState, deal: number): boolean =>
  state.status !== 'empty' && state.status !== 'awaitingPlayers' && state.status !== 'abandoned' && state.scored.some((d) => d.number === deal);

/** The deal an event belongs to, or null for match-level events. */
export const dealOf = (event: BismarckEvent): number | null =>
  event.type === 'MatchCreated' ||
  event.type === 'SeatJoined' ||
  event.type === 'TableAbandoned' ||
  event.type === 'MatchFinished' ||
  event.type === 'TurnTimedOut' ||
  event.type === 'SeatReturned' ||
  event.type === 'RematchOffered'
    ? null
    : event.data.deal;

/**
 * The event as `viewer` may see it. Never drops an event, only nulls its secret fields: the deck
 * order (nobody, until scored), other seats' hands, forehand's laid-away cards (forehand only).
 * `revealed`: the event's deal has been scored, so nothing of it is secret (docs/rules.md §7).
 */
export const redactEvent = (event: BismarckEvent, viewer: Viewer, revealed: boolean): BismarckEvent => {
  if (revealed) return event;
  switch (event.type) {
    case 'DealStarted':
      return { type: event.type, data: { ...event.data, deck: null } };
    case 'HandsDealt':
      return {
        type: event.type,
        data: { ...event.data, hands: event.data.hands.map((h, s) => (s === viewer ? h : null)) as Triple<string[] | null> },
      };
    case 'CardsLaidAway':
      return event.data.seat === viewer ? event : { type: event.type, data: { ...event.data, cards: null } };
    case 'MatchCreated':
    case 'SeatJoined':
    case 'TableAbandoned':
    case 'ContractChosen':
    case 'CardPlayed':
    case 'TrickTaken':
    case 'DealVoided':
    case 'DealScored':
    case 'MatchFinished':
    case 'DeckCommitted':
    case 'DeckCut':
    case 'SeedRevealed':
    case 'TurnTimedOut':
    case 'SeatReturned':
    case 'RematchOffered':
      return event;
    default:
      return exhaustive(event);
  }
};

/** The whole log as `viewer` may see it now: an event is revealed if its deal is scored anywhere in the list. */
export const visibleEvents = (events: readonly BismarckEvent[], viewer: Viewer): BismarckEvent[] => {
  const scored = new Set<number>();
  for (const e of events) if (e.type === 'DealScored') scored.add(e.data.deal);
  return events.map((e) => {
    const deal = dealOf(e);
    return redactEvent(e, viewer, deal !== null && scored.has(deal));
  });
};
