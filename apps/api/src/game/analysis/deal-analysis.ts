// The analysis of one scored deal: every card played, valued by libs/solver, and the deal's par.
// Pure (no Nest, no database, no clock): the api runs it in a worker thread (analysis.worker.ts),
// the tests call it directly. Nothing here needs a secret card: a scored deal's 48 played cards are
// its three hands at the first lead (docs/clients.md, "Analysis of a scored deal").
import {
  type BismarckEvent,
  type Card,
  type Contract,
  type MatchOptions,
  type Seat,
  type Suit,
  type Triple,
  SUITS,
  points,
  quotas,
  fromCards,
  legalPlays,
  parseCard,
  toCodes,
  trickWinner,
} from '@bismarck/rules';
import { SolverBudgetExceeded, solve, type Position } from '@bismarck/solver';
import { createHash } from 'node:crypto';

/** What a seat plays for: tricks in spades, trump and notrump; as few as it can in pass. */
export type Goal = 'most' | 'fewest';

/** A scored deal's card play, as the solver needs it. */
export interface DealToAnalyse {
  readonly deal: number;
  readonly forehand: Seat;
  readonly contract: Contract;
  readonly trump: Suit | null;
  readonly mustTrump: boolean;
  readonly scoring: MatchOptions['scoring'];
  /** The 48 cards played, in order. */
  readonly plays: readonly { readonly trick: number; readonly seat: Seat; readonly card: Card }[];
  /** The result as scored. */
  readonly tricks: Triple<number>;
  readonly points: Triple<number>;
  /** Attempts at this deal voided before it was played (leadBeforeDiscard: redeal). */
  readonly voidedAttempts: number;
}

export interface CardValue {
  readonly trick: number;
  readonly seat: Seat;
  readonly card: Card;
  /** The seat's tricks in the whole deal (those taken before included) with its best card here, every card face up; null over the budget. */
  readonly before: number | null;
  /** The same with the card it played. */
  readonly after: number | null;
  /** Tricks the card gave away in the seat's own aim (|before − after|, never negative); null over the budget. */
  readonly cost: number | null;
  /**
   * True when a solve of this card stopped at the node budget, or was not tried because a later
   * position of the same seat (fewer cards, as a rule easier) had stopped there.
   */
  readonly overBudget: boolean;
}

export interface Par {
  /** Per seat: the tricks it makes from the first lead against the other two together, every card face up; null over the budget. */
  readonly tricks: Triple<number | null>;
  /** The points those tricks would score by the match's scoring and the deal's quotas (each seat on its own: they need not add up). */
  readonly points: Triple<number | null>;
}

export interface DealAnalysis {
  readonly deal: number;
  readonly forehand: Seat;
  readonly contract: Contract;
  readonly trump: Suit | null;
  readonly goal: Goal;
  readonly quotas: Triple<number>;
  readonly voidedAttempts: number;
  readonly cards: CardValue[];
  readonly par: Par;
  readonly actual: { readonly tricks: Triple<number>; readonly points: Triple<number> };
  /** The node budget of each solve. */
  readonly maxNodes: number;
  /** True when any solve stopped at the budget (its values are null). */
  readonly overBudget: boolean;
  /** Positions the solver expanded for the whole analysis (the same on every machine). */
  readonly nodes: number;
}

/**
 * The card play of deal `deal` from a match's events, or null when that deal has not been scored.
 * Only its last attempt is played: a voided attempt (redeal) ends at its lead, before any trick.
 */
export function dealToAnalyse(events: readonly BismarckEvent[], deal: number): DealToAnalyse | null {
  let options: MatchOptions | null = null;
  let plays: DealToAnalyse['plays'][number][] = [];
  let voidedAttempts = 0;
  for (const event of events) {
    if (event.type === 'MatchCreated') options = event.data.options;
    else if (event.type === 'DealStarted' && event.data.deal === deal) plays = [];
    else if (event.type === 'DealVoided' && event.data.deal === deal) voidedAttempts++;
    else if (event.type === 'CardPlayed' && event.data.deal === deal) plays.push({ trick: event.data.trick, seat: event.data.seat, card: event.data.card });
    else if (event.type === 'DealScored' && event.data.deal === deal && options) {
      const { forehand, contract, trump, tricks, points: scored } = event.data;
      return { deal, forehand, contract, trump, mustTrump: options.mustTrump, scoring: options.scoring, plays, tricks, points: scored, voidedAttempts };
    }
  }
  return null;
}

/**
 * The key analyses are kept by (`sha256:<hex>`): everything the analysis is computed from, that is the
 * whole DealToAnalyse (its cards in the order played, contract, trump, rules, result), and nothing of
 * the match it was played in. A fork replays its source's deals card for card: same key, one solve.
 */
