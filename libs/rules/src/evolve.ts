// `evolve`: the state after one event (state.ts says what a state is). Never throws, never mutates.
// Events carry card codes; they are parsed here, once, into the state's numbers and bit sets.
import { type CardId, type CardSet, EMPTY, fromCards, parseCard, union, withCard, withoutCard } from './cards';
import { dealsInMatch } from './options';
import { winnersOf } from './scoring';
import type { ScorecardDeal } from './shown';
import { dealStarted, finished, nextDeal, nextPlay } from './shapes';
import {
  type MatchInfo,
  type MatchState,
  type Presence,
  type StartedMatch,
  type TrickPlay,
  EVERYONE_PRESENT,
  NO_BOTS,
  dealerOf,
  initialState,
  nextSeat,
} from './state';
import type { BismarckEvent, Contract, Seat, Triple } from './types';

/** The MatchInfo part of a state (a copy, so that spreading it never drags phase fields along). */
const infoOf = (s: StartedMatch): MatchInfo => ({
  matchId: s.matchId,
  players: s.players,
  bots: s.bots,
  accounts: s.accounts,
  options: s.options,
  firstDealer: s.firstDealer,
  seeded: s.seeded,
  forkedFrom: s.forkedFrom,
  dealsInMatch: s.dealsInMatch,
  dealNumber: s.dealNumber,
  totals: s.totals,
  contractsPlayed: s.contractsPlayed,
  scored: s.scored,
  presence: s.presence,
});

const parseAll = (codes: readonly string[]): CardId[] => codes.map(parseCard).filter((c) => c >= 0);

const tripleWith = <T>(t: Triple<T>, seat: Seat, value: T): Triple<T> => {
  const copy = t.slice() as Triple<T>;
  copy[seat] = value;
  return copy;
};

/** Forehand picks up the table cards: from now on he holds 20. */
const pickUpTable = (hands: Triple<CardSet>, forehand: Seat, table: readonly CardId[]): Triple<CardSet> =>
  tripleWith(hands, forehand, union(hands[forehand], fromCards(table)));

const markContract = (state: StartedMatch, seat: Seat, contract: Contract, deal: number) =>
  state.options.schedule !== 'modern'
    ? state.contractsPlayed
    : tripleWith(state.contractsPlayed, seat, { ...state.contractsPlayed[seat], [contract]: deal });

/** Applies one event. Never throws and never mutates: an event that does not fit the state is ignored. */
export const evolve = (state: MatchState, event: BismarckEvent): MatchState => {
  // The most frequent event: its presence step is taken while the play is built, not in a second pass.
  if (event.type === 'CardPlayed' && state.status === 'trickPlay') return cardPlayed(state, event);
  const next = evolveGame(state, event);
  // Only a seat's move, a timeout or a return changes presence: most events (a trick taken, a deal
  // scored) skip the look-ups of the state's fields, which are slow on the states' many shapes.
  switch (event.type) {
    case 'DealStarted':
    case 'DeckCut':
    case 'ContractChosen':
    case 'CardsLaidAway':
    case 'CardPlayed':
    case 'DealVoided':
    case 'TurnTimedOut':
    case 'SeatReturned':
      return next.status === 'empty' || next.status === 'awaitingPlayers' || next.status === 'abandoned' ? next : withPresence(next, event);
    default:
      return next;
  }
};

/** The seat whose decision an event records (the dealer's deal, a cut, a contract, a lay-away, a card), else null. */
const actorOf = (event: BismarckEvent): Seat | null => {
  switch (event.type) {
    case 'DealStarted':
      return event.data.dealer;
    case 'DeckCut':
    case 'ContractChosen':
    case 'CardsLaidAway':
    case 'CardPlayed':
    case 'DealVoided':
      return event.data.seat;
    default:
      return null;
  }
};

/**
 * Presence after an event (clock.ts decides the events): a timeout counts and, the second in a row,
 * sends the seat away; a move by the seat a stand-in was due for is the stand-in's; any other move of
 * a seat breaks its row of timeouts; SeatReturned brings it back.
 */
