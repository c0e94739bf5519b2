// Bot seats: the rules record which seats the service plays (the strategy's name), nothing more.
import { type BismarckEvent, type Command, fold, publicView, scorecard } from '../src';
import { create, given, history } from './given';

const withBots = (players: [string | null, string | null, string | null], bots?: unknown): Command =>
  ({ ...(create({}, 0) as Extract<Command, { type: 'createMatch' }>), players, seeded: false, ...(bots === undefined ? {} : { bots }) }) as Command;

describe('given no match', () => {
  it('records the bot seats in MatchCreated', () => {
    given([]).when(withBots(['Ann', 'Greedy bot', 'Random bot'], [null, 'greedy', 'random'])).then((events) =>
      expect(events[0].data).toMatchObject({ players: ['Ann', 'Greedy bot', 'Random bot'], bots: [null, 'greedy', 'random'] }),
    );
  });

  it('leaves `bots` out of MatchCreated when no seat is a bot (the events of such matches stay as they were)', () => {
    given([]).when(withBots(['Ann', 'Bob', 'Cyd'], [null, null, null])).then((events) => expect(events[0].data).not.toHaveProperty('bots'));
    given([]).when(withBots(['Ann', 'Bob', 'Cyd'])).then((events) => expect(events[0].data).not.toHaveProperty('bots'));
  });

  it.each([
    ['a bot on an open seat', ['Ann', null, 'Bot'], [null, 'greedy', null]],
    ['a blank strategy', ['Ann', 'Bob', 'Bot'], [null, null, ' ']],
    ['two entries', ['Ann', 'Bob', 'Bot'], [null, 'greedy']],
  ])('refuses %s: VALIDATION_FAILED', (_name, players, bots) => {
    given([]).when(withBots(players as [string, string, string], bots)).thenThrows('VALIDATION_FAILED');
  });
});

describe('a match with bot seats', () => {
  it('marks them in the public view and the scorecard (bot null for a person)', () => {
    const state = fold(history(withBots(['Ann', 'Greedy bot', 'Random bot'], [null, 'greedy', 'random'])));
    const seats = [
      { seat: 0, name: 'Ann', bot: null },
      { seat: 1, name: 'Greedy bot', bot: 'greedy' },
      { seat: 2, name: 'Random bot', bot: 'random' },
    ];
    expect(publicView(state).seats).toEqual(seats);
    expect(scorecard(state).seats).toEqual(seats);
  });

  it('loads a log from before bot seats: every seat a person', () => {
    const old: BismarckEvent = {
      type: 'MatchCreated',
      data: { ...(history(withBots(['Ann', 'Bob', 'Cyd']))[0].data as Extract<BismarckEvent, { type: 'MatchCreated' }>['data']) },
    };
    expect(publicView(fold([old])).seats.map((s) => s.bot)).toEqual([null, null, null]);
  });

  it('takes a lobby seat for a bot: SeatJoined with `bot`, kept when the table fills', () => {
    const waiting = history(withBots(['Ann', null, null]));
    given(waiting)
      .when({ type: 'joinSeat', seat: 1, name: 'Greedy bot', bot: 'greedy' })
      .then([{ type: 'SeatJoined', data: { seat: 1, name: 'Greedy bot', bot: 'greedy' } }]);
    given(waiting).when({ type: 'joinSeat', seat: 1, name: 'Bob' }).then([{ type: 'SeatJoined', data: { seat: 1, name: 'Bob' } }]);
    given(waiting).when({ type: 'joinSeat', seat: 1, name: 'Bot', bot: '' }).thenThrows('VALIDATION_FAILED');
    const full = fold([
      ...waiting,
      { type: 'SeatJoined', data: { seat: 1, name: 'Greedy bot', bot: 'greedy' } },
      { type: 'SeatJoined', data: { seat: 2, name: 'Cyd' } },
    ]);
    expect(full.status).toBe('awaitingDeal');
    expect(publicView(full).seats.map((s) => s.bot)).toEqual([null, 'greedy', null]);
  });
});
