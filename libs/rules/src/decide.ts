// decide(command, state) → events, or a RuleViolation. One small function per command.
//
// Precedence of checks (the first failing one gives the code), the same for every command:
//   1. the match exists (createMatch on a match → MATCH_EXISTS; anything else on none → MATCH_NOT_FOUND)
//      joinSeat is decided here (lobby); any other command to a match still waiting for players → MATCH_NOT_STARTED
//   2. the phase accepts this kind of command (WRONG_PHASE; a finished match accepts nothing)
//   3. the seat is the one to act (NOT_YOUR_TURN; a seat that is not 0, 1 or 2 → VALIDATION_FAILED)
//   4. the input is well formed (VALIDATION_FAILED: unknown card codes, wrong count, duplicates, ...)
//   5. the rules of the game (CARD_NOT_IN_HAND, MUST_FOLLOW_SUIT, MUST_TRUMP, CONTRACT_*, DISCARD_FIRST, ...)
// A playCard by forehand while he still has to lay away passes step 2 (a lead is a play), then under
// leadBeforeDiscard=reject it is refused with DISCARD_FIRST before the card is looked at (step 5 order:
// DISCARD_FIRST, then CARD_NOT_IN_HAND for the redeal variant).
import {
  type CardId,
  type CardSet,
  DECK_SIZE,
  has,
  isCardCode,
  isSuit,
  parseCard,
  cardCode,
  suitMask,
  suitOf,
  SUITS,
} from './cards';
import { refuse } from './errors';
import { returnToSeat, timeOut, withReturn } from './clock';
import { cut, withDealer } from './fairness';
import { forkMatch, forkPositions } from './fork';
import { allowedContracts, legalPlays, trickWinner } from './legal';
import { dealPlan, resolveOptions } from './options';
import { CONTRACTS, points, quotas, winnersOf } from './scoring';
import {
  type AwaitingContract,
  type LayingAway,
  type MatchState,
  type StartedMatch,
  type TrickPlay,
  endsTheDeal,
  trumpSuitId,
} from './state';
import type {
  BismarckEvent,
  Card,
  ChooseContract,
  Command,
  CreateMatch,
  Deal,
  Discard,
  JoinSeat,
  OfferRematch,
  PlayCard,
  Seat,
  Suit,
  Triple,
} from './types';

export const decide = (command: Command, state: MatchState): BismarckEvent[] => {
  if (command === null || typeof command !== 'object') return refuse('VALIDATION_FAILED', 'a command is an object');
  // A fork is seeded from its first event: the dealer brings nothing to it (no commitment, no reveal).
  if (command.type === 'forkMatch') return decideMove(command, state);
  return withDealer(decideMove(command, state), state, command.dealer);
};

/**
 * The versions of a match's log at which it can be forked (fork.ts): 0, then every version at which
 * the started match rests between two moves. Throws an Error for a log the rules do not replay.
 */
export const forkableVersions = (events: readonly BismarckEvent[]): number[] => forkPositions(events, decide);

const decideMove = (command: Command, state: MatchState): BismarckEvent[] => {
  if (command.type === 'createMatch') return createMatch(command, state);
  // The fork decides the original's moves again with this same function (passed in: no import cycle).
  if (command.type === 'forkMatch') return forkMatch(command, state, decide);
  if (state.status === 'empty') return refuse('MATCH_NOT_FOUND', 'there is no such match');
  if (state.status === 'abandoned') return refuse('MATCH_ABANDONED', 'this lobby table was closed: its seats were not filled in time');
  if (command.type === 'joinSeat') return joinSeat(command, state);
  if (command.type === 'abandonTable') return abandonTable(state);
  if (state.status === 'awaitingPlayers') return refuse('MATCH_NOT_STARTED', 'the match starts when all three seats are taken');
  switch (command.type) {
    case 'deal':
      return withReturn(command, state, deal(command, state));
    case 'chooseContract':
      return withReturn(command, state, chooseContract(command, state));
    case 'discard':
      return withReturn(command, state, discard(command, state));
    case 'playCard':
      return withReturn(command, state, playCard(command, state));
    case 'cut':
      return withReturn(command, state, cut(command, state));
    case 'timeOut':
      return timeOut(command, state);
    case 'returnToSeat':
      return returnToSeat(command, state);
    case 'offerRematch':
      return offerRematch(command, state);
    default:
      return unknownCommand(command);
  }
};

