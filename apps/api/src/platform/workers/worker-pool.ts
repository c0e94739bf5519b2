// Worker threads for the api's CPU-bound work (a deal's analysis, a bot's decision), so that it never
// holds up the event loop that serves requests: a piscina pool per kind of work.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';

export interface WorkerPoolOptions {
  /** The most threads; they start with the first task. */
  readonly threads: number;
  /** A thread with nothing to do for this long ends (ms); the pool starts one again when needed. */
  readonly idleTimeout?: number;
  /**
   * Lowers the threads' OS priority by this much (nice; Linux and macOS, through piscina and its
   * optional @napi-rs/nice; without it, nothing changes): they get a core only when the event loop
   * and the database leave one.
   */
  readonly niceIncrement?: number;
}

/** Where the sources live: run from them (jest), a worker compiles its TypeScript as it loads it. */
const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const SOURCE_WORKER = join(__dirname, 'source-worker.cjs');

/**
 * A pool running the default export of `entry` (a path without its extension): the compiled
 * `entry.js` once built, else `entry.ts` through source-worker.cjs, so that the tests run the same
 * worker code as the built service.
 */
export function workerPool(entry: string, options: WorkerPoolOptions): Piscina {
  const built = existsSync(`${entry}.js`);
  return new Piscina({
    filename: built ? `${entry}.js` : SOURCE_WORKER,
    workerData: built ? undefined : { root: ROOT, entry: `${entry}.ts` },
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: options.idleTimeout ?? 60_000,
    niceIncrement: options.niceIncrement ?? 0,
  });
}
