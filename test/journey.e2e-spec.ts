import { formatReport, runJourneys } from './support/journey';

// Property-based journeys through the HTTP API (test/support/journey.ts): fast-check generates whole
// journeys (lobby tables and seeds, options, cuts, retries, a restart, a second api instance,
// unfinished matches, bot seats, forks of finished matches, turn clocks with absences and returns, live
// streams following every match) and after each one checks every
// promise for every match. Bounded in time: the journeys that do not fit are skipped (the report says how
// many ran). `npm run test:chaos` runs more.
//
// JOURNEY_SEED and JOURNEY_PATH replay a reported counterexample (the same plan; an unseeded match's
// decks are the server's own draw each time); JOURNEY_RUNS and JOURNEY_TIME_MS (milliseconds) run
// more of them; JOURNEY_VERBOSE=1 prints a line per journey and the report.
const RUNS = Number(process.env.JOURNEY_RUNS ?? 12);
const TIME_LIMIT_MS = Number(process.env.JOURNEY_TIME_MS ?? 70_000);

describe('user journeys where features meet', () => {
  it('keep every promise: audit, export, rebuild, list, no leaks, gapless versions, scorecard, live streams, notation, analysis, turn clocks', async () => {
    const report = await runJourneys({
      numRuns: process.env.JOURNEY_PATH ? 1 : RUNS,
      seed: process.env.JOURNEY_SEED ? Number(process.env.JOURNEY_SEED) : undefined,
      path: process.env.JOURNEY_PATH,
      timeLimitMs: TIME_LIMIT_MS,
      log: process.env.JOURNEY_VERBOSE ? (line) => process.stdout.write(`${line}\n`) : undefined,
    });
    const text = formatReport(report);
    if (process.env.JOURNEY_VERBOSE) process.stdout.write(`${text}\n`);
    if (!report.ok) throw new Error(text);
    expect(report.counts.journeys).toBeGreaterThan(0);
  }, TIME_LIMIT_MS + 120_000);
});
