// The states `evolve` makes most often, built field by field: a literal with a fixed list of fields is
// several times cheaper for V8 than spreading a 20-field state into a new one, and gives every state
// of a phase made here one shape. Each lists its fields in the order the spreads it replaced gave them
// (so a state's keys, and its JSON, are what they were). The repeated MatchInfo lists are on purpose:
// with `...infoOf(s)` in the three states made once a deal, bench:rules fell from 1,510 to 1,100
// matches per CPU-second (2026-12-07): the spread's shape reaches every later state of the deal.
import type { CardId, CardSet } from './cards';
import type { AwaitingDeal, AwaitingContract, Finished, LayingAway, Presence, StartedMatch, TakenTrick, TrickPlay } from './state';
import type { Contract, PlayedCard, Seat, Suit, Triple } from './types';
import type { ScorecardDeal } from './shown';

/**
 * The play state after a lay-away, a card or a trick. Its MatchInfo fields repeat infoOf on purpose:
 * `...infoOf(s)` here cost about 10% of `npm run bench:rules`.
 */
export const nextPlay = (
  s: LayingAway | TrickPlay,
  presence: Presence,
  hands: Triple<CardSet>,
  laidAway: CardSet,
  played: CardSet,
  trickNumber: number,
  trick: readonly PlayedCard[],
  turn: Seat,
  tricksTaken: Triple<number>,
  lastTrick: TakenTrick | null,
): TrickPlay => ({
  status: 'trickPlay',
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
  presence,
  dealer: s.dealer,
  forehand: s.forehand,
  contract: s.contract,
  trump: s.trump,
  hands,
  laidAway,
  played,
  trickNumber,
  trick,
  turn,
  tricksTaken,
  lastTrick,
});

/** DealStarted: the table cards up, the contract to choose (`contract` null) or settled (laying away). */
export const dealStarted = (
  s: AwaitingDeal,
  dealNumber: number,
  dealer: Seat,
  forehand: Seat,
  deck: readonly CardId[],
  tableCards: readonly CardId[],
  contract: Contract | null,
  trump: Suit | null,
): AwaitingContract | LayingAway =>
  contract === null
    ? {
        matchId: s.matchId,
        players: s.players,
        bots: s.bots,
        accounts: s.accounts,
        options: s.options,
        firstDealer: s.firstDealer,
        seeded: s.seeded,
        forkedFrom: s.forkedFrom,
        dealsInMatch: s.dealsInMatch,
        dealNumber,
        totals: s.totals,
        contractsPlayed: s.contractsPlayed,
        scored: s.scored,
        presence: s.presence,
        dealer,
        forehand,
        deck,
        tableCards,
        hands: null,
        status: 'awaitingContract',
      }
    : {
        matchId: s.matchId,
        players: s.players,
        bots: s.bots,
        accounts: s.accounts,
        options: s.options,
        firstDealer: s.firstDealer,
        seeded: s.seeded,
        forkedFrom: s.forkedFrom,
        dealsInMatch: s.dealsInMatch,
        dealNumber,
        totals: s.totals,
        contractsPlayed: s.contractsPlayed,
        scored: s.scored,
        presence: s.presence,
        dealer,
        forehand,
        deck,
        tableCards,
        hands: null,
        status: 'layingAway',
        contract,
        trump,
      };

type Previous = AwaitingDeal['previous'];

/** DealScored with more deals to play: waiting for the next deal's dealer. */
export const nextDeal = (s: StartedMatch, totals: Triple<number>, scored: readonly ScorecardDeal[], upcomingDeal: number, dealer: Seat, forehand: Seat, previous: Previous): AwaitingDeal => ({
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
  totals,
  contractsPlayed: s.contractsPlayed,
  scored,
  presence: s.presence,
  status: 'awaitingDeal',
  upcomingDeal,
  dealer,
  forehand,
  carried: null,
  previous,
  commitment: null,
  cut: null,
});

/** DealScored on the last deal: the match is over. */
export const finished = (s: StartedMatch, totals: Triple<number>, scored: readonly ScorecardDeal[], winners: Seat[], previous: Previous): Finished => ({
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
  totals,
  contractsPlayed: s.contractsPlayed,
  scored,
  presence: s.presence,
  status: 'finished',
  winners,
  previous,
  rematch: null,
});
