import { type BismarckEvent, type Command, fold, initialState, legalActions, publicView, scorecard, seatView, shuffleDeck, visibleEvents } from '../src';
import { create, given, history } from './given';

const lobby = (players: [string | null, string | null, string | null] = ['Ann', null, null], firstDealer: 0 | 1 | 2 = 0): Command => ({
  ...(create({}, firstDealer) as Extract<Command, { type: 'createMatch' }>),
  players,
  seeded: false,
});
const join = (seat: 0 | 1 | 2, name: string): Command => ({ type: 'joinSeat', seat, name });
const DECK = shuffleDeck('lobby-spec', 1);

describe('given no match', () => {
  it('creates a match with open seats (null names)', () => {
    given([]).when(lobby(['Ann', null, null])).then((events) => {
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'MatchCreated', data: { players: ['Ann', null, null] } });
    });
  });

  it('creates a table with every seat open', () => {
    given([]).when(lobby([null, null, null])).then((events) => expect(events[0].data).toMatchObject({ players: [null, null, null] }));
  });

  it('refuses a blank name beside open seats', () => {
    given([]).when(lobby(['  ', null, null])).thenThrows('VALIDATION_FAILED');
  });

  it('refuses open seats in a seeded match: SEED_WITH_OPEN_SEATS (its creator could compute a stranger\'s hand)', () => {
    given([]).when({ ...lobby(['Ann', null, 'Cyd']), seeded: true } as Command).thenThrows('SEED_WITH_OPEN_SEATS');
    given([]).when({ ...lobby([null, null, null]), seeded: true } as Command).thenThrows('SEED_WITH_OPEN_SEATS');
  });

  it('refuses joinSeat: there is no such match', () => {
    given([]).when(join(1, 'Bob')).thenThrows('MATCH_NOT_FOUND');
  });
});

describe('given a match waiting for players (seat 0 taken)', () => {
  const waiting = history(lobby(['Ann', null, null]));

  it('is waiting: status waiting, open seats have no name, nobody may act', () => {
    const state = fold(waiting);
    const view = publicView(state);
    expect(view).toMatchObject({ status: 'waiting', turn: null, seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: null }, { seat: 2, name: null }] });
    expect(legalActions(state, 0)).toBeNull();
    expect(seatView(state, 0)).toMatchObject({ hand: [], legal: null, laidAway: null });
    expect(scorecard(state)).toMatchObject({ seats: view.seats, deals: [], finished: false });
  });

  it('lets someone join an open seat: SeatJoined', () => {
    given(waiting).when(join(1, 'Bob')).then([{ type: 'SeatJoined', data: { seat: 1, name: 'Bob' } }]);
  });

  it('refuses a taken seat: SEAT_TAKEN', () => {
    given(waiting).when(join(0, 'Eve')).thenThrows('SEAT_TAKEN');
  });

  it.each([
    ['a seat that is not 0, 1 or 2', { type: 'joinSeat', seat: 3, name: 'Bob' }],
    ['a blank name', { type: 'joinSeat', seat: 1, name: ' ' }],
    ['no name', { type: 'joinSeat', seat: 1 }],
  ])('refuses %s: VALIDATION_FAILED', (_name, command) => {
    given(waiting).when(command as Command).thenThrows('VALIDATION_FAILED');
  });

  it.each([
    ['deal', { type: 'deal', seat: 0, deck: DECK }],
    ['chooseContract', { type: 'chooseContract', seat: 1, contract: 'pass' }],
    ['discard', { type: 'discard', seat: 1, cards: ['2C', '3C', '4C', '5C'] }],
    ['playCard', { type: 'playCard', seat: 1, card: '2C' }],
    ['cut', { type: 'cut', seat: 2, cut: 'abc' }],
  ])('refuses %s before every seat is taken: MATCH_NOT_STARTED', (_name, command) => {
    given(waiting).when(command as Command).thenThrows('MATCH_NOT_STARTED');
  });

  it('refuses createMatch again: MATCH_EXISTS', () => {
    given(waiting).when(lobby()).thenThrows('MATCH_EXISTS');
  });
});

describe('given the last open seat is joined', () => {
  it('starts the match: the same state as a match created with the three names', () => {
    const joined = history(lobby([null, 'Bob', null], 2), join(2, 'Cyd'), join(0, 'Ann'));
    const created = history(lobby(['Ann', 'Bob', 'Cyd'], 2));
    expect(fold(joined)).toEqual(fold(created));
    expect(publicView(fold(joined))).toMatchObject({ status: 'playing', phase: 'deal', turn: 2 });
    expect(legalActions(fold(joined), 2)).toEqual({ action: 'deal' });
  });

  it('refuses another join once started: SEAT_TAKEN', () => {
    given(history(lobby(['Ann', 'Bob', null]), join(2, 'Cyd'))).when(join(1, 'Eve')).thenThrows('SEAT_TAKEN');
  });

  it('deals once started', () => {
    given(history(lobby(['Ann', 'Bob', null]), join(2, 'Cyd')))
      .when({ type: 'deal', seat: 0, deck: DECK })
      .then((events) => expect(events[0].type).toBe('DealStarted'));
  });
});

