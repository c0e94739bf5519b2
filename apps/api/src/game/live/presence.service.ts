import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Seat } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { PRESENCE_CHANNEL, PresenceTable, type Connected, type SeatStreams } from '@bismarck/projections';
import { edgeConfig } from '../../platform/config/edge.config';

export type PresenceListener = (connected: Connected) => void;

/** What a row of this instance is worth when its heartbeat stops: three heartbeats. */
export const PRESENCE_TTL_HEARTBEATS = 3;

const logger = new Logger('Presence');

/**
 * Presence (docs/architecture.md, "Presence"): which seats have a live stream open on any api
 * instance. This instance counts its own seat streams per match, writes the counts to `seat_presence`
 * when they change (one write at a time, coalesced: the counts are absolute, so the last write wins)
 * and on every heartbeat (PRESENCE_HEARTBEAT_MS), which renews its rows for PRESENCE_TTL_HEARTBEATS
 * heartbeats; a crashed instance's rows run out. It deletes its rows when it shuts down.
 *
 * The live channels of this instance watch their match: after each write here, on NOTIFY from
 * another instance (a real server) and on every heartbeat (the embedded database, rows that ran out),
 * the watched matches' presence is read again (one query for all) and a change goes to their listeners.
 * Nothing here is on the write path: commands never read presence.
 */
@Injectable()
export class PresenceService implements OnApplicationBootstrap, OnModuleDestroy {
  /** This process, as its rows name it. */
  readonly instanceId = randomUUID();
  private readonly table: PresenceTable;
  /** This instance's open streams per match and seat. */
  private readonly own = new Map<string, [number, number, number]>();
  /** Matches whose counts changed since they were last written. */
  private readonly dirty = new Set<string>();
  /** Writes and heartbeats, one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private readonly watched = new Map<string, { connected: Connected | undefined; listeners: Set<PresenceListener> }>();
  /** Watched matches to read again, and the read under way (one at a time). */
  private readonly stale = new Set<string>();
  private reading: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    @Inject(edgeConfig.KEY) private readonly config: ConfigType<typeof edgeConfig>,
  ) {
    this.table = new PresenceTable(store.queryable);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.heartbeat = setInterval(() => void this.beat(), this.config.presenceHeartbeatMs);
    this.heartbeat.unref();
    // Another instance's change: read again if a channel here watches that match. Undefined: the
    // connection was (re)made, and what was sent meanwhile is lost.
    this.stopListening = await this.store.listenTo(PRESENCE_CHANNEL, (matchId) => {
      if (matchId === undefined) this.readAgain([...this.watched.keys()]);
      else if (this.watched.has(matchId)) this.readAgain([matchId]);
    });
  }

  /**
   * Counts a seat's open stream until leave(matchId, seat) (a spectator's counts for nothing). Resolves
   * once the count is written and the match's presence read again.
   */
  enter(matchId: string, seat: Seat): Promise<void> {
    const counts = this.own.get(matchId) ?? [0, 0, 0];
    this.own.set(matchId, counts);
    counts[seat]++;
    return this.changed(matchId);
  }

  /**
   * A seat stream counted by enter() has closed: once per enter(), by its caller. Nothing per stream
   * is kept here (no closure): the counts stay in `own` while one of them is above 0.
   */
  leave(matchId: string, seat: Seat): void {
    const counts = this.own.get(matchId);
    if (!counts || counts[seat] === 0) return;
    counts[seat]--;
    void this.changed(matchId);
  }

  /**
   * Calls `listener` with the match's presence now and on every change, until the returned function
   * is called. Resolves once the first value was read (or could not be: then it comes later).
   */
  async watch(matchId: string, listener: PresenceListener): Promise<() => void> {
    let entry = this.watched.get(matchId);
    if (!entry) this.watched.set(matchId, (entry = { connected: undefined, listeners: new Set() }));
    entry.listeners.add(listener);
    if (entry.connected) listener(entry.connected);
    else await this.readAgain([matchId]);
    const watching = entry;
    return () => {
      watching.listeners.delete(listener);
      if (watching.listeners.size === 0 && this.watched.get(matchId) === watching) this.watched.delete(matchId);
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.stopListening?.();
    await this.queue;
    await this.table.forget(this.instanceId).catch((err: unknown) => warn('forgetting this instance', err));
  }

  /** Writes the match's counts (with the others changed meanwhile), then reads the presence of those watched here. */
  private changed(matchId: string): Promise<void> {
    this.dirty.add(matchId);
    return this.enqueue(async () => {
      if (this.dirty.size === 0) return; // written by the write before, which found it dirty too
      const ids = [...this.dirty];
      this.dirty.clear();
      await this.table.write(this.instanceId, this.ttlMs, ids.flatMap((id) => this.rowsOf(id)), true);
      for (const id of ids) if (this.own.get(id)?.every((n) => n === 0)) this.own.delete(id);
      await this.readAgain(ids.filter((id) => this.watched.has(id)));
    }, 'writing presence');
  }

  /** Renews this instance's rows, sweeps those run out, and reads every watched match again. */
  private beat(): Promise<void> {
    return this.enqueue(async () => {
      const rows = [...this.own.keys()].flatMap((id) => this.rowsOf(id)).filter((row) => row.streams > 0);
      await this.table.write(this.instanceId, this.ttlMs, rows, false);
      await this.table.sweep();
      await this.readAgain([...this.watched.keys()]);
    }, 'presence heartbeat');
  }

  private enqueue(work: () => Promise<void>, what: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.queue = this.queue.then(work).catch((err: unknown) => warn(what, err));
    return this.queue;
  }

  private rowsOf(matchId: string): SeatStreams[] {
    const counts = this.own.get(matchId) ?? [0, 0, 0];
    return counts.map((streams, seat) => ({ matchId, seat: seat as Seat, streams }));
  }

  /** Reads these watched matches' presence (with any others asked for meanwhile), and tells each change. */
  private readAgain(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.stale.add(id);
    // Nothing to read: readStale would end before it is assigned, and stay as the read under way.
    if (this.stale.size === 0) return this.reading ?? Promise.resolve();
    this.reading ??= this.readStale();
    return this.reading;
  }

  private async readStale(): Promise<void> {
    try {
      while (this.stale.size > 0 && !this.stopped) {
        const ids = [...this.stale];
        this.stale.clear();
        for (const [id, connected] of await this.table.connected(ids)) this.tell(id, connected);
      }
    } catch (err) {
      warn('reading presence', err); // the next heartbeat reads them again
    } finally {
      // In the same turn as the last look at `stale`: a match asked for after it starts a new read.
      this.reading = undefined;
    }
  }

  private tell(matchId: string, connected: Connected): void {
    const entry = this.watched.get(matchId);
    if (!entry || (entry.connected && entry.connected.every((c, seat) => c === connected[seat]))) return;
    entry.connected = connected;
    for (const listener of [...entry.listeners]) listener(connected);
  }

  private get ttlMs(): number {
    return this.config.presenceHeartbeatMs * PRESENCE_TTL_HEARTBEATS;
  }
}

function warn(what: string, err: unknown): void {
  logger.warn(`${what}: ${err instanceof Error ? err.message : String(err)}`);
}
