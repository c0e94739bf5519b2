// The solver against plain minimax on small random endings, hand-made positions with known values,
// the bounds' trump matching, and refusals of impossible positions.
import fc from 'fast-check';
import {
  type Card,
  type Contract,
  type PlayedCard,
  RuleViolation,
  type Seat,
  type Suit,
  SUITS,
  freshDeck,
  fromCards,
  legalPlays,
  mulberry32,
  parseCard,
  toCodes,
  trickWinner,
} from '@bismarck/rules';
import { type Position, type SolveOptions, SolverBudgetExceeded, solve } from '../src';
import { trumpTricks } from '../src/bounds';
import { minimax } from './minimax';

const RUNS = Number(process.env.SOLVER_PROPERTY_RUNS ?? 300);

const shuffled = <T>(items: T[], random: () => number): T[] => {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};

const contractOf = (trump: Suit | null, pick: boolean): Contract => {
  if (trump === null) return pick ? 'pass' : 'notrump';
  return trump === 'S' && pick ? 'spades' : 'trump';
};

const endingArb = fc.record({
  seed: fc.integer(),
  tricks: fc.integer({ min: 1, max: 5 }),
  played: fc.integer({ min: 0, max: 2 }),
  leader: fc.constantFrom<Seat>(0, 1, 2),
  perspective: fc.constantFrom<Seat>(0, 1, 2),
  trump: fc.constantFrom<Suit | null>('S', 'H', 'D', 'C', null),
  contractPick: fc.boolean(),
  mustTrump: fc.boolean(),
  goal: fc.constantFrom<SolveOptions['goal']>('most', 'fewest', undefined),
  // dense: cards from the top ranks only, so that runs of equivalent cards are common
  dense: fc.boolean(),
});
type Ending = typeof endingArb extends fc.Arbitrary<infer T> ? T : never;

/** A random ending: `tricks` cards a seat, `played` of them already on the table, played legally. */
const positionOf = (e: Ending): Position => {
  const random = mulberry32(e.seed);
  const needed = e.tricks * 3;
  const pool = e.dense ? freshDeck().filter((c) => '23456789TJQKA'.indexOf(c[0]) >= 13 - Math.ceil(needed / 4) - 1) : freshDeck();
  const deck = shuffled(pool, random);
  const hands = [0, 1, 2].map((s) => deck.slice(s * e.tricks, (s + 1) * e.tricks));
  const trump = e.trump === null ? -1 : SUITS.indexOf(e.trump);
  const trick: PlayedCard[] = [];
  for (let i = 0; i < e.played; i++) {
    const seat = ((e.leader + i) % 3) as Seat;
    const legal = toCodes(legalPlays(fromCards(hands[seat].map(parseCard)), trick, trump, e.mustTrump));
    const card = legal[Math.floor(random() * legal.length)];
    hands[seat] = hands[seat].filter((c) => c !== card);
    trick.push({ seat, card });
  }
  return {
    hands: hands as [Card[], Card[], Card[]],
    contract: contractOf(e.trump, e.contractPick),
    trump: e.trump,
    trick,
    turn: ((e.leader + e.played) % 3) as Seat,
    perspective: e.perspective,
    mustTrump: e.mustTrump,
  };
};

const withoutNodes = ({ tricks, cards }: { tricks: number; cards: { card: Card; tricks: number }[] }) => ({ tricks, cards });

describe('solve, against plain minimax', () => {
  it('gives the same tricks and the same value for every legal card on random endings of 1 to 5 tricks', () => {
    fc.assert(
      fc.property(endingArb, (e) => {
        const position = positionOf(e);
        const options = { goal: e.goal };
        expect(withoutNodes(solve(position, options))).toEqual(minimax(position, options));
      }),
      { numRuns: RUNS },
    );
  });

  it('is deterministic: the same position solved twice, with other solves between, gives the same answer and work', () => {
    fc.assert(
      fc.property(endingArb, endingArb, (a, b) => {
        const first = solve(positionOf(a));
        solve(positionOf(b));
        expect(solve(positionOf(a))).toEqual(first);
      }),
      { numRuns: 50 },
    );
  });
});

