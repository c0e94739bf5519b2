// The edge of the solver: card codes in, card codes out, input checked once. The search inside works
// on libs/rules' packed numbers (search.ts), converted here by the rules' parseCard / packCard and
// unpackCard / cardCode.
import {
  type Card,
  type Contract,
  type PlayedCard,
  RuleViolation,
  type Seat,
  SUITS,
  type Suit,
  cardCode,
  fromCards,
  legalPlays,
  packCard,
  parseCard,
  rankOf,
  sortCodes,
  suitOf,
  toCodes,
  unpackCard,
} from '@bismarck/rules';
import { Search } from './search';
import { Table } from './table';
export { SolverBudgetExceeded } from './types';

/** A moment of a deal's card play, every hand face up. */
export interface Position {
  /** What each seat still holds. */
  readonly hands: readonly [readonly Card[], readonly Card[], readonly Card[]];
  readonly contract: Contract;
  /** The trump suit: 'S' in spades, the named suit in trump, null in notrump and pass. */
  readonly trump: Suit | null;
  /** The cards of the trick in progress, in the order played (empty when `turn` leads). */
  readonly trick: readonly PlayedCard[];
  /** The seat to play. */
  readonly turn: Seat;
  /** The seat whose tricks are counted. */
  readonly perspective: Seat;
  /** The match option: a seat that cannot follow suit must trump if it can. Default false. */
  readonly mustTrump?: boolean;
}

export interface SolveOptions {
  /**
   * 'most': the perspective seat plays for as many tricks as it can and the other two, together,
   * for as few; 'fewest': the reverse. Default: 'fewest' in pass, 'most' otherwise.
   */
  readonly goal?: 'most' | 'fewest';
  /** False: only the position's value is wanted (`cards` comes back empty), which is faster. Default true. */
  readonly cards?: boolean;
  /**
   * The most positions to expand before giving up with SolverBudgetExceeded (a count, not a clock, so
   * that the outcome does not depend on the machine). Default: no limit.
   */
  readonly maxNodes?: number;
  /**
   * Keep what the previous solve learned when this one has the same trump, trump rule, perspective
   * and goal (any deal: positions are remembered by the relative ranks of the cards held). Solving a
   * deal's positions from the last back, each solve finds the later ones' sub-positions settled.
   * The values are the same either way; only the work (`nodes`) depends on what came before.
   * Default false: every solve starts afresh.
   */
  readonly remember?: boolean;
}

export interface Solved {
  /** The perspective seat's tricks from here (the trick in progress included) when every seat plays its best. */
  readonly tricks: number;
  /** Every legal card of the seat to play, in display order, with the perspective's tricks after it. */
  readonly cards: { card: Card; tricks: number }[];
  /** Positions the search expanded (a measure of work, for benchmarks). */
  readonly nodes: number;
}

const TRUMP_OF: Record<Contract, Suit | null | 'named'> = { spades: 'S', trump: 'named', notrump: null, pass: null };

// One table, reused: allocating and zeroing 24 MB per call would cost more than most solves.
let table: Table | undefined;

/**
 * The double-dummy value of a position under the paranoid reading: the perspective seat against the
 * other two playing together, everyone seeing every card. Throws RuleViolation(VALIDATION_FAILED) for a
 * position that cannot arise in a deal.
 */
export const solve = (position: Position, options: SolveOptions = {}): Solved => {
  const { hands, trick, leader, trump } = checked(position);
  const goal = options.goal ?? (position.contract === 'pass' ? 'fewest' : 'most');
  const others = 7 & ~(1 << position.perspective);
  table ??= new Table();
  const solution = new Search(
    {
      hands,
      trick,
      leader,
      trump,
      mustTrump: position.mustTrump ?? false,
      counted: position.perspective,
      maximisers: goal === 'most' ? 1 << position.perspective : others,
      maxNodes: options.maxNodes ?? Number.POSITIVE_INFINITY,
    },
    table,
  ).solve(options.cards ?? true, options.remember ?? false);
  const byCode = new Map(solution.cards.map(({ card, tricks }) => [cardCode(unpackCard(card)), tricks]));
  return {
    tricks: solution.tricks,
    cards: sortCodes([...byCode.keys()]).map((card) => ({ card, tricks: byCode.get(card)! })),
    nodes: solution.nodes,
  };
};