const withPresence = (state: StartedMatch, event: BismarckEvent): StartedMatch => {
  const p = state.presence;
  // Everyone present (every match without a clock): only a timeout or a return changes that.
  if (p === EVERYONE_PRESENT && event.type !== 'TurnTimedOut' && event.type !== 'SeatReturned') return state;
  switch (event.type) {
    case 'TurnTimedOut': {
      const seat = event.data.seat;
      const timeouts = tripleWith(p.timeouts, seat, p.timeouts[seat] + 1);
      return { ...state, presence: { timeouts, away: tripleWith(p.away, seat, p.away[seat] || timeouts[seat] >= 2), standingIn: seat } };
    }
    case 'SeatReturned': {
      const seat = event.data.seat;
      return { ...state, presence: { timeouts: tripleWith(p.timeouts, seat, 0), away: tripleWith(p.away, seat, false), standingIn: p.standingIn === seat ? null : p.standingIn } };
    }
    default: {
      const actor = actorOf(event);
      if (actor === null) return state;
      const presence = afterMove(p, actor);
      return presence === p ? state : { ...state, presence };
    }
  }
};

/** Presence after a move of `actor`: the stand-in's move if one was due for it, else its row of timeouts broken. */
const afterMove = (p: Presence, actor: Seat): Presence => {
  if (p === EVERYONE_PRESENT) return p;
  if (p.standingIn === actor) return { ...p, standingIn: null };
  if (p.timeouts[actor] === 0) return p;
  return { ...p, timeouts: tripleWith(p.timeouts, actor, 0) };
};

/** A card played to the trick in progress, with its presence step (withPresence's for a move). */
const cardPlayed = (state: TrickPlay, event: Extract<BismarckEvent, { type: 'CardPlayed' }>): TrickPlay => {
  const { seat, card } = event.data;
  const c = parseCard(card);
  const hands = c < 0 ? state.hands : tripleWith(state.hands, seat, withoutCard(state.hands[seat], c));
  const presence = afterMove(state.presence, seat);
  return nextPlay(state, presence, hands, state.laidAway, state.played, state.trickNumber, [...state.trick, { seat, card }], nextSeat(seat), state.tricksTaken, state.lastTrick);
};

