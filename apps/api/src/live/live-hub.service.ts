import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventStore, type StoredEvent, type Subscription } from '@bismarck/event-store';

export type LiveListener = (events: readonly StoredEvent[]) => void;

/** Something the hub ends when the application shuts down (an open SSE response). */
export interface Closable {
  close(): void;
}

/**
 * One per process: a single subscription to the commit-order feed of the event store, started when
 * the first live stream opens, that hands each match's new events to the listeners of that match.
 *
 * The feed is woken by this process's own appends (also on the embedded database) and, on a real
 * server, by NOTIFY from other api instances; it polls every second as a fallback. A wake-up is only
 * a hint and a delivered event only a shortcut: a listener that sees a version gap reads the log.
 */
@Injectable()
export class LiveHub implements OnModuleDestroy {
  private readonly logger = new Logger('LiveHub');
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly open = new Set<Closable>();
  private subscription: Subscription | undefined;
  private starting: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly store: EventStore) {}

  /**
   * Registers a listener for one match. Resolves once the hub reads the feed: every event committed
   * after that is delivered (events committed before are the caller's to read from the log).
   */
  async listen(matchId: string, listener: LiveListener): Promise<() => void> {
    let set = this.listeners.get(matchId);
    if (!set) this.listeners.set(matchId, (set = new Set()));
    set.add(listener);
    const remove = (): void => {
      const current = this.listeners.get(matchId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(matchId);
    };
    try {
      await this.start();
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  /** Tracks an open stream so that shutting down ends it (an open response would hold the server). */
  track(stream: Closable): () => void {
    this.open.add(stream);
    return () => this.open.delete(stream);
  }

  get openStreams(): number {
    return this.open.size;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const stream of [...this.open]) stream.close();
    await this.subscription?.stop();
  }

  private start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the live hub is shut down'));
    this.starting ??= (async () => {
      const from = await this.store.feedHead();
      this.subscription = this.store.subscribe({
        from,
        batchSize: 500,
        handler: async (events) => this.dispatch(events),
        onError: (err) => this.logger.warn(`live feed: ${err instanceof Error ? err.message : String(err)}`),
      });
    })().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private dispatch(events: readonly StoredEvent[]): void {
    let byStream: Map<string, StoredEvent[]> | undefined;
    for (const event of events) {
      if (!this.listeners.has(event.streamId)) continue;
      byStream ??= new Map();
      const list = byStream.get(event.streamId);
      if (list) list.push(event);
      else byStream.set(event.streamId, [event]);
    }
    if (!byStream) return;
    for (const [streamId, list] of byStream) {
      for (const listener of [...(this.listeners.get(streamId) ?? [])]) {
        try {
          listener(list);
        } catch (err) {
          this.logger.warn(`live listener: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }
  }
}
