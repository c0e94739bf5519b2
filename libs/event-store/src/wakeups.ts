import { Client, type ClientConfig } from 'pg';

export const NOTIFY_CHANNEL = 'es_events';

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
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 100;
  private closed = false;

  constructor(
    /** Returns the pg config for LISTEN, or undefined on the embedded database (no LISTEN). */
    private readonly listenConfig: () => Promise<ClientConfig | undefined>,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Registers a wake-up callback; resolves once LISTEN is in place (when there is one). */
  async add(listener: () => void): Promise<() => void> {
    this.listeners.add(listener);
    await this.ensureListening().catch((err) => this.onError(err));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.disconnect();
    };
  }

  wakeAll(): void {
    for (const listener of [...this.listeners]) listener();
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.disconnect();
  }

  private ensureListening(): Promise<void> {
    if (this.closed || this.client || this.listeners.size === 0) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const config = await this.listenConfig();
    if (!config) return;
    const client = new Client(config);
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
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
      throw err;
    }
    if (this.closed || this.listeners.size === 0) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 100;
    // Anything committed while we were not listening is found by reading the log.
    this.wakeAll();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.listeners.size === 0 || this.retryTimer) return;
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
