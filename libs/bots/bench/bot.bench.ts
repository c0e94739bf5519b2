// The strong bot's bench: the solver on whole deals, the strong bot's time per decision, and its
// strength against greedy in duplicate. Local play through libs/rules (no HTTP). The last line is JSON.
//   npm run bench:bot
//   BENCH_BOT_DEALS=300 BENCH_SOLVER_DEALS=200 BENCH_SEED=1 BENCH_SOLVER_MAX_NODES=500000 BENCH_BUDGET_MS=200
//
// 1. Solver: BENCH_SOLVER_DEALS random deals (16 cards to each seat, 4 aside, a random contract and
//    trump, mustTrump on half), solved from forehand's first lead, value only. A solve that expands more
//    than BENCH_SOLVER_MAX_NODES positions is stopped: `solverOverBudget` counts them and their time
//    (until stopped) enters the percentiles, which are then lower bounds (`solverMsLowerBound`).
// 2. Duplicate: BENCH_BOT_DEALS deals. For each, a match of a rule variant (cycling through modern
//    blind, informed and mustTrump, traditional, quick) is played by three greedy seats up to a random
//    deal; that deal (same deck, same scores and contracts used before it) is then played four times:
//    all greedy, and strong in seat 0, 1, 2 with greedy in the other two. The deal's figure is the
//    mean over the three seats of (strong's points in that seat − greedy's points in that seat in the
//    all-greedy run): the cards, the seat and the match situation cancel out. `strongMinusGreedyPerDeal`
//    is the mean over deals, with a 95% confidence interval (normal, over the deals' figures).
//    `decisionMs*`: every decision of the strong seats (contract, lay-away, card) at the default budget.
import { type Card, type MatchOptions, type Seat, type Triple, mulberry32 } from '@bismarck/rules';
import { SolverBudgetExceeded, solve } from '@bismarck/solver';
import { randomDeal } from '../../solver/bench/deals';
import { type LocalMatch, forkMatch, newLocalMatch, playDeal, shuffledDeck } from '../src/local';
import { type StrategyName, requestOf } from '../src';

const botDeals = Number(process.env.BENCH_BOT_DEALS ?? 300);
const solverDeals = Number(process.env.BENCH_SOLVER_DEALS ?? 200);
const seed = Number(process.env.BENCH_SEED ?? 1);
const maxNodes = Number(process.env.BENCH_SOLVER_MAX_NODES ?? 500_000);
const budgetMs = process.env.BENCH_BUDGET_MS ? Number(process.env.BENCH_BUDGET_MS) : undefined;
const progress = (line: string) => process.stderr.write(`${line}\n`);

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

// ---- 1. the solver on whole deals --------------------------------------------------------------

const solverBench = () => {
  const random = mulberry32(seed);
  const times: number[] = [];
  let over = 0;
  for (let i = 0; i < solverDeals; i++) {
    const deal = randomDeal(random);
    const start = performance.now();
    try {
      solve(deal, { cards: false, maxNodes });
    } catch (e) {
      if (!(e instanceof SolverBudgetExceeded)) throw e;
      over++;
    }
    times.push(performance.now() - start);
    if ((i + 1) % 20 === 0) progress(`solver: ${i + 1}/${solverDeals} deals, ${over} over the node budget`);
  }
  times.sort((a, b) => a - b);
  if (times.length === 0) return { solverMsP50: null, solverMsP99: null, solverOverBudget: 0 };
  return { solverMsP50: round(percentile(times, 50)), solverMsP99: round(percentile(times, 99)), solverOverBudget: over };
};

// ---- 2. the strong bot in duplicate ----------------------------------------------------------------

const VARIANTS: { name: string; options: Partial<MatchOptions> }[] = [
  { name: 'modern', options: {} },
  { name: 'modern informed', options: { contractChoice: 'informed' } },
  { name: 'modern', options: {} },
  { name: 'modern mustTrump', options: { mustTrump: true } },
  { name: 'traditional', options: { schedule: 'traditional' } },
  { name: 'quick', options: { schedule: 'quick' } },
];
const DEALS_IN: Record<string, number> = { modern: 12, traditional: 9, quick: 3 };