const unknownCommand = (command: never): never =>
  refuse('VALIDATION_FAILED', `unknown command ${JSON.stringify((command as { type?: unknown }).type)}`);

// ---- createMatch --------------------------------------------------------------------------------

const createMatch = (command: CreateMatch, state: MatchState): BismarckEvent[] => {
  if (state.status !== 'empty') refuse('MATCH_EXISTS', 'this match already exists');
  const { matchId, players, firstDealer, seeded } = command;
  if (typeof matchId !== 'string' || matchId.length === 0) refuse('VALIDATION_FAILED', 'matchId must be a non-empty string');
  if (!Array.isArray(players) || players.length !== 3 || !players.every((p) => p === null || isName(p)))
    refuse('VALIDATION_FAILED', 'players must be 3 non-empty names (null for an open seat)');
  if (!isSeat(firstDealer)) refuse('VALIDATION_FAILED', 'firstDealer must be 0, 1 or 2');
  // The creator knows the seed, and the cut is public: a stranger's hand would be no secret to him.
  if (seeded === true && players.includes(null)) refuse('SEED_WITH_OPEN_SEATS', 'a seeded match cannot have open seats: its creator could compute every hand');
  const bots = command.bots;
  if (bots !== undefined && (!Array.isArray(bots) || bots.length !== 3 || !bots.every((b, s) => b === null || (isName(b) && players[s] !== null))))
    refuse('VALIDATION_FAILED', 'bots must be 3 entries, each a strategy name for a named seat or null');
  const accounts = command.accounts;
  if (accounts !== undefined && (!Array.isArray(accounts) || accounts.length !== 3 || !accounts.every((a, s) => a === null || (isName(a) && players[s] !== null && (bots?.[s] ?? null) === null))))
    refuse('VALIDATION_FAILED', 'accounts must be 3 entries, each a player id for a named seat that is not a bot, or null');
  if (accounts !== undefined && new Set(accounts.filter((a) => a !== null)).size !== accounts.filter((a) => a !== null).length)
    refuse('VALIDATION_FAILED', 'a player account holds at most one seat of a match');
  const forkedFrom = command.forkedFrom;
  if (forkedFrom !== undefined) {
    if (forkedFrom === null || typeof forkedFrom !== 'object' || typeof forkedFrom.matchId !== 'string' || forkedFrom.matchId.length === 0 || !Number.isSafeInteger(forkedFrom.version) || forkedFrom.version < 0)
      refuse('VALIDATION_FAILED', 'forkedFrom must name a match and a version from 0');
    // A fork starts from cards that are public: it can never be provably fair.
    if (seeded !== true) refuse('VALIDATION_FAILED', 'a fork is a seeded match');
  }
  const rematchOf = command.rematchOf;
  if (rematchOf !== undefined && (typeof rematchOf !== 'string' || rematchOf.length === 0 || rematchOf === matchId))
    refuse('VALIDATION_FAILED', 'rematchOf must name another match');
  const options = resolveOptions(command.options ?? {});
  return [
    {
      type: 'MatchCreated',
      data: {
        matchId,
        players: [players[0], players[1], players[2]],
        options,
        firstDealer,
        seeded: seeded === true,
        // Only a match with a bot seat records them: the events of every other match stay as they were.
        ...(bots?.some((b) => b !== null) ? { bots: [bots[0], bots[1], bots[2]] } : {}),
        // Only a match with a bound seat records the accounts.
        ...(accounts?.some((a) => a !== null) ? { accounts: [accounts[0], accounts[1], accounts[2]] } : {}),
        // Only a fork records where it starts.
        ...(forkedFrom !== undefined ? { forkedFrom: { matchId: forkedFrom.matchId, version: forkedFrom.version } } : {}),
        // Only a rematch records the match it follows.
        ...(rematchOf !== undefined ? { rematchOf } : {}),
      },
    },
  ];
};

// ---- joinSeat (the lobby) ---------------------------------------------------------------------------

