// The ratings projector (issue 31 item 4). Decisions:
// - What is rated: a finished match, not seeded, not a fork, every seat a registered player or a bot
//   (libs/ratings isRated). OpenSkill (Plackett–Luce) on the final totals, equal totals sharing a rank.
// - Bot identities: each bot kind is one rated identity, `bot:<strategy>` (`bot:strong`, `bot:greedy`,
//   `bot:random`), listed as "Strong bot" etc.
// - Commit order: matches are applied in the commit order of their MatchFinished (the feed's order,
//   (tx_id, position)), never by position or time, so the rebuild's from-scratch fold agrees bit for bit.
// - Single writer: several api instances share one database and each runs this projector. A batch is
//   applied in one transaction that first takes pg_advisory_xact_lock(RATINGS_LOCK), then re-reads
//   the stored checkpoint `ratings`: if another instance (or the rebuild's swap) moved it since this
//   instance prepared the batch, the batch is prepared again from the stored checkpoint; if it is at
//   or past the batch, nothing is applied. Ratings and checkpoint commit together, so a match is
//   applied exactly once, and a restart goes on from the checkpoint.
// - Cheap while nothing is rated: the feed is polled every POLL_MS (not woken by each append), and a
//   batch without a rated match writes nothing; the checkpoint is then saved every SAVE_EVERY_MS only.
// - The log is read outside that transaction (the embedded PGlite has one connection, which the
//   transaction holds); only the ratings and the checkpoint are read inside it.
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore, loadCheckpoint, retrying, saveCheckpoint, type Checkpoint, type RetryPolicy, type StoredEvent, type Subscription } from '@bismarck/event-store';
import { foldOnto, toDomainEvent, UNBORN } from '@bismarck/match';
import { isLaterThan, RATINGS_CHECKPOINT, RATINGS_LOCK, ratedMatchOf, readRatings, writeRatings } from '@bismarck/projections';
import { applyInOrder, type RatedMatch } from '@bismarck/ratings';
import { MatchCache } from '../../platform/cache/match-cache';
import { CommitFeed } from '../../platform/database/commit-feed';

const BATCH = 200;
/** The feed is read this often (not on every append's wake-up): ratings follow the log a moment behind. */
const POLL_MS = 500;
/** A batch without a rated match writes nothing, but the checkpoint is saved at least this often (a restart re-reads less). */
const SAVE_EVERY_MS = 5_000;
/** Another writer (an instance, the rebuild's swap) moved the checkpoint while a batch was prepared. */
class CheckpointMoved extends Error {}

/** A batch is prepared again from the stored checkpoint when it moved meanwhile, 5 times at most. */
const CHECKPOINT_MOVED: RetryPolicy = {
  attempts: 5,
  retries: (error) => error instanceof CheckpointMoved,
  exhausted: () => new Error('the ratings checkpoint kept moving: the batch is retried'),
};

@Injectable()
export class RatingsProjector implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RatingsProjector');
  private subscription: Subscription | undefined;
  /**
   * The stored checkpoint as this instance last saved it; every batch handed over since then held no
   * rated match, so the rated matches after it are those of the batch in hand.
   */
  private anchor: Checkpoint | undefined;
  private saveDue = 0;
  /** Matches this process finished, rated from its writer's fold: not read and folded from the log again. */
  private readonly finishedHere = new MatchCache<{ version: number; rated: RatedMatch | null }>(10_000);
  private unfollow: (() => void) | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly db: DataSource,
    private readonly commits: CommitFeed,
  ) {}

  onApplicationBootstrap(): void {
    this.unfollow = this.commits.follow(({ matchId, folded }) => {
      if (folded.state.status === 'finished' && folded.state.rematch === null) this.finishedHere.set(matchId, { version: folded.version, rated: ratedMatchOf(folded.state) });
    });
    this.subscription = this.store.subscribe({
      name: RATINGS_CHECKPOINT,
      checkpoints: 'manual',
      batchSize: BATCH,
      // Each command's wake-up made a read and a transaction of seven statements per append under load.
      wakeups: false,
      pollIntervalMs: POLL_MS,
      handler: (events, checkpoint) => this.handle(events, checkpoint),
      onError: (err) => this.logger.warn(`ratings: ${err instanceof Error ? err.message : String(err)}`),
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.unfollow?.();
    await this.subscription?.stop();
  }

  /** Resolves once everything committed so far is rated (tests, and whoever must read its own result). */
  async caughtUp(): Promise<void> {
    await this.subscription?.caughtUp();
  }

  private async handle(batch: StoredEvent[], checkpoint: Checkpoint): Promise<void> {
    const inBatch = await this.ratedMatches(batch);
    // Nothing to rate (most batches): no statement, until the checkpoint is due to be saved.
    if (inBatch.length === 0 && this.anchor !== undefined && Date.now() < this.saveDue) return;
    await this.apply(batch, inBatch, checkpoint);
    this.anchor = checkpoint;
    this.saveDue = Date.now() + SAVE_EVERY_MS;
  }

  private async apply(batch: StoredEvent[], inBatch: RatedMatch[], checkpoint: Checkpoint): Promise<void> {
    await retrying(CHECKPOINT_MOVED, async () => {
      const stored = await loadCheckpoint(this.store.queryable, RATINGS_CHECKPOINT);
      if (!isLaterThan(checkpoint, stored)) return; // applied already (another instance, or before a restart)
      // Usually the stored checkpoint is this instance's anchor: the rated matches since are the batch's.
      const rated = this.anchor && same(stored, this.anchor) ? inBatch : await this.ratedMatches(await this.between(stored, checkpoint));
      await this.db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [RATINGS_LOCK]);
        if (!same(await loadCheckpoint(tx, RATINGS_CHECKPOINT), stored)) throw new CheckpointMoved();
        const current = await readRatings(tx, rated.flatMap((m) => m.seats));
        await writeRatings(tx, applyInOrder(rated, current));
        await saveCheckpoint(tx, RATINGS_CHECKPOINT, checkpoint);
      });
    });
  }

  /** The feed's events after `from` up to `to`, in commit order. */
  private async between(from: Checkpoint, to: Checkpoint): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for (let after = from; ; ) {
      const page = await this.store.readAll({ after, limit: BATCH });
      for (const e of page) {
        if (isLaterThan(at(e), to)) return out;
        out.push(e);
      }
      if (page.length < BATCH) return out;
      after = at(page[page.length - 1]);
    }
  }

  /**
   * The rated matches among the MatchFinished events, in their (commit) order: as this process's writer
   * folded them, or (finished by another instance, or before a restart) folded from the log.
   */
  private async ratedMatches(events: readonly StoredEvent[]): Promise<RatedMatch[]> {
    const out: RatedMatch[] = [];
    for (const e of events) {
      if (e.type !== 'MatchFinished') continue;
      const match = await this.rated(e.streamId, e.version);
      if (match) out.push(match);
    }
    return out;
  }

  private async rated(matchId: string, finishedAt: number): Promise<RatedMatch | null> {
    const known = this.finishedHere.get(matchId);
    if (known?.version === finishedAt) return known.rated;
    const log = await this.store.readStream(matchId, { limit: finishedAt });
    return ratedMatchOf(foldOnto(UNBORN, log.map(toDomainEvent)).state);
  }
}

const at = (e: StoredEvent): Checkpoint => ({ txId: e.txId, position: e.position });
const same = (a: Checkpoint, b: Checkpoint): boolean => !isLaterThan(a, b) && !isLaterThan(b, a);
