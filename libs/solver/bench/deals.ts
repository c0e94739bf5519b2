// The random whole deals the benches solve (this folder's and libs/bots/bench's): one seed, the same deals.
import { type Contract, type Suit, freshDeck } from '@bismarck/rules';
import type { Position } from '../src';

const CONTRACTS: { contract: Contract; trump: Suit | null }[] = [
  { contract: 'spades', trump: 'S' },
  { contract: 'trump', trump: 'H' },
  { contract: 'trump', trump: 'D' },
  { contract: 'trump', trump: 'C' },
  { contract: 'notrump', trump: null },
  { contract: 'pass', trump: null },
];

/** 52 shuffled cards, 16 to each seat, 4 aside; a random contract, mustTrump on half; forehand (seat 0) to lead, counted. */
export const randomDeal = (random: () => number): Position => {
  const deck = freshDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  const { contract, trump } = CONTRACTS[Math.floor(random() * CONTRACTS.length)];
  return {
    hands: [deck.slice(0, 16), deck.slice(16, 32), deck.slice(32, 48)],
    contract,
    trump,
    trick: [],
    turn: 0,
    perspective: 0,
    mustTrump: random() < 0.5,
  };
};
