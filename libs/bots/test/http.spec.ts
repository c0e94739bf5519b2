// The one mapping of a bot's move (the rules' SeatMove) to the api's route and body.
import type { SeatMove } from '@bismarck/rules';
import { type MoveRequest, requestOf } from '../src';

const rows: [string, SeatMove, MoveRequest][] = [
  ['deal: no body', { type: 'deal' }, { route: 'deal' }],
  ['cut', { type: 'cut', cut: 'bot-1' }, { route: 'cut', body: { cut: 'bot-1' } }],
  ['a contract with no trump sends none', { type: 'chooseContract', contract: 'notrump', trump: null }, { route: 'contract', body: { contract: 'notrump' } }],
  ['a free trump', { type: 'chooseContract', contract: 'trump', trump: 'D' }, { route: 'contract', body: { contract: 'trump', trump: 'D' } }],
  ['discard', { type: 'discard', cards: ['2C', '3C', '4C', '5C'] }, { route: 'discard', body: { cards: ['2C', '3C', '4C', '5C'] } }],
  ['playCard goes to play', { type: 'playCard', card: 'AS' }, { route: 'play', body: { card: 'AS' } }],
];

describe('requestOf', () => {
  it.each(rows)('%s', (_name, move, request) => {
    expect(requestOf(move)).toEqual(request);
  });
  it('no move, no request', () => {
    expect(requestOf(null)).toBeNull();
  });
});
