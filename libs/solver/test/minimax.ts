// The reference the solver is checked against: plain minimax over card codes with libs/rules' own
// legalPlays and trickWinner, no pruning, no table, no equivalent cards. Exponential: small endings only.
import { type Card, type PlayedCard, type Seat, SUITS, fromCards, legalPlays, parseCard, sortCodes, toCodes, trickWinner } from '@bismarck/rules';
import type { Position, SolveOptions } from '../src';

export const minimax = (p: Position, options: SolveOptions = {}): { tricks: number; cards: { card: Card; tricks: number }[] } => {
  const goal = options.goal ?? (p.contract === 'pass' ? 'fewest' : 'most');
  const trump = p.trump === null ? -1 : SUITS.indexOf(p.trump);
  const maximises = (seat: Seat) => (seat === p.perspective) === (goal === 'most');

  const legal = (hands: Card[][], trick: PlayedCard[], seat: Seat): Card[] =>
    toCodes(legalPlays(fromCards(hands[seat].map(parseCard)), trick, trump, p.mustTrump ?? false));

  const after = (hands: Card[][], trick: PlayedCard[], seat: Seat, card: Card): number => {
    const next = hands.map((h, s) => (s === seat ? h.filter((c) => c !== card) : h));
    const played = [...trick, { seat, card }];
    if (played.length < 3) return value(next, played, ((seat + 1) % 3) as Seat);
    const winner = trickWinner(played, trump);
    return (winner === p.perspective ? 1 : 0) + value(next, [], winner);
  };

  const value = (hands: Card[][], trick: PlayedCard[], seat: Seat): number => {
    if (hands[seat].length === 0) return 0;
    const values = legal(hands, trick, seat).map((card) => after(hands, trick, seat, card));
    return maximises(seat) ? Math.max(...values) : Math.min(...values);
  };

  const hands = p.hands.map((h) => [...h]);
  const trick = [...p.trick];
  const cards = sortCodes(legal(hands, trick, p.turn)).map((card) => ({ card, tricks: after(hands, trick, p.turn, card) }));
  const values = cards.map((c) => c.tricks);
  return { tricks: maximises(p.turn) ? Math.max(...values) : Math.min(...values), cards };
};
