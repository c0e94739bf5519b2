// The strong bot: perfect-information Monte Carlo (PIMC), as the Skat programs do. For every decision
// it draws deals consistent with what its seat has seen (sampling.ts), values each candidate action in
// every drawn deal with every hand face up, and takes the action with the best mean:
//   - a card, with few tricks left: the double-dummy solver (libs/solver) values every legal card;
//     earlier, or when a solve passes its node budget: a greedy playout after each card (playout.ts);
//   - the lay-away: a few candidate sets of 4 cards, each played out greedily;
//   - the contract: every contract (and trump) allowed, each laid away and played out greedily, scored
//     by the match's quotas and scoring rule; in the modern compendium, less what that contract is
//     worth on an average deal (each has to be played once: choose the one that gains most now).
// Inputs: the seat's view and the public history of the deal (history.ts); never another seat's cards.
import * as rules from '@bismarck/rules';
import type { Contract, MatchOptions, Seat, Suit } from '@bismarck/rules';
import { SolverBudgetExceeded, solve } from '@bismarck/solver';
import type { DealHistory } from './history';
import { type World, greedyLayAway, play, playOut } from './playout';
import { type KnowledgeView, blindKnowledge, knowledgeOf, sampleHands, trumpId } from './sampling';
// Read once: a call through the import looks the function up on every call in the package's exports.
const { SUITS, cardCode, cardOf, parseCard, quotaOf, rankOf, seatPoints, suitOf } = rules;


/** The fields of a seat's view the strong bot reads. */
export interface StrongView extends KnowledgeView {
  readonly contract: string | null;
  readonly options: {
    readonly mustTrump: boolean;
    readonly schedule: string;
    readonly scoring: string;
    readonly contractChoice: string;
  };
  readonly legal:
    | { readonly action: 'chooseContract'; readonly contracts: readonly Contract[]; readonly trumps: readonly Suit[] }
    | { readonly action: 'discard'; readonly count: number }
    | { readonly action: 'play'; readonly cards: readonly string[] }
    | { readonly action: string }
    | null;
}

export interface StrongSettings {
  readonly random: () => number;
  readonly history?: DealHistory;
  /** Stop drawing deals once this many milliseconds are spent (at least one deal is always valued). */
  readonly budgetMs: number;
  /** Deals drawn per decision when the budget allows. */
  readonly samples: number;
  /** Solve each drawn deal (every card valued) once the seat holds this many cards or fewer. */
  readonly solveFrom: number;
  /** The solver's node budget per drawn deal; past it that deal is played out greedily instead. */
  readonly maxNodes: number;
  /** The clock (milliseconds); performance.now by default. */
  readonly now?: () => number;
}

/**
 * Measured with `npm run bench:bot` (docs/bots.md): 128 deals a decision; the solver in the last 5
 * tricks. Against greedy, greedy playouts valued cards as well as the solver did from 8 or 10 tricks
 * left (the solver assumes the other two play perfectly together; greedy does not), at a fraction of
 * the time; 128 deals gained about 0.1 point a deal over 24.
 */
export const STRONG_DEFAULTS = { budgetMs: 200, samples: 128, solveFrom: 5, maxNodes: 100_000 } as const;

/** What the strong bot does now, or null when its view says it has nothing to do. */
export type StrongChoice =
  | { kind: 'contract'; contract: Contract; trump?: Suit }
  | { kind: 'discard'; cards: string[] }
  | { kind: 'play'; card: string };

export const strongChoice = (view: StrongView, settings: StrongSettings): StrongChoice | null => {
  const legal = view.legal;
  if (!legal) return null;
  if (legal.action === 'play' && 'cards' in legal) return { kind: 'play', card: chooseCard(view, legal.cards, settings) };
  if (legal.action === 'discard' && 'count' in legal) return { kind: 'discard', cards: chooseLayAway(view, legal.count, settings) };
  if (legal.action === 'chooseContract' && 'contracts' in legal) return { kind: 'contract', ...chooseContract(view, legal.contracts, legal.trumps, settings) };
  return null;
};

