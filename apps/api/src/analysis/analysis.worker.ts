// One worker thread of the AnalysisPool: solves the deals it is sent, one at a time, off the api's
// event loop. A job is `{ id, deal, maxNodes }`; the answer `{ id, analysis, ms }` or `{ id, error }`.
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { analyseDeal, type DealToAnalyse } from './deal-analysis';

export interface AnalysisJob {
  readonly id: number;
  readonly deal: DealToAnalyse;
  readonly maxNodes: number;
}

const port = parentPort;
if (!port) throw new Error('analysis.worker runs in a worker thread of AnalysisPool');
port.on('message', (job: AnalysisJob) => {
  const t0 = performance.now();
  try {
    const analysis = analyseDeal(job.deal, job.maxNodes);
    port.postMessage({ id: job.id, analysis, ms: performance.now() - t0 });
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
