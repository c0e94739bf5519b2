// The analysis worker threads' entry (piscina, workers/worker-pool.ts): solves one deal off the api's
// event loop and answers with the time it took.
import { performance } from 'node:perf_hooks';
import { analyseDeal, type DealAnalysis, type DealToAnalyse } from './deal-analysis';

export interface AnalysisJob {
  readonly deal: DealToAnalyse;
  readonly maxNodes: number;
}

export interface Solved {
  readonly analysis: DealAnalysis;
  /** Time the worker spent on it. */
  readonly ms: number;
}

export default function analyse(job: AnalysisJob): Solved {
  const t0 = performance.now();
  const analysis = analyseDeal(job.deal, job.maxNodes);
  return { analysis, ms: performance.now() - t0 };
}