export function dealContent(d: DealToAnalyse): string {
  // Fields named one by one: the key must not depend on the order an object's fields were set in.
  const content = [d.deal, d.forehand, d.contract, d.trump, d.mustTrump, d.scoring, d.voidedAttempts, d.tricks, d.points, d.plays.map((p) => [p.trick, p.seat, p.card])];
  return `sha256:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}

const goalOf = (contract: Contract): Goal => (contract === 'pass' ? 'fewest' : 'most');
const SEATS: readonly Seat[] = [0, 1, 2];

/**
 * Every card of the deal valued from the seat that played it, under the solver's paranoid reading
 * (that seat against the other two together), and the par from the first lead. `maxNodes` bounds each
 * solve: a position over it gets null values and `overBudget`, never a hang, and so do that seat's
 * earlier positions, which are not tried.
 */
export function analyseDeal(d: DealToAnalyse, maxNodes: number): DealAnalysis {
  if (d.plays.length !== 48) throw new Error(`deal ${d.deal}: ${d.plays.length} cards played, 48 expected`);
  const goal = goalOf(d.contract);
  const trumpIndex = d.trump === null ? -1 : SUITS.indexOf(d.trump);
  // A scored deal plays every card: what each seat played is its hand at the first lead.
  const hands: Triple<Card[]> = [[], [], []];
  for (const p of d.plays) hands[p.seat].push(p.card);
  let nodes = 0;
  let overBudget = false;
  // The first solve forgets what earlier analyses left in the table, so that the outcome does not
  // depend on them; the rest remember what this one's later positions taught (libs/solver `remember`).
  let remember = false;
  const solveWithin = (position: Position) => {
    const options = { goal, cards: false, maxNodes, remember };
    remember = true;
    try {
      const solved = solve(position, options);
      nodes += solved.nodes;
      return solved;
    } catch (error) {
      if (!(error instanceof SolverBudgetExceeded)) throw error;
      nodes += maxNodes;
      overBudget = true;
      return null;
    }
  };

  // The positions before each card and after the last: who holds what, the trick so far, tricks taken.
  const positions: { held: Triple<Card[]>; trick: { seat: Seat; card: Card }[]; taken: Triple<number>; turn: Seat }[] = [];
  {
    let held: Triple<Card[]> = [[...hands[0]], [...hands[1]], [...hands[2]]];
    let trick: { seat: Seat; card: Card }[] = [];
    let taken: Triple<number> = [0, 0, 0];
    for (const p of d.plays) {
      positions.push({ held, trick, taken, turn: p.seat });
      held = held.map((h, s) => (s === p.seat ? h.filter((c) => c !== p.card) : h)) as Triple<Card[]>;
      trick = [...trick, { seat: p.seat, card: p.card }];
      if (trick.length === 3) {
        const winner = trickWinner(trick, trumpIndex);
        taken = taken.map((t, s) => (s === winner ? t + 1 : t)) as Triple<number>;
        trick = [];
      }
    }
    positions.push({ held, trick, taken, turn: d.plays[0].seat });
  }
  // Each position is solved for the value only, once per seat that asks: a card's `before` is the
  // position before it, its `after` the position after it, both from the seat that played it; the
  // par asks the first lead from every seat. Two value-only solves cost far less than one that values
  // every legal card of a lead.
  const wanted = new Set<number>(SEATS); // key: k * 3 + seat; the par: the first lead (k = 0) from every seat
  d.plays.forEach((p, k) => wanted.add(k * 3 + p.seat).add((k + 1) * 3 + p.seat));
  const forced = d.plays.map((p, k) => toCodes(legalPlays(fromCards(positions[k].held[p.seat].map(parseCard)), positions[k].trick, trumpIndex, d.mustTrump)).length === 1);
  // Seat by seat, from the last trick back: a position holds more cards than those after it and is,
  // as a rule, harder, and what the solver learned on the later positions of a seat settles much of
  // the earlier ones. Once a seat's position goes over the budget, that seat's earlier ones are not
  // tried (null, like it): a hard deal costs about one budget per seat, not one per early card.
  const values = new Map<number, number | null>();
  const givenUp = new Set<Seat>();
  for (const key of [...wanted].sort((a, b) => (a % 3) - (b % 3) || b - a)) {
    const k = Math.floor(key / 3);
    const seat = (key % 3) as Seat;
    const at = positions[k];
    let tricks: number | null;
    if (k === d.plays.length) tricks = at.taken[seat]; // the deal is over: what the seat took
    // A forced card (the seat's only legal one) is its best: the position before it is worth the one after.
    else if (d.plays[k].seat === seat && forced[k] && values.has(key + 3)) tricks = values.get(key + 3) ?? null;
    else if (givenUp.has(seat)) tricks = null;
    else {
      const solved = solveWithin({ hands: at.held, contract: d.contract, trump: d.trump, trick: at.trick, turn: at.turn, perspective: seat, mustTrump: d.mustTrump });
      if (!solved) givenUp.add(seat);
      tricks = solved === null ? null : at.taken[seat] + solved.tricks;
    }
    values.set(key, tricks);
  }
  const value = (k: number, seat: Seat): number | null => values.get(k * 3 + seat) ?? null;
  const cards: CardValue[] = d.plays.map((p, k) => {
    const before = value(k, p.seat);
    const after = value(k + 1, p.seat);
    const cost = before === null || after === null ? null : goal === 'most' ? before - after : after - before;
    if (cost !== null && cost < 0) throw new Error(`deal ${d.deal}: ${p.card} of seat ${p.seat} is worth more than the seat's best`);
    return { trick: p.trick, seat: p.seat, card: p.card, before, after, cost, overBudget: before === null || after === null };
  });

  // Par: each seat from the first lead (the leader's is its first card's `before`).
  const parTricks = SEATS.map((s) => value(0, s)) as Triple<number | null>;
  const quota = quotas(d.contract, d.forehand);
  const parPoints = SEATS.map((s) => {
    const t = parTricks[s];
    if (t === null) return null;
    // points() scores each seat from its own tricks alone: the other entries do not matter.
    const only: Triple<number> = [t, t, t];
    return points(d.scoring, d.contract, only, quota)[s];
  }) as Triple<number | null>;

  return {
    deal: d.deal,
    forehand: d.forehand,
    contract: d.contract,
    trump: d.trump,
    goal,
    quotas: quota,
    voidedAttempts: d.voidedAttempts,
    cards,
    par: { tricks: parTricks, points: parPoints },
    actual: { tricks: d.tricks, points: d.points },
    maxNodes,
    overBudget,
    nodes,
  };
}
