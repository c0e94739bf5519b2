import { pgConfigFromDataSource, pgPool, type PgConnectionConfig } from '@bismarck/database';
import { DatabaseError, type ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { ConcurrencyError, IdempotencyKeyReuseError } from './errors';
import { rowsOf } from './rows';
import { Subscription, type SubscribeOptions, type SubscriptionSource } from './subscription';
import { START } from './types';
import type {
  AppendOptions,
  AppendResult,
  Checkpoint,
  ExpectedVersion,
  NewEvent,
  ProvenEvent,
  Queryable,
  StoredEvent,
  StoredIdempotency,
} from './types';
import { Wakeups, type ChannelHandler } from './wakeups';

export interface EventStoreOptions {
  /**
   * How subscriptions learn of appends made by other processes: 'listen' (LISTEN es_events on a
   * dedicated connection), 'none' (in-process wake-ups and polling only), or 'auto' (default):
   * 'listen' on a real server, 'none' on the embedded PGlite, where NOTIFY does not cross connections.
   */
  readonly notifications?: 'auto' | 'listen' | 'none';
  /** Connection for LISTEN; default: taken from the DataSource's options. */
  readonly listenConnection?: ClientConfig;
  readonly onError?: (err: unknown) => void;
  /**
   * Coalesce appends that arrive while earlier ones are in flight into one `es_append_batch`
   * statement (one round trip, one commit for many commands). Results and errors are the same as
   * appending one by one. `maxInFlight` statements run at once (default 4); a batch holds at most
   * `maxBatch` appends (default 64). Off by default.
   */
  readonly batchAppends?: boolean | { readonly maxInFlight?: number; readonly maxBatch?: number };
}

/** The arguments of one es_append, as es_append_batch reads them. */
interface AppendItem {
  stream: string;
  expected: number | null;
  events: { type: string; data: unknown; metadata: Record<string, unknown> }[];
  idemScope: string | null;
  idemKey: string | null;
  requestHash: string | null;
  response?: unknown;
  inlineFn: string | null;
  inlineArg?: unknown;
}

type AppendRow = { status: string; version: number; response?: unknown; positions?: string[]; txId?: string };

const APPEND_SQL = `SELECT es_append($1, $2, $3::jsonb, $4, $5, $6, $7::jsonb, $8, $9::jsonb) AS result`;

/** Runs appends alone while few are in flight, and in batches of those that queued meanwhile. */
class AppendBatcher {
  private queue: { item: AppendItem; done: (row: AppendRow) => void; fail: (err: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly one: (item: AppendItem) => Promise<AppendRow>,
    private readonly many: (items: AppendItem[]) => Promise<AppendRow[]>,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
  ) {}

  submit(item: AppendItem): Promise<AppendRow> {
    return new Promise((done, fail) => {
      this.queue.push({ item, done, fail });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: AppendBatcher['queue']): Promise<void> {
    const alone = (b: AppendBatcher['queue'][number]): Promise<void> => this.one(b.item).then(b.done, b.fail);
    if (batch.length === 1) return alone(batch[0]);
    let rows: AppendRow[];
    try {
      rows = await this.many(batch.map((b) => b.item));
    } catch (error) {
      // The server refused the statement (an item raised: pg's DatabaseError, with its SQLSTATE, or
      // TypeORM's wrapping of it where the pool is not pg's own): nothing
      // was written; run each alone so that only the guilty one fails. Any other error (the connection)
      // leaves the outcome unknown: report it.
      if (!(error instanceof DatabaseError || (error as { driverError?: unknown }).driverError instanceof DatabaseError)) {
        for (const b of batch) b.fail(error);
        return;
      }
      await Promise.all(batch.map(alone));
      return;
    }
    batch.forEach((b, i) => b.done(rows[i]));
  }
}

type Row = Record<string, unknown>;

const EVENT_COLUMNS = `stream_id, version, type, data, metadata, recorded_at, position::text AS position, tx_id::text AS tx_id, encode(hash, 'hex') AS hash`;

function toEvent(row: Row): StoredEvent {
  const at = row.recorded_at;
  return {
    streamId: row.stream_id as string,
    version: Number(row.version),
    type: row.type as string,
    data: row.data,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    recordedAt: at instanceof Date ? at.toISOString() : new Date(String(at)).toISOString(),
    position: String(row.position),
    txId: String(row.tx_id),
    hash: String(row.hash),
  };
}

/**
 * The append-only event log on PostgreSQL (a real server or the embedded PGlite).
 * One append is one SQL statement (`SELECT es_append(...)`), hence one round trip and one transaction.
 */
export class EventStore implements SubscriptionSource {
  readonly wakeups: Wakeups;
  /** Runs SQL on the DataSource's pool (pg directly when available: the hot path skips TypeORM). */
  readonly queryable: Queryable;
  private embedded: Promise<boolean> | undefined;
  private listeningForOthers: Promise<unknown> | undefined;
  private readonly subscriptions = new Set<Subscription>();
  private readonly batcher: AppendBatcher | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: EventStoreOptions = {},
  ) {
    const pool = pgPool(dataSource);
    this.queryable =
      pool && typeof pool.query === 'function'
        ? { query: (sql, params) => pool.query(sql, params) }
        : { query: (sql, params) => dataSource.query(sql, params) };
    this.wakeups = new Wakeups(() => this.listenConfig(), options.onError);
    if (options.batchAppends) {
      const b = options.batchAppends === true ? {} : options.batchAppends;
      this.batcher = new AppendBatcher(
        (item) => this.appendOne(item),
        async (items) => {
          const [row] = await this.rows(`SELECT es_append_batch($1::jsonb) AS result`, [JSON.stringify(items)]);
          return row.result as AppendRow[];
        },
        Math.max(1, b.maxInFlight ?? 4),
        Math.max(1, b.maxBatch ?? 64),
      );
    }
  }

  private async appendOne(item: AppendItem): Promise<AppendRow> {
    const [row] = await this.rows(APPEND_SQL, [
      item.stream,
      item.expected,
      JSON.stringify(item.events),
      item.idemScope,
      item.idemKey,
      item.requestHash,
      'response' in item ? JSON.stringify(item.response) : null,
      item.inlineFn,
      'inlineArg' in item ? JSON.stringify(item.inlineArg) : null,
    ]);
    return row.result as AppendRow;
  }

  private async rows(sql: string, params: unknown[]): Promise<Row[]> {
    return rowsOf(await this.queryable.query(sql, params));
  }

  /**
   * Appends events at the end of a stream if it is at `expectedVersion` (0: the stream must not
   * exist yet; streams start empty at version 0 and the first event is version 1; 'any': no check).
   * Throws ConcurrencyError (nothing written) or IdempotencyKeyReuseError (nothing written).
   * With an idempotency key already used by the same request, returns the first response.
   */
  async append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: readonly NewEvent[],
    opts: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('append needs at least one event');
    if (expectedVersion !== 'any' && (!Number.isInteger(expectedVersion) || expectedVersion < 0)) {
      throw new RangeError(`expected version must be an integer >= 0 or 'any', got ${expectedVersion}`);
    }
    const idem = opts.idempotency;
    const item: AppendItem = {
      stream: streamId,
      expected: expectedVersion === 'any' ? null : expectedVersion,
      events: events.map((e) => ({ type: e.type, data: e.data ?? null, metadata: e.metadata ?? {} })),
      idemScope: idem?.scope ?? null,
      idemKey: idem?.key ?? null,
      requestHash: idem?.requestHash ?? null,
      inlineFn: opts.inline?.fn ?? null,
    };
    if (idem) item.response = idem.response ?? null;
    if (opts.inline) item.inlineArg = opts.inline.arg ?? null;
    const result = await (this.batcher ? this.batcher.submit(item) : this.appendOne(item));
    switch (result.status) {
      case 'appended':
        this.wakeups.wakeAll();
        return { status: 'appended', version: result.version, positions: result.positions ?? [], txId: result.txId ?? '' };
      case 'replayed':
        return { status: 'replayed', response: result.response, version: result.version };
      case 'conflict':
        throw new ConcurrencyError(streamId, expectedVersion as number, result.version);
      case 'keyConflict':
        throw new IdempotencyKeyReuseError(streamId, idem!.scope, idem!.key);
      default:
        throw new Error(`es_append returned an unknown status ${result.status}`);
    }
  }

  /** The stream's events after version `after` (default 0), in version order. */
  async readStream(streamId: string, opts: { after?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const rows = await this.rows(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY events.version LIMIT $3`,
      [streamId, opts.after ?? 0, opts.limit ?? null],
    );
    return rows.map(toEvent);
  }

  /** The whole stream with each event's hash and exact timestamp: what an audit or an export needs. */
  async readProvenStream(streamId: string): Promise<ProvenEvent[]> {
    const rows = await this.rows(
      `SELECT ${EVENT_COLUMNS}, (extract(epoch FROM recorded_at) * 1000000)::bigint::text AS micros
         FROM events WHERE stream_id = $1 ORDER BY events.version`,
      [streamId],
    );
    return rows.map((row) => ({ ...toEvent(row), recordedAtMicros: String(row.micros) }));
  }

  /** The chain's hash at one version of the stream (lowercase hex). */
  async hashAt(streamId: string, version: number): Promise<string> {
    const [row] = await this.rows(`SELECT encode(hash, 'hex') AS hash FROM events WHERE stream_id = $1 AND version = $2`, [streamId, version]);
    if (!row) throw new Error(`stream ${streamId} has no version ${version}`);
    return String(row.hash);
  }

  /** The number of events in the stream (0 when it does not exist). */
  async streamVersion(streamId: string): Promise<number> {
    const [row] = await this.rows(
      `SELECT coalesce(max(version), 0) AS version FROM events WHERE stream_id = $1`,
      [streamId],
    );
    return Number(row.version);
  }

  /** The stored answer of an idempotency key, or null. */
  async lookupIdempotency(streamId: string, scope: string, key: string): Promise<StoredIdempotency | null> {
    const [row] = await this.rows(
      `SELECT request_hash, response, version, created_at FROM idempotency_keys
        WHERE stream_id = $1 AND scope = $2 AND key = $3`,
      [streamId, scope, key],
    );
    if (!row) return null;
    return {
      requestHash: row.request_hash as string,
      response: row.response,
      version: Number(row.version),
      createdAt: (row.created_at as Date).toISOString(),
    };
  }

  /**
   * Events of all streams after a checkpoint, in commit order: only rows whose writing transaction
   * is older than every transaction still running (tx_id < xmin of the current snapshot), ordered by
   * (tx_id, position). A row written by a transaction still in flight is never passed over: the feed
   * stops in front of it until it commits or rolls back.
   */
  async readAll(opts: { after: Checkpoint; limit?: number }): Promise<StoredEvent[]> {
    const rows = await this.rows(
      `SELECT ${EVENT_COLUMNS} FROM events
        WHERE (events.tx_id, events.position) > ($1::xid8, $2::bigint)
          AND events.tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.tx_id, events.position -- qualified: the bare names are the ::text output columns
        LIMIT $3`,
      [opts.after.txId, opts.after.position, opts.limit ?? 1000],
    );
    return rows.map(toEvent);
  }

  /**
   * The last event of the commit-order feed now (START when there is none): a subscription from here
   * gets every event committed later and none before, since later commits sort after it.
   */
  async feedHead(): Promise<Checkpoint> {
    const [row] = await this.rows(
      `SELECT tx_id::text AS tx_id, position::text AS position FROM events
        WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.tx_id DESC, events.position DESC LIMIT 1`,
      [],
    );
    return row ? { txId: String(row.tx_id), position: String(row.position) } : START;
  }

  /** Verifies a stream's hash chain; `brokenAt` is the first version that does not match. */
  async verifyStream(streamId: string): Promise<{ ok: boolean; brokenAt: number | null; version: number }> {
    const [row] = await this.rows(
      `SELECT es_verify_stream($1) AS broken, (SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1) AS version`,
      [streamId],
    );
    const brokenAt = row.broken === null ? null : Number(row.broken);
    return { ok: brokenAt === null, brokenAt, version: Number(row.version) };
  }

  /** Starts a catch-up subscription; see SubscribeOptions. Stop it with `stop()`. */
  subscribe(options: SubscribeOptions): Subscription {
    const subscription = new Subscription(this, options);
    this.subscriptions.add(subscription);
    void subscription.done.finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  /**
   * Keeps the LISTEN connection up from now on, on a real server (appends by other processes then
   * wake this one's subscriptions at once), and resolves once it listens. A no-op on the embedded
   * database, where every append is this process's own.
   */
  async listenForOthers(): Promise<void> {
    this.listeningForOthers ??= this.wakeups.add(() => undefined);
    await this.listeningForOthers;
  }

  /**
   * Hears NOTIFY on another channel of the application's (e.g. presence) over the connection that
   * listens for appends, on a real server; resolves once it listens. On the embedded database NOTIFY
   * does not cross connections: nothing is heard, and the caller polls. Returns the way to stop.
   */
  listenTo(channel: string, handler: ChannelHandler): Promise<() => void> {
    return this.wakeups.addChannel(channel, handler);
  }

  /** One round trip to the database (`SELECT 1`); rejects when it does not answer. */
  async ping(): Promise<void> {
    await this.queryable.query('SELECT 1');
  }

  /** False only while a LISTEN connection this store needs is down (a real server): then other processes' appends are found by polling alone. */
  async notificationsUp(): Promise<boolean> {
    return this.wakeups.listening || (await this.listenConfig()) === undefined;
  }

  /** True on the embedded PGlite (one session: no cross-connection NOTIFY). */
  isEmbedded(): Promise<boolean> {
    this.embedded ??= this.rows(`SELECT version() AS v`, []).then(([r]) => /PGlite/i.test(String(r.v)));
    return this.embedded;
  }

  /** Stops every subscription and the LISTEN connection. Does not close the DataSource. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.wakeups.close();
  }

  private async listenConfig(): Promise<PgConnectionConfig | undefined> {
    const mode = this.options.notifications ?? 'auto';
    if (mode === 'none') return undefined;
    if (mode === 'auto' && (await this.isEmbedded())) return undefined;
    if (this.options.listenConnection) return this.options.listenConnection;
    return { ...pgConfigFromDataSource(this.dataSource), application_name: 'bismarck-event-store-listen' };
  }
}
