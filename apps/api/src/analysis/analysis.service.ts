import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Counter, Histogram } from 'prom-client';
import { EventStore } from '@bismarck/event-store';
import { AnalysisTable, toDomainEvent, type StoredAnalysis } from '@bismarck/projections';
import { dealsInMatch, isDealRevealed, type MatchState } from '@bismarck/rules';
import { MatchFolds } from '../matches/match-folds.service';
import { parseMatchId } from '../matches/match-id';
import { MetricsService } from '../metrics/metrics.service';
import { invalidParameter, ProblemException } from '../problem/problem';
import { analysisConfig } from './analysis.config';
import type { Piscina } from 'piscina';
import { join } from 'node:path';
import { workerPool } from '../workers/worker-pool';
import type { AnalysisJob, Solved } from './analysis.worker';
import { dealToAnalyse, type DealAnalysis } from './deal-analysis';

/** The computed analysis, as kept, with when and how long. */
export type DoneAnalysis = { status: 'done'; matchId: string } & DealAnalysis & { computedAt: string; computeMs: number };
export interface PendingAnalysis {
  status: 'pending';
  matchId: string;
  deal: number;
  retryAfter: number;
}
export type AnalysisAnswer = DoneAnalysis | PendingAnalysis;

/** Seconds a client waits before asking again about a deal still being solved. */
const RETRY_AFTER = 2;

/** The `detail` of a refusal over ANALYSIS_PER_ADDRESS (also the OpenAPI document's example). */
export const tooManyFromAddress = (asked: number, limit: number): string =>
  `${asked} deals asked for from this address are being analysed (at most ${limit} at once); ask for this one once they are done (retry after ${RETRY_AFTER * 2} s).`;

/**
 * The analysis of a scored deal: read from `deal_analyses` when it was computed before; otherwise
 * solved once by the worker pool (concurrent requests for one deal share one computation in this
 * process) and kept. A request waits for it up to ANALYSIS_WAIT_MS, then is answered `pending`.
 */
@Injectable()
export class AnalysisService implements OnApplicationShutdown {
  private readonly logger = new Logger('Analysis');
  private readonly table: AnalysisTable;
  private readonly pool: Piscina;
  private readonly computing = new Map<string, Promise<StoredAnalysis>>();
  /** Deals being computed at the request of each client address (ANALYSIS_PER_ADDRESS). */
  private readonly byAddress = new Map<string, number>();
  private readonly computed: Counter<'outcome'>;
  private readonly seconds: Histogram;

  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
    @Inject(analysisConfig.KEY) private readonly config: ConfigType<typeof analysisConfig>,
    metrics: MetricsService,
  ) {
    this.table = new AnalysisTable(store.queryable);
    // Threads are kept: a deal's analysis takes seconds, starting a thread (the solver loaded) much less.
    this.pool = workerPool(join(__dirname, 'analysis.worker'), { threads: config.workers, idleTimeout: 600_000 });
    this.computed = new Counter({
      name: 'bismarck_deal_analyses_total',
      help: 'Deal analyses computed by this process (each deal once), by outcome (done, failed).',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    this.seconds = new Histogram({
      name: 'bismarck_deal_analysis_seconds',
      help: 'Time a worker spent solving one deal.',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100],
      registers: [metrics.registry],
    });
  }

  /** The analysis of a deal, asked for by a client at `address` (the limits count it). */
  async analysis(matchId: string, deal: number, address: string): Promise<AnalysisAnswer> {
    const id = parseMatchId(matchId);
    // Caught up with the log: another instance may have scored the deal.
    const match = await this.folds.load(id, true);
    if (!match) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
    const deals = dealsOf(match.state);
    if (deal > deals) throw invalidParameter('deal', `deal must be at most ${deals}, the number of deals of this match.`);
    if (!isDealRevealed(match.state, deal)) {
      throw new ProblemException('DEAL_NOT_SCORED', `Deal ${deal} is not scored yet: it can be analysed once it is (its hands are secret until then).`);
    }
    const kept = await this.table.get(id, deal);
    if (kept) return done(kept);

    const key = `${id}:${deal}`;
    let computing = this.computing.get(key);
    if (!computing) {
      if (this.pool.queueSize >= this.config.queue) {
        throw new ProblemException('ANALYSIS_BUSY', `${this.pool.queueSize} deals wait for their analysis on this server; retry after ${RETRY_AFTER * 2} s.`, { retryAfter: RETRY_AFTER * 2 });
      }
      const asked = this.byAddress.get(address) ?? 0;
      if (this.config.perAddress > 0 && asked >= this.config.perAddress) {
        throw new ProblemException('RATE_LIMITED', tooManyFromAddress(asked, this.config.perAddress), { retryAfter: RETRY_AFTER * 2 });
      }
      this.byAddress.set(address, asked + 1);
      computing = this.compute(id, deal).finally(() => {
        this.computing.delete(key);
        const left = (this.byAddress.get(address) ?? 1) - 1;
        if (left > 0) this.byAddress.set(address, left);
        else this.byAddress.delete(address);
      });
      computing.catch(() => undefined); // a failure reaches the requests waiting; none may be left
      this.computing.set(key, computing);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.config.waitMs)));
    try {
      const stored = await Promise.race([computing, late]);
      return stored ? done(stored) : { status: 'pending', matchId: id, deal, retryAfter: RETRY_AFTER };
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }

  private async compute(id: string, deal: number): Promise<StoredAnalysis> {
    const events = (await this.store.readStream(id)).map(toDomainEvent);
    const played = dealToAnalyse(events, deal);
    if (!played) throw new Error(`deal ${deal} of ${id} is scored but its events were not found`);
    try {
      const job: AnalysisJob = { deal: played, maxNodes: this.config.maxNodes };
      const { analysis, ms } = (await this.pool.run(job)) as Solved;
      const stored = await this.table.keep(id, deal, analysis, this.config.maxNodes, ms);
      this.computed.inc({ outcome: 'done' });
      this.seconds.observe(ms / 1000);
      return stored;
    } catch (error) {
      this.computed.inc({ outcome: 'failed' });
      this.logger.error(`analysis of deal ${deal} of ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}

function dealsOf(state: MatchState): number {
  switch (state.status) {
    case 'empty':
      return 0;
    case 'awaitingPlayers':
    case 'abandoned':
      return dealsInMatch(state.options);
    default:
      return state.dealsInMatch;
  }
}

function done(stored: StoredAnalysis): DoneAnalysis {
  return { status: 'done', matchId: stored.matchId, ...(stored.doc as DealAnalysis), computedAt: stored.computedAt, computeMs: stored.computeMs };
}
