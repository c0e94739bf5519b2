// Solves random whole deals from the first lead and reports the time per deal. The last line is JSON.
//   npm run bench:solver            (BENCH_DEALS=300 BENCH_SEED=7 to change)
// A deal: 52 shuffled cards, 16 to each seat, 4 left aside (forehand's lay-away); forehand (seat 0)
// leads the first trick. The contract is drawn among spades, a free trump in H/D/C, notrump and pass,
// so the trump is one of the four suits or none; forehand's tricks are counted, played for most
// (fewest in pass). A solve gives the value of the deal and of each of forehand's 16 cards.
import { type Contract, type Suit, freshDeck, mulberry32 } from '@bismarck/rules';
import { type Position, solve } from '../src';

const deals = Number(process.env.BENCH_DEALS ?? 200);
const seed = Number(process.env.BENCH_SEED ?? 1);

const CONTRACTS: { contract: Contract; trump: Suit | null }[] = [
  { contract: 'spades', trump: 'S' },
  { contract: 'trump', trump: 'H' },
  { contract: 'trump', trump: 'D' },
  { contract: 'trump', trump: 'C' },
  { contract: 'notrump', trump: null },
  { contract: 'pass', trump: null },
];

const randomDeal = (random: () => number): Position => {
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

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const run = (count: number, random: () => number) => {
  const times: number[] = [];
  const nodes: number[] = [];
  for (let i = 0; i < count; i++) {
    const position = randomDeal(random);
    const start = process.hrtime.bigint();
    const solved = solve(position);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    nodes.push(solved.nodes);
  }
  return { times, nodes };
};

run(10, mulberry32(seed + 1000)); // warm-up: let the JIT settle
const cpuStart = process.cpuUsage();
const { times, nodes } = run(deals, mulberry32(seed));
const cpu = process.cpuUsage(cpuStart);
const sorted = times.slice().sort((a, b) => a - b);
const sortedNodes = nodes.slice().sort((a, b) => a - b);
const result = {
  deals,
  seed,
  solverMsP50: Number(percentile(sorted, 50).toFixed(2)),
  solverMsP90: Number(percentile(sorted, 90).toFixed(2)),
  solverMsP99: Number(percentile(sorted, 99).toFixed(2)),
  solverMsMax: Number(sorted[sorted.length - 1].toFixed(2)),
  solverMsMean: Number((times.reduce((a, b) => a + b, 0) / deals).toFixed(2)),
  nodesP50: percentile(sortedNodes, 50),
  nodesP99: percentile(sortedNodes, 99),
  cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(3)),
  node: process.version,
};
console.log('bismarck solver bench (whole deals from the first lead, one core)');
console.log(JSON.stringify(result));