const refuse = (message: string): never => {
  throw new RuleViolation('VALIDATION_FAILED', message);
};
const isSeat = (s: unknown): s is Seat => s === 0 || s === 1 || s === 2;

/** The position in the search's terms, after checking it could arise in a deal. */
const checked = (p: Position) => {
  if (!Array.isArray(p.hands) || p.hands.length !== 3) refuse('hands: three arrays of card codes');
  if (!Array.isArray(p.trick) || p.trick.length > 2) refuse('trick: at most two cards already played');
  if (!isSeat(p.turn) || !isSeat(p.perspective)) refuse('turn and perspective: a seat 0, 1 or 2');
  if (!(p.contract in TRUMP_OF)) refuse(`contract: one of ${Object.keys(TRUMP_OF).join(', ')}`);
  const trumpRule = TRUMP_OF[p.contract];
  if (trumpRule === 'named' ? !SUITS.includes(p.trump as Suit) : p.trump !== trumpRule) {
    refuse(`trump: ${trumpRule === 'named' ? 'a suit' : String(trumpRule)} in ${p.contract}`);
  }
  const seen = new Set<Card>();
  const cardsOf = (codes: readonly Card[]) =>
    codes.map((code) => {
      if (parseCard(code) < 0) refuse(`not a card: ${String(code)}`);
      if (seen.has(code)) refuse(`a card twice: ${code}`);
      seen.add(code);
      return code;
    });
  const held = p.hands.map((hand) => (Array.isArray(hand) ? cardsOf(hand) : refuse('hands: three arrays of card codes')));
  cardsOf(p.trick.map((played) => played?.card));
  const leader = p.trick.length === 0 ? p.turn : p.trick[0].seat;
  p.trick.forEach((played, i) => {
    if (played.seat !== (leader + i) % 3) refuse('trick: seats play in turn, clockwise');
  });
  if ((leader + p.trick.length) % 3 !== p.turn) refuse('turn: the seat after the last card of the trick');
  checkSizes(held, p.trick, p.turn);
  checkTrick(held, p);
  const hands = new Int32Array(12);
  held.forEach((hand, seat) => {
    for (const code of hand) {
      const c = parseCard(code);
      hands[seat * 4 + suitOf(c)] |= 1 << rankOf(c);
    }
  });
  return { hands, trick: p.trick.map((played) => packCard(parseCard(played.card))), leader, trump: p.trump === null ? -1 : SUITS.indexOf(p.trump) };
};

/** The seats yet to play to this trick hold one card more than those that have played. */
const checkSizes = (held: Card[][], trick: readonly PlayedCard[], turn: Seat): void => {
  const n = held[turn].length;
  if (n === 0) refuse('hands: the seat to play holds no card');
  held.forEach((hand, seat) => {
    const played = trick.some((c) => c.seat === seat);
    if (hand.length !== (played ? n - 1 : n)) refuse('hands: sizes do not fit the trick in progress');
  });
};

/** Each card of the trick was legal when played (libs/rules `legalPlays`). */
const checkTrick = (held: Card[][], p: Position): void => {
  const trump = p.trump === null ? -1 : SUITS.indexOf(p.trump);
  p.trick.forEach((played, i) => {
    const before = fromCards([...held[played.seat], played.card].map(parseCard));
    const legal = legalPlays(before, p.trick.slice(0, i), trump, p.mustTrump ?? false);
    if (!toCodes(legal).includes(played.card)) refuse(`trick: ${played.card} was not a legal card for seat ${played.seat}`);
  });
};