/** A match of the deal's variant played by greedy seats up to (not including) a random deal. */
const situation = (d: number): { match: LocalMatch; deck: Card[]; variant: string } => {
  const random = mulberry32(seed * 1_000_003 + d);
  const variant = VARIANTS[d % VARIANTS.length];
  const match = newLocalMatch(variant.options, Math.floor(random() * 3) as Seat);
  const target = 1 + Math.floor(random() * DEALS_IN[variant.options.schedule ?? 'modern']);
  const greedy = { strategies: ['greedy', 'greedy', 'greedy'] as Triple<StrategyName>, random: [random, random, random] as Triple<() => number> };
  for (let k = 1; k < target; k++) playDeal(match, greedy, () => shuffledDeck(random));
  return { match, deck: shuffledDeck(random), variant: variant.name };
};

const duplicate = () => {
  const figures: number[] = [];
  const decisions: number[] = [];
  const byAction: Record<string, number[]> = { contract: [], discard: [], play: [] };
  for (let d = 0; d < botDeals; d++) {
    const { match, deck } = situation(d);
    const run = (strategies: Triple<StrategyName>): Triple<number> =>
      playDeal(
        forkMatch(match),
        {
          strategies,
          random: [0, 1, 2].map((s) => mulberry32(seed * 7919 + d * 3 + s)) as Triple<() => number>,
          budgetMs,
          onStrongDecision: (ms, move) => {
            decisions.push(ms);
            byAction[requestOf(move).route]?.push(ms);
          },
        },
        () => deck.slice(),
      );
    const base = run(['greedy', 'greedy', 'greedy']);
    let sum = 0;
    for (let s = 0; s < 3; s++) {
      const strategies: Triple<StrategyName> = ['greedy', 'greedy', 'greedy'];
      strategies[s] = 'strong';
      sum += run(strategies)[s] - base[s];
    }
    figures.push(sum / 3);
    if ((d + 1) % 10 === 0) {
      const mean = figures.reduce((a, b) => a + b, 0) / figures.length;
      progress(`duplicate: ${d + 1}/${botDeals} deals, strong − greedy ${mean.toFixed(3)} points per deal so far`);
    }
  }
  const n = figures.length;
  const mean = figures.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(figures.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(n - 1, 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  decisions.sort((a, b) => a - b);
  const p = (xs: number[], q: number) => (xs.length ? round(percentile(xs.slice().sort((a, b) => a - b), q)) : null);
  return {
    result: {
      decisionMsP50: round(percentile(decisions, 50)),
      decisionMsP99: round(percentile(decisions, 99)),
      decisionMsMax: round(decisions[decisions.length - 1]),
      decisions: decisions.length,
      deals: n,
      strongMinusGreedyPerDeal: round(mean, 3),
      ci95Low: round(mean - half, 3),
      ci95High: round(mean + half, 3),
    },
    byAction: Object.fromEntries(Object.entries(byAction).map(([k, xs]) => [k, { n: xs.length, p50: p(xs, 50), p99: p(xs, 99) }])),
  };
};

const cpuStart = process.cpuUsage();
const solver = solverBench();
const strong = duplicate();
const cpu = process.cpuUsage(cpuStart);
console.log('bismarck bot bench: the solver on whole deals, then strong against greedy in duplicate');
console.table(strong.byAction);
console.log(
  JSON.stringify({
    ...solver,
    solverDeals,
    solverMaxNodes: maxNodes,
    solverMsLowerBound: solver.solverOverBudget > 0,
    ...strong.result,
    budgetMs: budgetMs ?? 'default',
    seed,
    cpuSeconds: round((cpu.user + cpu.system) / 1e6, 1),
    node: process.version,
  }),
);