/** Precedence: the seat and name are well formed (VALIDATION_FAILED), then the seat is open (SEAT_TAKEN). */
const joinSeat = (command: JoinSeat, state: Exclude<MatchState, { status: 'empty' }>): BismarckEvent[] => {
  const { seat, name, bot, account } = command;
  if (!isSeat(seat)) refuse('VALIDATION_FAILED', 'seat must be 0, 1 or 2');
  if (!isName(name)) refuse('VALIDATION_FAILED', 'name must be a non-empty name');
  if (bot !== undefined && !isName(bot)) refuse('VALIDATION_FAILED', 'bot must be a strategy name');
  if (account !== undefined && (!isName(account) || bot !== undefined)) refuse('VALIDATION_FAILED', 'account must be a player id, and only for a person');
  // Once the match has started, every seat is taken.
  if (state.status !== 'awaitingPlayers' || state.players[seat] !== null) refuse('SEAT_TAKEN', `seat ${seat} is taken`);
  if (account !== undefined && state.accounts.includes(account)) refuse('ALREADY_SEATED', 'this player holds a seat of this match already');
  return [{ type: 'SeatJoined', data: { seat, name, ...(bot !== undefined ? { bot } : {}), ...(account !== undefined ? { account } : {}) } }];
};

/** Only a table still waiting for players; once the match has started it is played, not abandoned. */
const abandonTable = (state: Exclude<MatchState, { status: 'empty' | 'abandoned' }>): BismarckEvent[] => {
  if (state.status !== 'awaitingPlayers') return refuse('WRONG_PHASE', 'only a table still waiting for players can be abandoned');
  const openSeats = ([0, 1, 2] as Seat[]).filter((seat) => state.players[seat] === null);
  return [{ type: 'TableAbandoned', data: { openSeats } }];
};

const isName = (p: unknown): p is string => typeof p === 'string' && p.trim() !== '';

// ---- offerRematch -----------------------------------------------------------------------------------

/**
 * Only a finished match (MATCH_NOT_FINISHED while it is played), and only once: a second offer, by any
 * seat, is REMATCH_OFFERED, which the service answers with the first one's match. Which seat may ask
 * (a person's, not a bot's) is the service's to check, as for every seat command.
 */
const offerRematch = (command: OfferRematch, state: StartedMatch): BismarckEvent[] => {
  if (state.status !== 'finished') return refuse('MATCH_NOT_FINISHED', 'a rematch follows a finished match');
  const { seat, matchId } = command;
  if (!isSeat(seat)) refuse('VALIDATION_FAILED', 'seat must be 0, 1 or 2');
  if (typeof matchId !== 'string' || matchId.length === 0 || matchId === state.matchId) refuse('VALIDATION_FAILED', 'matchId must name the new match');
  if (state.rematch !== null) refuse('REMATCH_OFFERED', `this match's rematch is ${state.rematch}`);
  return [{ type: 'RematchOffered', data: { matchId, seat } }];
};

// ---- deal -----------------------------------------------------------------------------------------

const deal = (command: Deal, state: StartedMatch): BismarckEvent[] => {
  if (state.status !== 'awaitingDeal') return wrongPhase(state, 'deal');
  actingSeat(command.seat, state.dealer, 'the dealer deals');
  const deck = validDeck(command.deck);
  const { dealer, forehand, upcomingDeal: number } = state;
  const plan = dealPlan(state.options, number);
  const tableCards = deck.slice(0, 4);
  const tableTrump = SUITS[suitOf(tableCards[0])];
  const settled =
    plan.kind === 'fixed'
      ? { contract: plan.contract, trump: plan.trumpFromTable ? tableTrump : null }
      : state.carried;
  const started: BismarckEvent = {
    type: 'DealStarted',
    data: {
      deal: number,
      dealer,
      forehand,
      deck: deck.map(cardCode),
      tableCards: tableCards.map(cardCode),
      contract: settled?.contract ?? null,
      trump: settled?.trump ?? null,
      ...(command.shuffle !== undefined ? { shuffle: command.shuffle } : {}),
    },
  };
  const blind = plan.kind !== 'fixed' && plan.blind && settled === null;
  return blind ? [started] : [started, handsDealt(number, deck, forehand)];
};

