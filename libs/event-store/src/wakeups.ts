import type { Client } from 'pg';
import { newPgClient, type PgConnectionConfig } from '@bismarck/database';

export const NOTIFY_CHANNEL = 'es_events';

/**
 * A handler of another channel on the same LISTEN connection: called with each notification's payload,
 * and with `undefined` after the connection was (re)established (what was sent while it was down is lost).
 */
export type ChannelHandler = (payload: string | undefined) => void;

/**
 * Wakes this process's subscriptions. Appends made through the EventStore wake them directly (the
 * only way on the embedded database, where NOTIFY does not cross connections); on a real server a
 * dedicated connection also LISTENs, so appends from other processes wake them too. It reconnects
 * with back-off when that connection dies, and wakes everyone after reconnecting (notifications
 * sent while it was down are lost; the wake-up makes the subscribers read the log instead).
 * A wake-up is only a hint: subscribers always read the log itself, and poll as a fallback.
 */
export class Wakeups {
  private readonly listeners = new Set<() => void>();
  /** Channels other than NOTIFY_CHANNEL that the same connection listens to (docs/architecture.md, "Presence"). */
  private readonly channels = new Map<string, Set<ChannelHandler>>();
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 100;
  private closed = false;

  constructor(
    /** Returns the pg config for LISTEN, or undefined on the embedded database (no LISTEN). */
    private readonly listenConfig: () => Promise<PgConnectionConfig | undefined>,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Registers a wake-up callback; resolves once LISTEN is in place (when there is one). */
  async add(listener: () => void): Promise<() => void> {
    this.listeners.add(listener);
    await this.ensureListening().catch((err) => this.onError(err));
    return () => {
      this.listeners.delete(listener);
      if (this.idle) void this.disconnect();
    };
  }

  /**
   * Listens to another channel on the same connection (none on the embedded database); resolves once
   * LISTEN is in place. The name is the caller's constant: lowercase letters and underscores.
   */
  async addChannel(channel: string, handler: ChannelHandler): Promise<() => void> {
    if (!/^[a-z_]+$/.test(channel) || channel === NOTIFY_CHANNEL) throw new Error(`not a channel name of its own: ${channel}`);
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    handlers.add(handler);
    // Connected already: this channel is new to the connection.
    if (this.client && handlers.size === 1) await this.client.query(`LISTEN ${channel}`).catch((err) => this.onError(err));
    else await this.ensureListening().catch((err) => this.onError(err));
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) {
        this.channels.delete(channel);
        void this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
      if (this.idle) void this.disconnect();
    };
  }

  wakeAll(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private get idle(): boolean {
    return this.listeners.size === 0 && this.channels.size === 0;
  }

  private hear(channel: string, payload: string | undefined): void {
    for (const handler of [...(this.channels.get(channel) ?? [])]) handler(payload);
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.channels.clear();
    await this.disconnect();
  }

  private ensureListening(): Promise<void> {
    if (this.closed || this.client || this.idle) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const config = await this.listenConfig();
    if (!config) return;
    const client = newPgClient(config);
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (err) this.onError(err);
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', (err) => lost(err));
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      if (msg.channel === NOTIFY_CHANNEL) this.wakeAll();
      else this.hear(msg.channel, msg.payload);
    });
    try {
      await client.connect();
      for (const channel of [NOTIFY_CHANNEL, ...this.channels.keys()]) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
      throw err;
    }
    if (this.closed || this.idle) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 100;
    // A channel added while this connected: LISTEN now (LISTEN twice is harmless).
    for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`).catch((err) => this.onError(err));
    // Anything committed while we were not listening is found by reading the log.
    this.wakeAll();
    for (const channel of [...this.channels.keys()]) this.hear(channel, undefined);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.idle || this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 5000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.ensureListening().catch((err) => this.onError(err));
    }, delay);
    this.retryTimer.unref?.();
  }

  private async disconnect(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('notification');
      await client.end().catch(() => undefined);
    }
  }
}
