import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DealAnalysis, DealToAnalyse } from './deal-analysis';
import type { AnalysisJob } from './analysis.worker';

export interface Solved {
  readonly analysis: DealAnalysis;
  /** Time the worker spent on it. */
  readonly ms: number;
}

interface Pending {
  readonly job: AnalysisJob;
  readonly resolve: (solved: Solved) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  busy: Pending | null;
}

/**
 * A fixed number of worker threads that solve deals (analysis.worker.ts), started on the first job and
 * kept; jobs wait in order for a free one. The solver is synchronous and slow on whole deals, so it
 * never runs on the api's event loop. A worker that dies fails its job and is replaced on the next.
 */
export class AnalysisPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {}

  /** Jobs not yet started. */
  get waiting(): number {
    return this.queue.length;
  }

  run(deal: DealToAnalyse, maxNodes: number): Promise<Solved> {
    if (this.closed) return Promise.reject(new Error('the analysis pool is closed'));
    return new Promise<Solved>((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, deal, maxNodes }, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; jobs waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the analysis pool is closed');
    for (const p of this.queue.splice(0)) p.reject(error);
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        slot.busy?.reject(error);
        return slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.busy === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const next = this.queue.shift()!;
      slot.busy = next;
      slot.worker.postMessage(next.job);
    }
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, busy: null };
    worker.on('message', (answer: { id: number; analysis?: DealAnalysis; ms?: number; error?: string }) => {
      const done = slot.busy;
      if (!done || done.job.id !== answer.id) return;
      slot.busy = null;
      if (answer.error !== undefined || !answer.analysis) done.reject(new Error(`analysis of deal ${done.job.deal.deal} failed: ${answer.error}`));
      else done.resolve({ analysis: answer.analysis, ms: answer.ms ?? 0 });
      this.dispatch();
    });
    const lost = (error: Error): void => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      slot.busy?.reject(error);
      slot.busy = null;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`an analysis worker stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

/**
 * The compiled worker beside this file; run from the TypeScript sources (jest), a small loader
 * compiles the worker's sources with SWC as it requires them (@swc/core, a dev dependency).
 */
function startWorker(): Worker {
  if (__filename.endsWith('.js')) return new Worker(join(__dirname, 'analysis.worker.js'));
  return new Worker(TS_LOADER, { eval: true, workerData: { root: join(__dirname, '..', '..', '..', '..'), entry: join(__dirname, 'analysis.worker.ts') } });
}

const TS_LOADER = `
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { root, entry } = require('node:worker_threads').workerData;
const { transformSync } = Module.createRequire(join(root, 'package.json'))('@swc/core');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@bismarck\\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? join(root, 'libs', lib[1], 'src', 'index.ts') : request, ...rest);
};
Module._extensions['.ts'] = (module, filename) => {
  const options = { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'commonjs' } };
  module._compile(transformSync(readFileSync(filename, 'utf8'), options).code, filename);
};
require(entry);
`;
