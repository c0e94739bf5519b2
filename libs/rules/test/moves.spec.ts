// A seat's move (the api's seat commands, a bot's decision) as the rules' command.
import { type Command, type SeatMove, commandForMove } from '../src';

const DECK = ['AS', 'KS'];
const rows: [string, SeatMove, Command][] = [
  ['a deal takes the deck the dealer brings', { type: 'deal' }, { type: 'deal', seat: 1, deck: DECK }],
  ['a cut', { type: 'cut', cut: 'x' }, { type: 'cut', seat: 1, cut: 'x' }],
  ['a contract without a trump names none', { type: 'chooseContract', contract: 'pass' }, { type: 'chooseContract', seat: 1, contract: 'pass', trump: null }],
  ['a free trump', { type: 'chooseContract', contract: 'trump', trump: 'H' }, { type: 'chooseContract', seat: 1, contract: 'trump', trump: 'H' }],
  ['a lay-away', { type: 'discard', cards: ['2C', '3C', '4C', '5C'] }, { type: 'discard', seat: 1, cards: ['2C', '3C', '4C', '5C'] }],
  ['a card', { type: 'playCard', card: 'QH' }, { type: 'playCard', seat: 1, card: 'QH' }],
];

describe('commandForMove', () => {
  it.each(rows)('%s', (_name, move, command) => {
    expect(commandForMove(1, move, () => DECK)).toEqual(command);
  });
});
