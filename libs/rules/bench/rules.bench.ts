// Plays random complete matches in-process (decide + evolve for every command, a uniformly random
// legal action each time, decks from shuffleDeck) and reports the rate. The last line is JSON.
//   npm run bench:rules            (BENCH_SECONDS=5 BENCH_SCHEDULE=traditional to change)
import { shuffleDeck } from '../src/shuffle';
import { mulberry32, playRandomMatch } from '../src/simulate';
import type { MatchOptions, Seat } from '../src/types';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const schedule = (process.env.BENCH_SCHEDULE ?? 'modern') as MatchOptions['schedule'];
const options: Partial<MatchOptions> = { schedule };

const run = (budgetMs: number) => {
  const random = mulberry32(42);
  let matches = 0;
  let decisions = 0;
  let events = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(budgetMs * 1e6));
  while (process.hrtime.bigint() < deadline) {
    const seed = `bench-${matches}`;
    const played = playRandomMatch(options, (matches % 3) as Seat, { random, deck: (n) => shuffleDeck(seed, n + 1) });
    if (played.state.status !== 'finished') throw new Error('a random match did not finish');
    matches++;
    decisions += played.decisions;
    events += played.events.length;
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpuStart);
  const cpu = (used.user + used.system) / 1e6;
  return { matches, decisions, events, elapsed, cpu };
};

run(Math.min(1000, seconds * 300)); // warm-up: let the JIT settle
const r = run(seconds * 1000);
const result = {
  schedule,
  seconds: Number(r.elapsed.toFixed(3)),
  matches: r.matches,
  decisions: r.decisions,
  events: r.events,
  matchesPerSecond: Math.round(r.matches / r.elapsed),
  decisionsPerSecond: Math.round(r.decisions / r.elapsed),
  eventsPerSecond: Math.round(r.events / r.elapsed),
  microsecondsPerDecision: Number(((r.elapsed * 1e6) / r.decisions).toFixed(3)),
  // CPU seconds of this process (user + system): what the rate would be on an otherwise idle core
  cpuSeconds: Number(r.cpu.toFixed(3)),
  matchesPerCpuSecond: Math.round(r.matches / r.cpu),
  decisionsPerCpuSecond: Math.round(r.decisions / r.cpu),
  node: process.version,
};
console.log('bismarck rules bench (random legal play, one core)');
console.table({
  matches: { value: result.matches, perSecond: result.matchesPerSecond, perCpuSecond: result.matchesPerCpuSecond },
  decisions: { value: result.decisions, perSecond: result.decisionsPerSecond, perCpuSecond: result.decisionsPerCpuSecond },
  events: { value: result.events, perSecond: result.eventsPerSecond, perCpuSecond: Math.round(result.events / r.cpu) },
});
console.log(JSON.stringify(result));
