// Solves random deals and reports the time per solve, one core. The last line is JSON.
//   npm run bench:solver     (BENCH_DEALS=200 BENCH_SEED=1 BENCH_MAX_NODES=500000 to change)
//
// A deal: 52 shuffled cards, 16 to each seat, 4 left aside (forehand's lay-away); forehand (seat 0)
// leads the first trick. The contract is drawn among spades, a free trump in H, D or C, notrump and
// pass, so the trump is one of the four suits or none; mustTrump is on for half the deals. Forehand's
// tricks are counted, played for most (fewest in pass).
//   - `solverMs*`: the whole deal from the first lead, its value only (`cards: false`); `nodes*`: the
//     positions those solves expanded (the same on every machine: compare versions by them first).
//   - `endings`: the same deals after random legal play down to 12 and 8 tricks left (a trick may
//     be in progress), solved with the value of every legal card, as a bot or an analysis asks.
// A solve that expands more than BENCH_MAX_NODES positions is stopped (SolverBudgetExceeded) and
// counted as `unsolved`; a percentile that falls among the unsolved is reported as null.
import { type Card, type PlayedCard, type Seat, SUITS, fromCards, legalPlays, mulberry32, parseCard, toCodes, trickWinner } from '@bismarck/rules';
import { type Position, SolverBudgetExceeded, solve } from '../src';
import { randomDeal } from './deals';

const deals = Number(process.env.BENCH_DEALS ?? 200);
const seed = Number(process.env.BENCH_SEED ?? 1);
const maxNodes = Number(process.env.BENCH_MAX_NODES ?? 500_000);

/** The position after random legal cards until `left` cards remain in the hand of the seat to play. */
const playDown = (p: Position, left: number, random: () => number): Position => {
  const hands = p.hands.map((h) => [...h]);
  const trump = p.trump === null ? -1 : SUITS.indexOf(p.trump);
  let trick: PlayedCard[] = [];
  let turn = p.turn;
  const extra = Math.floor(random() * 3); // 0..2 cards of the next trick already played
  while (hands[turn].length > left || (hands[turn].length === left && trick.length < extra)) {
    const legal = toCodes(legalPlays(fromCards(hands[turn].map(parseCard)), trick, trump, p.mustTrump ?? false));
    const card: Card = legal[Math.floor(random() * legal.length)];
    hands[turn] = hands[turn].filter((c) => c !== card);
    trick = [...trick, { seat: turn, card }];
    if (trick.length === 3) {
      turn = trickWinner(trick, trump);
      trick = [];
    } else {
      turn = ((turn + 1) % 3) as Seat;
    }
  }
  return { ...p, hands: hands as [Card[], Card[], Card[]], trick, turn };
};

/** Milliseconds per solve, Infinity for one stopped by the budget; the nodes each expanded go to `nodes`. */
const timeSolves = (positions: Position[], cards: boolean, nodes: number[] = []): number[] =>
  positions.map((position) => {
    const start = process.hrtime.bigint();
    try {
      nodes.push(solve(position, { cards, maxNodes }).nodes);
    } catch (e) {
      if (e instanceof SolverBudgetExceeded) {
        nodes.push(Number.POSITIVE_INFINITY);
        return Number.POSITIVE_INFINITY;
      }
      throw e;
    }
    return Number(process.hrtime.bigint() - start) / 1e6;
  });

const percentile = (sorted: number[], p: number): number | null => {
  const v = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return Number.isFinite(v) ? Number(v.toFixed(2)) : null;
};
const summary = (times: number[]) => {
  const sorted = times.slice().sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), unsolved: times.filter((t) => !Number.isFinite(t)).length };
};

const random = mulberry32(seed);
const whole = Array.from({ length: deals }, () => randomDeal(random));
timeSolves(whole.slice(0, 5).map((p) => playDown(p, 8, mulberry32(seed))), true); // warm-up: let the JIT settle
const cpuStart = process.cpuUsage();
const wholeNodes: number[] = [];
const wall = summary(timeSolves(whole, false, wholeNodes));
const nodes = summary(wholeNodes);
const endings = Object.fromEntries(
  [12, 8].map((left) => [`${left}TricksLeft`, summary(timeSolves(whole.map((p) => playDown(p, left, random)), true))]),
);
const cpu = process.cpuUsage(cpuStart);
const result = {
  deals,
  seed,
  maxNodes,
  solverMsP50: wall.p50,
  solverMsP90: wall.p90,
  solverMsP99: wall.p99,
  unsolved: wall.unsolved,
  nodesP50: nodes.p50,
  nodesP90: nodes.p90,
  nodesP99: nodes.p99,
  endings,
  cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(3)),
  node: process.version,
};
console.log('bismarck solver bench (one core): whole deals from the first lead, then endings with every card valued');
console.table({ wholeDeal: wall, ...endings });
console.log(JSON.stringify(result));
