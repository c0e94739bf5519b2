// A bot's move as an HTTP client sends it: POST /api/matches/{id}/{route} with this body. The one
// place that maps the rules' seat moves to the api's routes (the CLI's bot, the benches, the tests).
import type { Contract, SeatMove, Suit } from '@bismarck/rules';

/** One route of the api per kind of move, and its request body. */
export type MoveRequest =
  | { route: 'deal' }
  | { route: 'cut'; body: { cut: string } }
  | { route: 'contract'; body: { contract: Contract; trump?: Suit } }
  | { route: 'discard'; body: { cards: string[] } }
  | { route: 'play'; body: { card: string } };

/** The request for a move (null for no move: a bot with nothing to do). */
export function requestOf(move: SeatMove): MoveRequest;
export function requestOf(move: SeatMove | null): MoveRequest | null;
export function requestOf(move: SeatMove | null): MoveRequest | null {
  if (move === null) return null;
  switch (move.type) {
    case 'deal':
      return { route: 'deal' };
    case 'cut':
      return { route: 'cut', body: { cut: move.cut } };
    case 'chooseContract':
      return { route: 'contract', body: move.trump ? { contract: move.contract, trump: move.trump } : { contract: move.contract } };
    case 'discard':
      return { route: 'discard', body: { cards: move.cards } };
    case 'playCard':
      return { route: 'play', body: { card: move.card } };
    default:
      return unknownMove(move);
  }
}

const unknownMove = (move: never): never => {
  throw new Error(`unknown move ${JSON.stringify(move)}`);
};