const evolveGame = (state: MatchState, event: BismarckEvent): MatchState => {
  switch (event.type) {
    case 'MatchCreated': {
      if (state.status !== 'empty') return state;
      const { matchId, players, options, firstDealer, seeded } = event.data;
      // Logs from before bot seats have no `bots`: every seat is a person.
      const bots = event.data.bots ?? NO_BOTS;
      // Logs from before player accounts, and matches of anonymous people: no seat is bound.
      const accounts = event.data.accounts ?? NO_BOTS;
      const forkedFrom = event.data.forkedFrom ? { matchId: event.data.forkedFrom.matchId, version: event.data.forkedFrom.version } : null;
      if (players.some((p) => p === null)) return { status: 'awaitingPlayers', matchId, players, bots, accounts, options, firstDealer, seeded, forkedFrom };
      return {
        status: 'awaitingDeal',
        matchId,
        players: players as Triple<string>,
        bots,
        accounts,
        options,
        firstDealer,
        seeded,
        forkedFrom,
        dealsInMatch: dealsInMatch(options),
        dealNumber: 0,
        upcomingDeal: 1,
        totals: [0, 0, 0],
        contractsPlayed: [{}, {}, {}],
        scored: [],
        presence: EVERYONE_PRESENT,
        dealer: firstDealer,
        forehand: nextSeat(firstDealer),
        carried: null,
        previous: null,
        commitment: null,
        cut: null,
      };
    }
    case 'SeatJoined': {
      if (state.status !== 'awaitingPlayers' || state.players[event.data.seat] !== null) return state;
      const players = tripleWith(state.players, event.data.seat, event.data.name);
      const bots = tripleWith(state.bots, event.data.seat, event.data.bot ?? null);
      const accounts = tripleWith(state.accounts, event.data.seat, event.data.account ?? null);
      if (players.some((p) => p === null)) return { ...state, players, bots, accounts };
      // The table is full: from here on the match is exactly one created with these three names.
      const { matchId, options, firstDealer, seeded, forkedFrom } = state;
      return evolve(initialState(), {
        type: 'MatchCreated',
        data: { matchId, players, options, firstDealer, seeded, bots, accounts, ...(forkedFrom ? { forkedFrom } : {}) },
      });
    }
    case 'DealStarted': {
      if (state.status !== 'awaitingDeal') return state;
      const { deal, dealer, forehand, contract, trump } = event.data;
      const deck = parseAll(event.data.deck ?? []);
      const tableCards = parseAll(event.data.tableCards);
      return dealStarted(state, deal, dealer, forehand, deck, tableCards, contract, trump);
    }
    case 'ContractChosen': {
      if (state.status !== 'awaitingContract') return state;
      const { seat, contract, trump, deal } = event.data;
      const hands = state.hands && pickUpTable(state.hands, state.forehand, state.tableCards);
      return {
        ...state,
        status: 'layingAway',
        contract,
        trump,
        hands,
        contractsPlayed: markContract(state, seat, contract, deal),
      };
    }
    case 'HandsDealt': {
      if ((state.status !== 'awaitingContract' && state.status !== 'layingAway') || state.hands !== null) return state;
      const hands = event.data.hands.map((h) => fromCards(parseAll(h ?? []))) as Triple<CardSet>;
      return state.status === 'layingAway'
        ? { ...state, hands: pickUpTable(hands, state.forehand, state.tableCards) }
        : { ...state, hands };
    }
    case 'CardsLaidAway': {
      if (state.status !== 'layingAway' || state.hands === null) return state;
      const laidAway = fromCards(parseAll(event.data.cards ?? []));
      const hands = tripleWith(state.hands, state.forehand, {
        lo: state.hands[state.forehand].lo & ~laidAway.lo,
        hi: state.hands[state.forehand].hi & ~laidAway.hi,
      });
      return nextPlay(state, state.presence, hands, laidAway, EMPTY, 1, [], state.forehand, [0, 0, 0], null);
    }
    case 'CardPlayed':
      // a card on the trick in progress is evolve's `cardPlayed`; in any other phase it is ignored
      return state;
    case 'TrickTaken': {
      if (state.status !== 'trickPlay') return state;
      const { winner, cards } = event.data;
      let played = state.played;
      for (const p of cards) {
        const c = parseCard(p.card);
        if (c >= 0) played = withCard(played, c);
      }
      const tricksTaken = tripleWith(state.tricksTaken, winner, state.tricksTaken[winner] + 1);
      return nextPlay(state, state.presence, state.hands, state.laidAway, played, state.trickNumber + 1, [], winner, tricksTaken, { cards, winner });
    }
    case 'DealVoided': {
      if (state.status !== 'layingAway') return state;
      return {
        ...infoOf(state),
        status: 'awaitingDeal',
        dealer: state.dealer,
        forehand: state.forehand,
        upcomingDeal: state.dealNumber,
        carried: { contract: state.contract, trump: state.trump },
        previous: null,
        commitment: null,
        cut: null,
      };
    }
    case 'DealScored': {
      if (state.status !== 'trickPlay') return state;
      const { deal, forehand, contract, trump, tricks, points, totals } = event.data;
      const row: ScorecardDeal = { number: deal, dealer: state.dealer, forehand, contract, trump, tricks, points, totals };
      const previous = { tricksTaken: tricks, lastTrick: state.lastTrick };
      const scored = [...state.scored, row];
      if (deal >= state.dealsInMatch) return finished(state, totals, scored, winnersOf(totals), previous);
      const dealer = dealerOf(state.firstDealer, deal + 1);
      return nextDeal(state, totals, scored, deal + 1, dealer, nextSeat(dealer), previous);
    }
    case 'MatchFinished': {
      if (state.status !== 'finished') return state;
      return { ...state, totals: event.data.totals, winners: event.data.winners };
    }
    case 'RematchOffered':
      return state.status === 'finished' && state.rematch === null ? { ...state, rematch: event.data.matchId } : state;
    case 'TableAbandoned':
      return state.status === 'awaitingPlayers' ? { ...state, status: 'abandoned' } : state;
    case 'DeckCommitted':
      return state.status === 'awaitingDeal' ? { ...state, commitment: event.data.commitment, cut: null } : state;
    case 'DeckCut':
      return state.status === 'awaitingDeal' && state.cut === null ? { ...state, cut: event.data.cut } : state;
    case 'SeedRevealed':
    case 'TurnTimedOut':
    case 'SeatReturned':
      return state;
    default:
      return ignoreUnknown(event, state);
  }
};

// A compile-time check that every event type is handled; at run time an unknown event is ignored.
const ignoreUnknown = (_event: never, state: MatchState): MatchState => state;

export const fold = (events: readonly BismarckEvent[], from: MatchState = initialState()): MatchState =>
  events.reduce(evolve, from);