/** deck[0..3] go face up on the table; deck[4 + i] goes to seat (forehand + i) mod 3. */
export const dealHands = (deck: readonly CardId[], forehand: Seat): Triple<CardId[]> => {
  const hands: Triple<CardId[]> = [[], [], []];
  for (let i = 0; i < DECK_SIZE - 4; i++) hands[(forehand + i) % 3].push(deck[4 + i]);
  return hands;
};

const handsDealt = (number: number, deck: readonly CardId[], forehand: Seat): BismarckEvent => ({
  type: 'HandsDealt',
  data: { deal: number, hands: dealHands(deck, forehand).map((h) => h.map(cardCode)) as Triple<Card[]> },
});

const validDeck = (deck: unknown): CardId[] => {
  if (!Array.isArray(deck) || deck.length !== DECK_SIZE || !deck.every(isCardCode))
    refuse('VALIDATION_FAILED', 'the deck must be the 52 card codes');
  const ids = (deck as Card[]).map(parseCard);
  if (new Set(ids).size !== DECK_SIZE) refuse('VALIDATION_FAILED', 'the deck must hold every card exactly once');
  return ids;
};

// ---- chooseContract -------------------------------------------------------------------------------

const chooseContract = (command: ChooseContract, state: StartedMatch): BismarckEvent[] => {
  if (state.status !== 'awaitingContract') return wrongPhase(state, 'chooseContract');
  actingSeat(command.seat, state.forehand, 'forehand announces the contract');
  const { contract } = command;
  const trump = command.trump ?? null;
  if (!CONTRACTS.includes(contract)) refuse('VALIDATION_FAILED', `contract must be one of ${CONTRACTS.join(', ')}`);
  if (contract === 'trump' && !isSuit(trump)) refuse('VALIDATION_FAILED', 'name the trump suit (S, H, D or C)');
  if (contract !== 'trump' && trump !== null) refuse('VALIDATION_FAILED', 'a trump suit is named only with the contract trump');
  checkContractAllowed(state, contract);
  if (trump === 'S' && !state.options.spadesInFreeTrump)
    refuse('SPADES_NOT_ALLOWED', 'spades may not be named as the free trump in this match');
  const chosen: BismarckEvent = {
    type: 'ContractChosen',
    data: { deal: state.dealNumber, seat: state.forehand, contract, trump: contract === 'spades' ? 'S' : (trump as Suit | null) },
  };
  return state.hands === null ? [chosen, handsDealt(state.dealNumber, state.deck, state.forehand)] : [chosen];
};

const checkContractAllowed = (state: AwaitingContract, contract: ChooseContract['contract']): void => {
  const allowed = allowedContracts(state);
  if (allowed.includes(contract)) return;
  if (allowed.length === 1) refuse('CONTRACT_LOCKED', `only ${allowed[0]} can be announced in this deal`);
  refuse('CONTRACT_ALREADY_PLAYED', `this forehand has already played ${contract}`);
};

// ---- discard ---------------------------------------------------------------------------------------

const discard = (command: Discard, state: StartedMatch): BismarckEvent[] => {
  if (state.status !== 'layingAway') return wrongPhase(state, 'discard');
  actingSeat(command.seat, state.forehand, 'forehand lays away');
  const { cards } = command;
  if (!Array.isArray(cards) || cards.length !== 4 || !cards.every(isCardCode))
    refuse('VALIDATION_FAILED', 'lay away exactly 4 cards');
  if (new Set(cards).size !== 4) refuse('VALIDATION_FAILED', 'lay away 4 different cards');
  const hand = state.hands?.[state.forehand];
  for (const code of cards) if (!hand || !has(hand, parseCard(code))) refuse('CARD_NOT_IN_HAND', `${code} is not in your hand`);
  return [{ type: 'CardsLaidAway', data: { deal: state.dealNumber, seat: state.forehand, cards: cards.slice() } }];
};

// ---- playCard --------------------------------------------------------------------------------------

