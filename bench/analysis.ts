// Time of the analysis of one scored deal (apps/api/src/game/analysis/deal-analysis.ts), on one core, as
// the api's worker runs it. The last line is JSON.
//   npm run -s build && flock /tmp/bench.lock node dist/bench/analysis.js
//   (BENCH_DEALS=40 BENCH_SEED=1 BENCH_MAX_NODES=2000000 to change)
// Deals come from random matches of libs/rules' simulator (modern schedule: all four contracts,
// random legal play), seeded decks.
import { performance } from 'node:perf_hooks';
import { mulberry32, playRandomMatch, shuffleDeck, type MatchOptions } from '@bismarck/rules';
import { analyseDeal, dealToAnalyse, type DealToAnalyse } from '../apps/api/src/game/analysis/deal-analysis';

const wanted = Number(process.env.BENCH_DEALS ?? 40);
const seed = Number(process.env.BENCH_SEED ?? 1);
const maxNodes = Number(process.env.BENCH_MAX_NODES ?? 2_000_000);

const deals: DealToAnalyse[] = [];
for (let m = 0; deals.length < wanted; m++) {
  const options: Partial<MatchOptions> = { mustTrump: m % 2 === 1 };
  const { events } = playRandomMatch(options, (m % 3) as 0 | 1 | 2, { random: mulberry32(seed * 1000 + m), deck: (n) => shuffleDeck(`bench-${seed}-${m}`, n) });
  for (let deal = 1; deals.length < wanted; deal++) {
    const d = dealToAnalyse(events, deal);
    if (!d) break;
    deals.push(d);
  }
}

const ms: number[] = [];
const nodes: number[] = [];
let overBudgetDeals = 0;
let overBudgetCards = 0;
for (const d of deals) {
  const t0 = performance.now();
  const a = analyseDeal(d, maxNodes);
  const t = performance.now() - t0;
  ms.push(t);
  nodes.push(a.nodes);
  const over = a.cards.filter((c) => c.overBudget).length;
  if (a.overBudget) overBudgetDeals++;
  overBudgetCards += over;
  console.log(`deal ${d.deal} ${d.contract.padEnd(7)} ${t.toFixed(0).padStart(6)} ms ${String(a.nodes).padStart(10)} nodes, ${over} cards over budget, par ${JSON.stringify(a.par.tricks)}`);
}
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x: number): number => Math.round(x * 10) / 10;
console.log(
  JSON.stringify({
    deals: deals.length,
    maxNodes,
    analysisMsP50: round(pct(ms, 50)),
    analysisMsP90: round(pct(ms, 90)),
    analysisMsMax: round(Math.max(...ms)),
    nodesP50: pct(nodes, 50),
    overBudgetDeals,
    overBudgetCards,
  }),
);
