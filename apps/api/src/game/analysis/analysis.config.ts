import { registerAs } from '@nestjs/config';
import { envInteger } from '../../platform/config/env';

export interface AnalysisConfig {
  /** The most positions one solve may expand; a position over it is left unvalued (null). */
  maxNodes: number;
  /** Worker threads that solve deals, per api process. */
  workers: number;
  /** How long a request for a deal not yet analysed waits for it before answering 202. */
  waitMs: number;
  /** Deals that may wait for a worker, per process: with `workers`, the most accepted at once (counted from acceptance, before the log is read); one more is refused with 503 ANALYSIS_BUSY. */
  queue: number;
  /** Deals one client address may have computing at once, per process; one more is refused with 429 RATE_LIMITED. */
  perAddress: number;
}

/** The analysis of scored deals (docs/clients.md, "Analysis of a scored deal"), validated at start-up. */
export const analysisConfig = registerAs(
  'analysis',
  (): AnalysisConfig => ({
    // About 1 s of one core per solve here (docs/performance.md, "Analysis of a scored deal").
    maxNodes: envInteger('ANALYSIS_MAX_NODES', 2_000_000, 1_000, 1_000_000_000),
    workers: envInteger('ANALYSIS_WORKERS', 1, 1, 64),
    waitMs: envInteger('ANALYSIS_WAIT_MS', 2_000, 0, 60_000),
    queue: envInteger('ANALYSIS_QUEUE', 64, 1, 100_000),
    // A deal takes seconds of a worker: one client asking for many new deals would hold the queue.
    perAddress: envInteger('ANALYSIS_PER_ADDRESS', 4, 0, 100_000),
  }),
);