// Rows: a name, the position, the expected value (checked against minimax as well).
const base = { trick: [], turn: 0 as Seat, perspective: 0 as Seat };
const rows: { name: string; position: Position; options?: SolveOptions; tricks: number }[] = [
  {
    name: 'in notrump the two top spades take both tricks',
    position: { ...base, hands: [['AS', 'KS'], ['QS', 'JS'], ['2H', '3H']], contract: 'notrump', trump: null },
    tricks: 2,
  },
  {
    name: 'with hearts trump the same top spades are both ruffed',
    position: { ...base, hands: [['AS', 'KS'], ['2H', '3H'], ['2S', '3S']], contract: 'trump', trump: 'H' },
    tricks: 0,
  },
  {
    name: 'the others, playing together, keep seat 0 to one trick by cashing their own ace first',
    position: { ...base, turn: 1, hands: [['KS', '2C'], ['AS', '3C'], ['QS', '4C']], contract: 'notrump', trump: null },
    tricks: 0,
  },
  {
    name: 'with trumping optional, the others discard on the two of clubs, ruff it later and keep seat 0 to nothing',
    position: { ...base, hands: [['KS', '2C'], ['JH', 'QD'], ['TS', 'QH']], contract: 'trump', trump: 'H' },
    tricks: 0,
  },
  {
    name: 'the same ending with mustTrump: both others must trump the two of clubs, and the king of spades takes a trick',
    position: { ...base, mustTrump: true, hands: [['KS', '2C'], ['JH', 'QD'], ['TS', 'QH']], contract: 'trump', trump: 'H' },
    tricks: 1,
  },
  {
    name: 'in pass (goal fewest) seat 0 cannot shed its ace of spades and takes one trick',
    position: { ...base, turn: 1, hands: [['AS', '2C'], ['KS', '3C'], ['QS', '4C']], contract: 'pass', trump: null },
    tricks: 1,
  },
  {
    name: 'a trick in progress counts: seat 2 wins the trick led by seat 0 with the king over the queen',
    position: {
      ...base,
      turn: 2,
      hands: [['2D'], ['3D'], ['KH', '4D']],
      trick: [
        { seat: 0, card: 'QH' },
        { seat: 1, card: '2H' },
      ],
      perspective: 2,
      contract: 'notrump',
      trump: null,
    },
    tricks: 2,
  },
];

describe('solve, hand-made positions', () => {
  it.each(rows)('$name', ({ position, options, tricks }) => {
    const solved = solve(position, options);
    expect(solved.tricks).toBe(tricks);
    expect(withoutNodes(solved)).toEqual(minimax(position, options));
  });

  it('gives every legal card of the seat to play, equivalent cards included, and only those', () => {
    const solved = solve({ ...base, hands: [['AS', 'KS', 'QS', '2H'], ['JS', '3S', '4H', '5H'], ['TS', '4S', '6H', '7H']], contract: 'notrump', trump: null });
    expect(solved.cards.map((c) => c.card)).toEqual(['AS', 'KS', 'QS', '2H']);
    expect(solved.cards.find((c) => c.card === 'QS')!.tricks).toBe(solved.cards.find((c) => c.card === 'AS')!.tricks);
  });
});