describe('evolve and visibility of lobby events', () => {
  it('ignores a SeatJoined for a taken seat or a started match (evolve never throws)', () => {
    const waiting = fold(history(lobby(['Ann', null, null])));
    const taken: BismarckEvent = { type: 'SeatJoined', data: { seat: 0, name: 'Eve' } };
    expect(fold([taken], waiting)).toBe(waiting);
    const started = fold(history(create()));
    expect(fold([taken], started)).toBe(started);
    expect(fold([taken], initialState())).toEqual(initialState());
  });

  it('SeatJoined is public: every viewer sees it unredacted', () => {
    const events = history(lobby(['Ann', null, null]), join(1, 'Bob'));
    for (const viewer of [0, 1, 2, 'spectator'] as const) expect(visibleEvents(events, viewer)).toEqual(events);
  });
});

describe('given a lobby table nobody filled', () => {
  const waiting = history(lobby(['Ann', null, null]));

  it('abandons it: TableAbandoned names the seats still open', () => {
    given(waiting).when({ type: 'abandonTable' }).then([{ type: 'TableAbandoned', data: { openSeats: [1, 2] } }]);
  });

  it('is abandoned: status abandoned, phase finished, nobody may act', () => {
    const state = fold([...waiting, { type: 'TableAbandoned', data: { openSeats: [1, 2] } }]);
    expect(publicView(state)).toMatchObject({ status: 'abandoned', phase: 'finished', turn: null, seats: [{ name: 'Ann' }, { name: null }, { name: null }] });
    expect(legalActions(state, 0)).toBeNull();
    expect(scorecard(state)).toMatchObject({ deals: [], finished: false });
  });

  it.each([
    ['a join', join(1, 'Bob')],
    ['another abandonment', { type: 'abandonTable' } as Command],
    ['a deal', { type: 'deal', seat: 0, deck: DECK } as Command],
  ])('refuses %s: MATCH_ABANDONED', (_name, command) => {
    given([...waiting, { type: 'TableAbandoned', data: { openSeats: [1, 2] } }]).when(command).thenThrows('MATCH_ABANDONED');
  });

  it('refuses to abandon a match that has started: WRONG_PHASE', () => {
    given(history(lobby(['Ann', null, null]), join(1, 'Bob'), join(2, 'Cyd'))).when({ type: 'abandonTable' }).thenThrows('WRONG_PHASE');
  });
});

describe('seats bound to player accounts', () => {
  const P = 'pl-00000000-0000-4000-8000-00000000000a';
  const Q = 'pl-00000000-0000-4000-8000-00000000000b';
  const bound = (accounts: [string | null, string | null, string | null], players: [string | null, string | null, string | null] = ['Ann', null, null]): Command =>
    ({ ...lobby(players), accounts }) as Command;

  it('records the accounts only when a seat is bound, and shows each as the seat\'s `player`', () => {
    given([]).when(lobby(['Ann', null, null])).then((events) => expect(events[0].data).not.toHaveProperty('accounts'));
    given([]).when(bound([P, null, null])).then((events) => expect(events[0].data).toMatchObject({ accounts: [P, null, null] }));
    const state = fold(history(bound([P, null, null]), { type: 'joinSeat', seat: 1, name: 'Bo', account: Q } as Command, join(2, 'Cyd')));
    expect(publicView(state).seats).toEqual([
      { seat: 0, name: 'Ann', bot: null, player: P },
      { seat: 1, name: 'Bo', bot: null, player: Q },
      { seat: 2, name: 'Cyd', bot: null },
    ]);
    expect(state.status !== 'empty' && 'accounts' in state && state.accounts).toEqual([P, Q, null]);
  });

  it('refuses an account on an open seat, on a bot seat, or on two seats of one match', () => {
    given([]).when(bound([null, P, null], ['Ann', null, null])).thenThrows('VALIDATION_FAILED');
    given([]).when({ ...bound([null, P, null], ['Ann', 'Bot', 'Cyd']), bots: [null, 'greedy', null] } as Command).thenThrows('VALIDATION_FAILED');
    given([]).when(bound([P, P, null], ['Ann', 'Bo', null])).thenThrows('VALIDATION_FAILED');
  });

  it('refuses a join by an account that holds a seat already: ALREADY_SEATED', () => {
    given(history(bound([P, null, null]))).when({ type: 'joinSeat', seat: 1, name: 'Ann again', account: P } as Command).thenThrows('ALREADY_SEATED');
    given(history(bound([P, null, null]))).when({ type: 'joinSeat', seat: 1, name: 'Bo', account: Q } as Command).then((events) =>
      expect(events).toEqual([{ type: 'SeatJoined', data: { seat: 1, name: 'Bo', account: Q } }]),
    );
  });
});
