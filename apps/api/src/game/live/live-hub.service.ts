import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventStore, type StoredEvent, type Subscription } from '@bismarck/event-store';

export type LiveListener = (events: readonly StoredEvent[]) => void;

/** How long the feed keeps running after the last listener left (streams reconnect, matches follow). */
export const FEED_IDLE_STOP_MS = 10_000;

/** The hub is shut down: the process is stopping, a stream opened now is to be ended at once. */
export class LiveHubStopped extends Error {
  constructor() {
    super('the live hub is shut down');
  }
}

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
 * With no listener left for FEED_IDLE_STOP_MS the subscription stops: an instance without streams
 * reads nothing of what is appended (each wake-up cost every instance a read of the feed).
 */
@Injectable()
export class LiveHub implements OnModuleDestroy {
  private readonly logger = new Logger('LiveHub');
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly open = new Set<Closable>();
  /** The running feed (a stopping one may still be finishing: both are in `feeds`). */
  private starting: Promise<Subscription> | undefined;
  private readonly feeds = new Set<Subscription>();
  private idleTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  idleStopMs = FEED_IDLE_STOP_MS;

  constructor(private readonly store: EventStore) {}

  /**
   * Registers a listener for one match. Resolves once the hub reads the feed: every event committed
   * after that is delivered (events committed before are the caller's to read from the log).
   */
  async listen(matchId: string, listener: LiveListener): Promise<() => void> {
    let set = this.listeners.get(matchId);
    if (!set) this.listeners.set(matchId, (set = new Set()));
    set.add(listener);
    clearTimeout(this.idleTimer);
    const remove = (): void => {
      const current = this.listeners.get(matchId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(matchId);
      if (this.listeners.size === 0) this.stopWhenIdle();
    };
    try {
      await this.start();
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  /**
   * Tracks an open stream so that shutting down ends it (an open response would hold the server),
   * until untrack(). No closure to hand back: an open stream holds nothing more for this.
   */
  track(stream: Closable): void {
    // Opened while the application shuts down (after the open streams were ended): it would hold
    // the server's close() for good.
    if (this.stopped) return stream.close();
    this.open.add(stream);
  }

  untrack(stream: Closable): void {
    this.open.delete(stream);
  }

  /** True once the application shuts down. */
  get isStopped(): boolean {
    return this.stopped;
  }

  get openStreams(): number {
    return this.open.size;
  }

  get feedRunning(): boolean {
    return this.feeds.size > 0;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    for (const stream of [...this.open]) stream.close();
    await this.starting?.catch(() => undefined);
    await Promise.all([...this.feeds].map((feed) => feed.stop()));
  }

  private async start(): Promise<void> {
    if (this.stopped) throw new LiveHubStopped();
    this.starting ??= this.startFeed().catch((err: unknown) => {
      this.starting = undefined;
      throw err;
    });
    await this.starting;
  }

  private async startFeed(): Promise<Subscription> {
    const from = await this.store.feedHead();
    const feed = this.store.subscribe({
      from,
      batchSize: 500,
      handler: async (events) => this.dispatch(events),
      onError: (err) => this.logger.warn(`live feed: ${err instanceof Error ? err.message : String(err)}`),
    });
    this.feeds.add(feed);
    return feed;
  }

  private stopWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stopFeed(), this.idleStopMs);
    this.idleTimer.unref();
  }

  /** A listen() meanwhile starts a new feed from the head; the old one may deliver once more (channels drop repeats). */
  private async stopFeed(): Promise<void> {
    if (this.listeners.size > 0 || !this.starting) return;
    const starting = this.starting;
    this.starting = undefined;
    const feed = await starting.catch(() => undefined);
    if (!feed) return;
    await feed.stop();
    this.feeds.delete(feed);
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