/** Draws and values deals until `samples` are done or the time budget is spent (after the first). */
const sampling = (settings: StrongSettings, each: (i: number) => void): void => {
  const now = settings.now ?? (() => performance.now());
  const start = now();
  for (let i = 0; i < settings.samples; i++) {
    if (i > 0 && now() - start >= settings.budgetMs) break;
    each(i);
  }
};

const worldOf = (hands: Int32Array, view: StrongView, leader: number, trick: number[]): World => ({
  hands,
  trump: view.contract === 'pass' || view.contract === 'notrump' ? -1 : trumpId(view.trump),
  pass: view.contract === 'pass',
  mustTrump: view.options.mustTrump,
  trick,
  leader,
  taken: [0, 0, 0],
});

/** The best of `scores` (higher is better); ties go to the lowest card, so high cards are kept. */
const bestCard = (cards: readonly string[], scores: readonly number[]): string => {
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const d = scores[i] - scores[best];
    if (d > 1e-9 || (d > -1e-9 && rankOf(parseCard(cards[i])) < rankOf(parseCard(cards[best])))) best = i;
  }
  return cards[best];
};

const codesOf = (hands: Int32Array, seat: number): string[] => {
  const out: string[] = [];
  for (let s = 0; s < 4; s++) for (let r = 12; r >= 0; r--) if (hands[seat * 4 + s] & (1 << r)) out.push(cardCode(cardOf(s, r)));
  return out;
};

// ---- card play ---------------------------------------------------------------------------------

const chooseCard = (view: StrongView, legal: readonly string[], settings: StrongSettings): string => {
  if (legal.length === 1) return legal[0];
  const me = view.seat;
  const pass = view.contract === 'pass';
  const sign = pass ? -1 : 1;
  const knowledge = knowledgeOf(view, settings.history);
  const trick = view.trick.map((p) => parseCard(p.card));
  const leader = view.trick.length > 0 ? view.trick[0].seat : me;
  const ids = legal.map(parseCard);
  const scores = new Array<number>(legal.length).fill(0);
  const exact = view.hand.length <= settings.solveFrom;
  sampling(settings, () => {
    const hands = sampleHands(knowledge, settings.random);
    if (exact) {
      try {
        const solved = solve(
          {
            hands: [codesOf(hands, 0), codesOf(hands, 1), codesOf(hands, 2)],
            contract: view.contract as Contract,
            trump: pass || view.contract === 'notrump' ? null : (view.trump as Suit),
            trick: view.trick.map((p) => ({ seat: p.seat as 0 | 1 | 2, card: p.card })),
            turn: me as 0 | 1 | 2,
            perspective: me as 0 | 1 | 2,
            mustTrump: view.options.mustTrump,
          },
          { maxNodes: settings.maxNodes },
        );
        const value = new Map(solved.cards.map((c) => [c.card, c.tricks]));
        legal.forEach((card, i) => (scores[i] += sign * value.get(card)!));
        return;
      } catch (e) {
        if (!(e instanceof SolverBudgetExceeded)) throw e;
      }
    }
    ids.forEach((card, i) => {
      const world = worldOf(hands.slice(), view, leader, trick.slice());
      play(world, card);
      scores[i] += sign * playOut(world)[me];
    });
  });
  return bestCard(legal, scores);
};

// ---- the lay-away ------------------------------------------------------------------------------

const cardsOfMasks = (masks: ArrayLike<number>, offset = 0): number[] => {
  const out: number[] = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) if (masks[offset + s] & (1 << r)) out.push(cardOf(s, r));
  return out;
};

/**
 * Sets of `count` cards worth trying: greedy's; in a take-tricks contract the lowest side cards and
 * every way to void one or two short side suits (filled up with the lowest side cards); in pass the
 * highest cards and the same voids filled up with the highest.
 */
