// One rule, every consumer: on random deals played out at random, the cards the solver values, the
// suits the playouts may play (and the card greedy picks from them), and libs/rules' legalPlays are the
// same cards at every position; the playouts hand each trick to trickWinner's seat; a play never shows a
// void its seat did not have. (Here because libs/bots may import both libs/rules and libs/solver.)
import fc from 'fast-check';
import {
  type Card,
  type Contract,
  type PlayedCard,
  type Seat,
  SUITS,
  cardCode,
  fromCards,
  legalPlays,
  mulberry32,
  parseCard,
  toCodes,
  trickWinner,
  voidsShown,
} from '@bismarck/rules';
import { solve } from '@bismarck/solver';
import { type World, greedyCard, legalSuits, play } from '../src/playout';
import { shuffledDeck } from '../src/local';

const RUNS = Number(process.env.ONE_RULE_RUNS ?? 200);
/** The solver values every card of endings this short (in cards left to the seat to play): fast, and where the strong bot calls it. */
const SOLVED_ENDING = 5;

const suitOfCode = (code: Card) => (parseCard(code) / 13) | 0;

const contractOf = (trump: number, pick: boolean): Contract => {
  if (trump < 0) return pick ? 'pass' : 'notrump';
  return trump === 0 && pick ? 'spades' : 'trump';
};

const dealArb = fc.record({
  seed: fc.integer(),
  trump: fc.integer({ min: -1, max: 3 }),
  pick: fc.boolean(),
  mustTrump: fc.boolean(),
  leader: fc.integer({ min: 0, max: 2 }),
});

describe('every consumer plays by the rules', () => {
  it('the solver, the playouts and legalPlays allow the same cards, and the playouts take tricks as trickWinner does', () => {
    let positions = 0;
    let solved = 0;
    fc.assert(
      fc.property(dealArb, ({ seed, trump, pick, mustTrump, leader }) => {
        const random = mulberry32(seed);
        const deck = shuffledDeck(random);
        const hands: Card[][] = [deck.slice(0, 16), deck.slice(16, 32), deck.slice(32, 48)];
        const world: World = { hands: new Int32Array(12), trump, pass: contractOf(trump, pick) === 'pass', mustTrump, trick: [], leader, taken: [0, 0, 0] };
        hands.forEach((hand, seat) => hand.forEach((code) => (world.hands[seat * 4 + suitOfCode(code)] |= 1 << parseCard(code) % 13)));
        let trick: PlayedCard[] = [];
        let turn = leader as Seat;
        while (hands[turn].length > 0) {
          positions++;
          const legal = toCodes(legalPlays(fromCards(hands[turn].map(parseCard)), trick, trump, mustTrump));

          const suits = legalSuits(world, turn);
          expect(hands[turn].filter((code) => suits & (1 << suitOfCode(code))).sort()).toEqual(legal.slice().sort());
          expect(legal).toContain(cardCode(greedyCard(world)));

          if (hands[turn].length <= SOLVED_ENDING) {
            solved++;
            const position = { hands: hands as [Card[], Card[], Card[]], contract: contractOf(trump, pick), trump: trump < 0 ? null : SUITS[trump], trick, turn, perspective: leader as Seat, mustTrump };
            expect(solve(position).cards.map((c) => c.card)).toEqual(legal);
          }

          const card = legal[Math.floor(random() * legal.length)];
          if (trick.length > 0) {
            const shown = voidsShown(suitOfCode(card), suitOfCode(trick[0].card), trump, mustTrump);
            expect(hands[turn].filter((code) => shown & (1 << suitOfCode(code)))).toEqual([]);
          }
          hands[turn] = hands[turn].filter((code) => code !== card);
          trick = [...trick, { seat: turn, card }];
          play(world, parseCard(card));
          if (trick.length === 3) {
            turn = trickWinner(trick, trump);
            expect(world.leader).toBe(turn);
            trick = [];
          } else {
            turn = ((turn + 1) % 3) as Seat;
          }
        }
        expect(world.taken.reduce((a, b) => a + b)).toBe(16);
      }),
      { numRuns: RUNS },
    );
    expect(positions).toBe(RUNS * 48);
    expect(solved).toBeGreaterThan(0);
  });
});
