// A seat's move (types.ts `SeatMove`: what the api's seat routes and the bots order) as the rules'
// command: the seat that orders it added, and for a deal the deck the dealer brings.
import { exhaustive } from './options';
import type { Card, Command, Seat, SeatMove } from './types';

export const commandForMove = (seat: Seat, move: SeatMove, deck: () => Card[]): Command => {
  switch (move.type) {
    case 'deal':
      return { type: 'deal', seat, deck: deck() };
    case 'cut':
      return { type: 'cut', seat, cut: move.cut };
    case 'chooseContract':
      return { type: 'chooseContract', seat, contract: move.contract, trump: move.trump ?? null };
    case 'discard':
      return { type: 'discard', seat, cards: move.cards };
    case 'playCard':
      return { type: 'playCard', seat, card: move.card };
    default:
      return exhaustive(move);
  }
};