export const layAwayCandidates = (hand: readonly number[], trump: number, pass: boolean, count: number): number[][] => {
  const masks = [0, 0, 0, 0];
  for (const c of hand) masks[suitOf(c)] |= 1 << rankOf(c);
  const length = (s: number) => hand.filter((c) => suitOf(c) === s).length;
  const candidates: number[][] = [greedyLayAway(masks, trump, pass, count)];
  // Cards in the order they are given up to fill a set: lowest side cards (take), highest (pass).
  const fillOrder = hand
    .slice()
    .sort((a, b) => (pass ? rankOf(b) - rankOf(a) : (suitOf(a) === trump ? 1 : 0) - (suitOf(b) === trump ? 1 : 0) || rankOf(a) - rankOf(b)) || a - b);
  const fill = (base: number[]) => {
    const set = base.slice();
    for (const c of fillOrder) if (set.length < count && !set.includes(c)) set.push(c);
    return set;
  };
  candidates.push(fill([]));
  const sides = [0, 1, 2, 3].filter((s) => s !== trump && length(s) > 0);
  for (const s of sides) if (length(s) <= count) candidates.push(fill(hand.filter((c) => suitOf(c) === s)));
  for (const s of sides)
    for (const t of sides) if (s < t && length(s) + length(t) <= count) candidates.push(fill(hand.filter((c) => suitOf(c) === s || suitOf(c) === t)));
  if (!pass) {
    // Keep the side aces: lay away the lowest cards but no ace.
    candidates.push(fill(fillOrder.filter((c) => rankOf(c) !== 12).slice(0, count)));
  } else {
    // Shed the high cards of the longest suit: long suits are where a pass hand is forced to win.
    const longest = [0, 1, 2, 3].sort((a, b) => length(b) - length(a))[0];
    candidates.push(fill(hand.filter((c) => suitOf(c) === longest).sort((a, b) => rankOf(b) - rankOf(a)).slice(0, count)));
  }
  const seen = new Set<string>();
  return candidates.filter((set) => {
    const key = set.slice().sort((a, b) => a - b).join(',');
    if (set.length !== count || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

const chooseLayAway = (view: StrongView, count: number, settings: StrongSettings): string[] => {
  const me = view.seat;
  const pass = view.contract === 'pass';
  const sign = pass ? -1 : 1;
  const hand = view.hand.map(parseCard);
  const trump = pass || view.contract === 'notrump' ? -1 : trumpId(view.trump);
  const candidates = layAwayCandidates(hand, trump, pass, count);
  const scores = new Array<number>(candidates.length).fill(0);
  if (candidates.length > 1) {
    const knowledge = knowledgeOf(view, settings.history);
    sampling(settings, () => {
      const hands = sampleHands(knowledge, settings.random);
      candidates.forEach((set, i) => {
        const world = worldOf(hands.slice(), view, me, []);
        for (const c of set) world.hands[me * 4 + suitOf(c)] &= ~(1 << rankOf(c));
        scores[i] += sign * playOut(world)[me];
      });
    });
  }
  let best = 0;
  for (let i = 1; i < candidates.length; i++) if (scores[i] > scores[best] + 1e-9) best = i;
  return candidates[best].map(cardCode);
};

// ---- the contract ------------------------------------------------------------------------------

/** Forehand's points for `tricks` under the match's scoring: libs/rules' points rule, with forehand's quota. */
const forehandPoints = (contract: Contract, tricks: number, scoring: string, forehand: Seat): number =>
  seatPoints(scoring as MatchOptions['scoring'], contract, tricks, quotaOf(contract, forehand, forehand));

/**
 * What each contract is worth to forehand on an average deal, as this bot values it (the mean of its
 * own estimate over random deals; the trump contract with its best suit): measured by
 * `libs/bots/bench/priors.ts`, per contract choice and scoring. The compendium makes forehand play
 * every contract once, so choosing one now gives up its average value later.
 */
export const CONTRACT_PRIORS: Record<string, Record<string, Record<Contract, number>>> = {
  // PRIORS_DEALS=1000 PRIORS_SEED=7, STRONG_DEFAULTS.samples deals drawn per estimate.
  blind: {
    zeroSum: { spades: -1.57, trump: -0.77, notrump: -1.76, pass: 0.25 },
    overOnly: { spades: 0.37, trump: 0.61, notrump: 0.31, pass: 1.21 },
  },
  informed: {
    zeroSum: { spades: -1.62, trump: 0.5, notrump: -1.8, pass: 0.26 },
    overOnly: { spades: 0.35, trump: 1.07, notrump: 0.29, pass: 1.18 },
  },
};

/** The mean points forehand makes with each candidate (contract, trump) over the drawn deals. */
export const contractValues = (
  view: StrongView,
  contracts: readonly Contract[],
  trumps: readonly Suit[],
  settings: StrongSettings,
): { contract: Contract; trump?: Suit; value: number }[] => {
  const me = view.seat;
  const candidates: { contract: Contract; trump?: Suit; value: number }[] = [];
  for (const contract of contracts) {
    if (contract === 'trump') for (const trump of trumps) candidates.push({ contract, trump, value: 0 });
    else candidates.push({ contract, value: 0 });
  }
  const table = view.tableCards.map(parseCard);
  const blind = view.hand.length === 0;
  const knowledge = blind ? blindKnowledge(view) : informedKnowledge(view);
  let drawn = 0;
  sampling(settings, () => {
    const hands = sampleHands(knowledge, settings.random);
    for (const c of table) hands[me * 4 + suitOf(c)] |= 1 << rankOf(c);
    drawn++;
    for (const candidate of candidates) {
      const trump = candidate.contract === 'spades' ? 0 : candidate.trump ? SUITS.indexOf(candidate.trump) : -1;
      const pass = candidate.contract === 'pass';
      const world: World = { hands: hands.slice(), trump, pass, mustTrump: view.options.mustTrump, trick: [], leader: me, taken: [0, 0, 0] };
      for (const c of greedyLayAway(world.hands.subarray(me * 4, me * 4 + 4), trump, pass)) world.hands[me * 4 + suitOf(c)] &= ~(1 << rankOf(c));
      candidate.value += forehandPoints(candidate.contract, playOut(world)[me], view.options.scoring, me as Seat);
    }
  });
  for (const candidate of candidates) candidate.value /= Math.max(drawn, 1);
  return candidates;
};

/** Forehand choosing with its hand dealt (informed): the other two hold the 32 cards it cannot see. */
const informedKnowledge = (view: StrongView) => {
  const seen = new Set([...view.hand, ...view.tableCards].map(parseCard));
  const known = new Int32Array(12);
  for (const code of view.hand) {
    const c = parseCard(code);
    known[view.seat * 4 + suitOf(c)] |= 1 << rankOf(c);
  }
  const unknown: number[] = [];
  for (let c = 0; c < 52; c++) if (!seen.has(c)) unknown.push(c);
  const capacity: [number, number, number, number] = [16, 16, 16, 0];
  capacity[view.seat] = 0;
  const others = 7 & ~(1 << view.seat);
  return { unknown, allowed: unknown.map(() => others), capacity, known, voids: [0, 0, 0] as [number, number, number], gone: [] };
};

const chooseContract = (
  view: StrongView,
  contracts: readonly Contract[],
  trumps: readonly Suit[],
  settings: StrongSettings,
): { contract: Contract; trump?: Suit } => {
  if (contracts.length === 1 && (contracts[0] !== 'trump' || trumps.length <= 1))
    return contracts[0] === 'trump' ? { contract: 'trump', trump: trumps[0] } : { contract: contracts[0] };
  const values = contractValues(view, contracts, trumps, settings);
  const compendium = view.options.schedule === 'modern' && contracts.length > 1;
  const priors = CONTRACT_PRIORS[view.hand.length === 0 ? 'blind' : 'informed'][view.options.scoring === 'overOnly' ? 'overOnly' : 'zeroSum'];
  let best = values[0];
  let bestScore = -Infinity;
  for (const v of values) {
    const score = v.value - (compendium ? priors[v.contract] : 0);
    if (score > bestScore + 1e-9) {
      best = v;
      bestScore = score;
    }
  }
  return best.trump ? { contract: best.contract, trump: best.trump } : { contract: best.contract };
};

