import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Counter, Histogram } from 'prom-client';
import { EventStore } from '@bismarck/event-store';
import { toDomainEvent } from '@bismarck/match';
import { AnalysisTable, type StoredAnalysis } from '@bismarck/projections';
import { dealsInMatch, isDealRevealed, type MatchState } from '@bismarck/rules';
import { MatchFolds } from '../matches/match-folds.service';
import { parseMatchId } from '../../platform/http/match-id';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { invalidParameter, ProblemException } from '../../platform/problem/problem';
import { analysisConfig } from './analysis.config';
import type { Piscina } from 'piscina';
import { join } from 'node:path';
import { workerPool } from '../../platform/workers/worker-pool';
import type { AnalysisJob, Solved } from './analysis.worker';
import { dealContent, dealToAnalyse, type DealAnalysis, type DealToAnalyse } from './deal-analysis';

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
 * A deal is kept by its content (`dealContent`): the same deal in a fork and in its source is solved
 * once. At most ANALYSIS_QUEUE + ANALYSIS_WORKERS deals are accepted at once, counted from the moment
 * they are (before their log is read), from every address together: one more is 503 ANALYSIS_BUSY.
 */
@Injectable()
export class AnalysisService implements OnApplicationShutdown {
  private readonly logger = new Logger('Analysis');
  private readonly table: AnalysisTable;
  private readonly pool: Piscina;
  /** Deals accepted and not done, by match and deal: each holds a place in the queue's bound. */
  private readonly computing = new Map<string, Promise<StoredAnalysis>>();
  /** Solves under way, by content: a fork's deal asked while its source's is solved waits for that one. */
  private readonly solving = new Map<string, Promise<Solved>>();
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
      help: 'Deals solved by this process (each deal content once: a fork\'s deal answered from its source\'s solve is not counted), by outcome (done, failed).',
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
      // Counted from acceptance, not from the pool's queue: a deal still reading its log holds its place.
      const accepted = this.computing.size;
      if (accepted >= this.config.queue + this.config.workers) {
        throw new ProblemException('ANALYSIS_BUSY', `${accepted} deals are being analysed or wait for it on this server; retry after ${RETRY_AFTER * 2} s.`, {
          retryAfter: RETRY_AFTER * 2,
        });
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
    const content = dealContent(played);
    // The same deal solved before, for another match (a fork's source): named for this one too.
    const shared = await this.table.link(id, deal, content);
    if (shared) return shared;
    let solving = this.solving.get(content);
    if (!solving) {
      solving = this.solve(played, id).finally(() => this.solving.delete(content));
      this.solving.set(content, solving);
    }
    const { analysis, ms } = await solving;
    return this.table.keep(id, deal, content, analysis, this.config.maxNodes, ms);
  }

  /** One solve by a worker, counted. */
  private async solve(played: DealToAnalyse, id: string): Promise<Solved> {
    try {
      const job: AnalysisJob = { deal: played, maxNodes: this.config.maxNodes };
      const solved = (await this.pool.run(job)) as Solved;
      this.computed.inc({ outcome: 'done' });
      this.seconds.observe(solved.ms / 1000);
      return solved;
    } catch (error) {
      this.computed.inc({ outcome: 'failed' });
      this.logger.error(`analysis of deal ${played.deal} of ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
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
