// A seat's order (types.ts `SeatCommand`: what the api's seat routes and the bots give) as the rules'
// command: the seat that gives it added, and for a deal the deck the dealer brings.
import { exhaustive } from './options';
import type { Card, Command, Seat, SeatCommand, SeatMove } from './types';

/** The rules' command of a seat's order, before any fact from outside the rules: a deal has no deck yet. */
export function orderOf(seat: Seat, order: SeatCommand) {
  switch (order.type) {
    case 'deal':
      return { type: 'deal', seat } as const;
    case 'cut':
      return { type: 'cut', seat, cut: order.cut } as const;
    case 'chooseContract':
      return { type: 'chooseContract', seat, contract: order.contract, trump: order.trump ?? null } as const;
    case 'discard':
      return { type: 'discard', seat, cards: order.cards } as const;
    case 'playCard':
      return { type: 'playCard', seat, card: order.card } as const;
    case 'returnToSeat':
      return { type: 'returnToSeat', seat } as const;
    default:
      return exhaustive(order);
  }
}

/** A move as the rules decide it: a deal brings its deck. */
export const commandForMove = (seat: Seat, move: SeatMove, deck: () => Card[]): Command => {
  const order = orderOf(seat, move);
  return order.type === 'deal' ? { ...order, deck: deck() } : order;
};