const playCard = (command: PlayCard, state: StartedMatch): BismarckEvent[] => {
  if (state.status === 'layingAway') return leadBeforeDiscard(command, state);
  if (state.status !== 'trickPlay') return wrongPhase(state, 'playCard');
  const { seat, card } = command;
  actingSeat(seat, state.turn, 'it is another seat to play');
  const c = cardId(card);
  const hand = state.hands[seat];
  if (!has(hand, c)) refuse('CARD_NOT_IN_HAND', `${card} is not in your hand`);
  const trump = trumpSuitId(state.trump);
  if (!has(legalPlays(hand, state.trick, trump, state.options.mustTrump), c)) refuseIllegal(hand, state);
  const played: BismarckEvent = {
    type: 'CardPlayed',
    data: { deal: state.dealNumber, trick: state.trickNumber, seat, card },
  };
  if (state.trick.length < 2) return [played];
  return [played, ...trickTaken(state, { seat, card }, trump)];
};

const refuseIllegal = (hand: CardSet, state: TrickPlay): never => {
  const led = suitOf(parseCard(state.trick[0].card));
  if (suitMask(hand, led) !== 0) refuse('MUST_FOLLOW_SUIT', `you must follow suit (${SUITS[led]})`);
  return refuse('MUST_TRUMP', `you cannot follow ${SUITS[led]}, so you must play a trump`);
};

const trickTaken = (state: TrickPlay, last: { seat: Seat; card: Card }, trump: number): BismarckEvent[] => {
  const cards = [...state.trick, last];
  const winner = trickWinner(cards, trump);
  const taken: BismarckEvent = {
    type: 'TrickTaken',
    data: { deal: state.dealNumber, trick: state.trickNumber, winner, cards },
  };
  if (!endsTheDeal(state)) return [taken];
  const tricks = state.tricksTaken.slice() as Triple<number>;
  tricks[winner] += 1;
  return [taken, ...dealScored(state, tricks)];
};

const dealScored = (state: TrickPlay, tricks: Triple<number>): BismarckEvent[] => {
  const { contract, forehand } = state;
  const quota = quotas(contract, forehand);
  const pts = points(state.options.scoring, contract, tricks, quota);
  const totals = state.totals.map((t, s) => t + pts[s]) as Triple<number>;
  const scored: BismarckEvent = {
    type: 'DealScored',
    data: { deal: state.dealNumber, forehand, contract, trump: state.trump, tricks, quotas: quota, points: pts, totals },
  };
  if (state.dealNumber < state.dealsInMatch) return [scored];
  return [scored, { type: 'MatchFinished', data: { totals, winners: winnersOf(totals) } }];
};

/** Forehand leads while still holding 20 cards (docs/rules.md §2.7). */
const leadBeforeDiscard = (command: PlayCard, state: LayingAway): BismarckEvent[] => {
  actingSeat(command.seat, state.forehand, 'forehand has to lay away first');
  const c = cardId(command.card);
  if (state.options.leadBeforeDiscard === 'reject')
    refuse('DISCARD_FIRST', 'lay away 4 cards before leading to the first trick');
  const hand = state.hands?.[state.forehand];
  if (!hand || !has(hand, c)) refuse('CARD_NOT_IN_HAND', `${command.card} is not in your hand`);
  return [
    {
      type: 'DealVoided',
      data: { deal: state.dealNumber, seat: state.forehand, card: command.card, reason: 'leadBeforeDiscard' },
    },
  ];
};

// ---- shared checks ----------------------------------------------------------------------------------

const isSeat = (s: unknown): s is Seat => s === 0 || s === 1 || s === 2;

const actingSeat = (seat: unknown, expected: Seat, why: string): void => {
  if (!isSeat(seat)) refuse('VALIDATION_FAILED', 'seat must be 0, 1 or 2');
  if (seat !== expected) refuse('NOT_YOUR_TURN', `not your turn: ${why} (seat ${expected})`);
};

const cardId = (card: unknown): CardId => {
  if (!isCardCode(card)) refuse('VALIDATION_FAILED', 'a card is a rank (2-9 T J Q K A) then a suit (S H D C), e.g. "QH"');
  return parseCard(card as Card);
};

const PHASE_NAMES: Record<StartedMatch['status'], string> = {
  awaitingDeal: 'the dealer has to deal',
  awaitingContract: 'forehand has to announce the contract',
  layingAway: 'forehand has to lay away 4 cards',
  trickPlay: 'the cards are being played',
  finished: 'the match is finished',
};

const wrongPhase = (state: StartedMatch, command: Command['type']): never =>
  refuse('WRONG_PHASE', `${command} is not possible now: ${PHASE_NAMES[state.status]}`);