describe('solve, options', () => {
  it('with cards: false gives the same value and no cards', () => {
    fc.assert(
      fc.property(endingArb, (e) => {
        const position = positionOf(e);
        const full = solve(position, { goal: e.goal });
        expect(solve(position, { goal: e.goal, cards: false })).toMatchObject({ tricks: full.tricks, cards: [] });
      }),
      { numRuns: 100 },
    );
  });

  it('gives up with SolverBudgetExceeded (code SOLVER_BUDGET_EXCEEDED) past maxNodes, and solves the same position without it', () => {
    const deck = shuffled(freshDeck(), mulberry32(7));
    const position: Position = { ...base, hands: [deck.slice(0, 5), deck.slice(5, 10), deck.slice(10, 15)], contract: 'notrump', trump: null };
    const { nodes } = solve(position);
    expect(nodes).toBeGreaterThan(10);
    expect(() => solve(position, { maxNodes: 10 })).toThrow(SolverBudgetExceeded);
    expect(() => solve(position, { maxNodes: 10 })).toThrow(expect.objectContaining({ code: 'SOLVER_BUDGET_EXCEEDED' }));
    expect(solve(position, { maxNodes: nodes })).toEqual(solve(position));
  });

  it('with remember, solves in a row under one trump, rule, perspective and goal keep minimax values, whatever the deals', () => {
    fc.assert(
      fc.property(fc.array(endingArb, { minLength: 2, maxLength: 6 }), fc.boolean(), (endings, mixSeats) => {
        const [first] = endings;
        endings.forEach((e, i) => {
          // one context for the whole row, unless mixSeats: then the perspective changes now and then
          const same = { ...e, trump: first.trump, contractPick: first.contractPick, mustTrump: first.mustTrump, goal: first.goal };
          const position = positionOf(mixSeats ? same : { ...same, perspective: first.perspective });
          const options = { goal: first.goal, remember: i > 0 };
          expect(withoutNodes(solve(position, options))).toEqual(minimax(position, options));
        });
      }),
      { numRuns: Math.max(50, RUNS / 3) },
    );
  });

  it('with remember, the positions of one deal solved from the last trick back keep their values for less work', () => {
    const deck = shuffled(freshDeck(), mulberry32(11));
    const random = mulberry32(12);
    // eight tricks of notrump played at random; the position before every card
    const hands = [deck.slice(0, 8), deck.slice(8, 16), deck.slice(16, 24)];
    const positions: Position[] = [];
    let trick: PlayedCard[] = [];
    let turn: Seat = 0;
    for (let card = 0; card < 24; card++) {
      positions.push({ hands: [[...hands[0]], [...hands[1]], [...hands[2]]], contract: 'notrump', trump: null, trick, turn, perspective: 1 });
      const legal = toCodes(legalPlays(fromCards(hands[turn].map(parseCard)), trick, -1, false));
      const played = legal[Math.floor(random() * legal.length)];
      hands[turn] = hands[turn].filter((c) => c !== played);
      trick = [...trick, { seat: turn, card: played }];
      turn = trick.length === 3 ? trickWinner(trick, -1) : (((turn + 1) % 3) as Seat);
      if (trick.length === 3) trick = [];
    }
    const backwards = positions.reverse();
    const fresh = backwards.map((p) => solve(p, { cards: false }));
    const remembered = backwards.map((p, i) => solve(p, { cards: false, remember: i > 0 }));
    expect(remembered.map((s) => s.tricks)).toEqual(fresh.map((s) => s.tricks));
    const work = (solves: { nodes: number }[]) => solves.reduce((sum, s) => sum + s.nodes, 0);
    expect(work(remembered)).toBeLessThan(work(fresh));
  });
});

describe('trumpTricks', () => {
  const mask = (ranks: string) => [...ranks].reduce((m, r) => m | (1 << '23456789TJQKA'.indexOf(r)), 0);
  it.each<[string, string, number]>([
    ['AKQ', 'J', 3],
    ['QT8', 'AK', 1], // A and K each take one of Q and T; the 8 is left over once they are gone
    ['A2', 'KQJ', 1],
    ['2', '', 1],
    ['KJ', 'AQ', 0],
    ['', 'A', 0],
  ])('%s against %s: at least %i tricks', (mine, theirs, tricks) => {
    expect(trumpTricks(mask(mine), mask(theirs))).toBe(tricks);
  });
});

describe('solve refuses positions that cannot arise', () => {
  const ok: Position = { ...base, hands: [['AS'], ['KS'], ['QS']], contract: 'notrump', trump: null };
  it.each<[string, Partial<Position>]>([
    ['a card twice', { hands: [['AS'], ['AS'], ['QS']] }],
    ['not a card', { hands: [['AS'], ['1S'], ['QS']] }],
    ['hand sizes that do not fit', { hands: [['AS', 'JS'], ['KS'], ['QS']] }],
    ['a trump in notrump', { trump: 'H' }],
    ['no trump named in a free-trump contract', { contract: 'trump' }],
    ['a turn out of order', { turn: 1, trick: [{ seat: 0, card: 'TS' }] }],
    ['a trick card that broke the follow-suit rule', { turn: 2, hands: [['AS'], ['KH'], ['QS']], trick: [{ seat: 0, card: '2S' }, { seat: 1, card: '3C' }] }],
    ['an empty hand to play from', { hands: [[], [], []] }],
  ])('%s: VALIDATION_FAILED', (_name, change) => {
    expect(() => solve({ ...ok, ...change })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => solve({ ...ok, ...change })).toThrow(RuleViolation);
  });
});
