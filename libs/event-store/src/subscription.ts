import { loadCheckpoint, saveCheckpoint } from './checkpoints';
import type { Checkpoint, Queryable, StoredEvent } from './types';

/**
 * What a subscription needs of its store (EventStore is one): the feed, wake-ups, and a connection
 * for its checkpoint. Declared here so that the store depends on the subscription and not back.
 */
export interface SubscriptionSource {
  readonly wakeups: { add(listener: () => void): Promise<() => void> };
  readonly queryable: Queryable;
  readAll(opts: { after: Checkpoint; limit?: number }): Promise<StoredEvent[]>;
}

export interface SubscribeOptions {
  /** Names the stored checkpoint (table subscription_checkpoints). */
  readonly name?: string;
  /** Where to start. Default: the stored checkpoint of `name` (START if none), else START. */
  readonly from?: Checkpoint;
  /**
   * With a name: 'auto' (default) stores the checkpoint after each handled batch (at-least-once);
   * 'manual' leaves it to the handler, which calls saveCheckpoint in its own transaction
   * together with its writes (effectively once).
   */
  readonly checkpoints?: 'auto' | 'manual';
  readonly batchSize?: number;
  /** Fallback poll when no wake-up arrives. Default 1000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * Default true: each append's wake-up reads the feed at once. False: it polls only (and on wake());
   * for a reader that may lag a moment, a read per poll rather than per append under load.
   */
  readonly wakeups?: boolean;
  /** Receives a batch in commit order and the checkpoint of its last event. A throw retries the batch. */
  readonly handler: (events: StoredEvent[], checkpoint: Checkpoint) => Promise<void>;
  readonly onError?: (err: unknown) => void;
}

/** A running catch-up subscription over the commit-order feed. */
export class Subscription {
  private stopped = false;
  private dirty = true;
  private wakeSleeper: (() => void) | undefined;
  private position: Checkpoint | undefined;
  private unregister: (() => void) | undefined;
  private readonly idleWaiters: (() => void)[] = [];
  /** Settles when the loop has ended after stop(). */
  readonly done: Promise<void>;

  constructor(
    private readonly store: SubscriptionSource,
    private readonly options: SubscribeOptions,
  ) {
    this.done = this.run();
  }

  /** The checkpoint of the last batch handled (undefined before the start position is known). */
  get checkpoint(): Checkpoint | undefined {
    return this.position;
  }

  /** Reads now instead of waiting for the poll. */
  wake(): void {
    this.dirty = true;
    this.wakeSleeper?.();
  }

  /** Resolves the next time the subscription has read everything visible and handled it. */
  caughtUp(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSleeper?.();
    await this.done;
  }

  private async run(): Promise<void> {
    const o = this.options;
    const batchSize = o.batchSize ?? 100;
    const poll = o.pollIntervalMs ?? 1000;
    const onError = o.onError ?? ((err: unknown) => console.error('event-store subscription', o.name ?? '', err));
    const autoSave = o.name !== undefined && (o.checkpoints ?? 'auto') === 'auto';
    try {
      if (o.wakeups ?? true) this.unregister = await this.store.wakeups.add(() => this.wake());
      while (!this.stopped && !this.position) {
        try {
          this.position = o.from ?? (o.name ? await loadCheckpoint(this.store.queryable, o.name) : undefined) ?? {
            txId: '0',
            position: '0',
          };
        } catch (err) {
          onError(err);
          await this.sleep(poll);
        }
      }
      while (!this.stopped) {
        this.dirty = false;
        let count = 0;
        try {
          const events = await this.store.readAll({ after: this.position!, limit: batchSize });
          count = events.length;
          if (count > 0) {
            const last = events[count - 1];
            const checkpoint: Checkpoint = { txId: last.txId, position: last.position };
            await o.handler(events, checkpoint);
            if (autoSave) await saveCheckpoint(this.store.queryable, o.name!, checkpoint);
            this.position = checkpoint;
          }
        } catch (err) {
          onError(err);
          if (!this.stopped) await this.sleep(poll);
          continue;
        }
        if (count === batchSize || this.dirty) continue;
        for (const resolve of this.idleWaiters.splice(0)) resolve();
        if (!this.stopped) await this.sleep(poll);
      }
    } finally {
      this.unregister?.();
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.dirty || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeSleeper === done) this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}
