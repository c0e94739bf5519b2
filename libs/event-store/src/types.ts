/** An event to append. `metadata.at` (an ISO timestamp) becomes `recordedAt`; otherwise the commit's now(). */
export interface NewEvent<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
  readonly metadata?: Record<string, unknown>;
}

export interface StoredEvent<T extends string = string, D = unknown> {
  readonly streamId: string;
  /** 1-based, gapless within the stream. */
  readonly version: number;
  readonly type: T;
  readonly data: D;
  readonly metadata: Record<string, unknown>;
  /** ISO 8601. */
  readonly recordedAt: string;
  /** Global sequence number (bigint as a decimal string). Unique and increasing, but NOT commit order. */
  readonly position: string;
  /** Id of the writing transaction (xid8 as a decimal string). */
  readonly txId: string;
  /** SHA-256 over the previous event's hash and this event (lowercase hex): the tamper-evident chain. */
  readonly hash: string;
}

/** A stored event with what its tamper-evident hash covers, to check the chain without the database. */
export interface ProvenEvent<T extends string = string, D = unknown> extends StoredEvent<T, D> {
  /** recorded_at in microseconds since the epoch, as the hash covers it (a decimal string). */
  readonly recordedAtMicros: string;
}

/**
 * A place in the commit-order feed: the (transaction id, position) of the last event handled.
 * Both are decimal strings (bigints).
 */
export interface Checkpoint {
  readonly txId: string;
  readonly position: string;
}

/** Before the first event. */
export const START: Checkpoint = Object.freeze({ txId: '0', position: '0' });

/** Anything that runs SQL: a TypeORM QueryRunner or EntityManager, a pg Client/PoolClient/Pool. */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Expected version: 0 means "the stream must not exist yet"; 'any' skips the check. */
export type ExpectedVersion = number | 'any';

export interface IdempotencyOptions {
  /** Who the key belongs to (e.g. the seat); keys are unique per (stream, scope, key). */
  readonly scope: string;
  readonly key: string;
  /** A hash of the request; the same key with another hash is refused (IdempotencyKeyReuseError). */
  readonly requestHash: string;
  /** The answer to store and return to retries. */
  readonly response: unknown;
}

export interface AppendOptions {
  readonly idempotency?: IdempotencyOptions;
  /**
   * A SQL function `fn(p_stream text, p_version integer, p_arg jsonb)` called inside the append
   * transaction after the events are inserted (inline projections). If it raises, nothing is appended.
   */
  readonly inline?: { readonly fn: string; readonly arg: unknown };
}

export interface Appended {
  readonly status: 'appended';
  /** The stream version after the append (the last new event's version). */
  readonly version: number;
  /** Global positions of the new events, in version order. */
  readonly positions: string[];
  readonly txId: string;
}

export interface Replayed {
  readonly status: 'replayed';
  /** The response stored by the first request with this idempotency key. */
  readonly response: unknown;
  /** The stream version that first request produced. */
  readonly version: number;
}

export type AppendResult = Appended | Replayed;

export interface StoredIdempotency {
  readonly requestHash: string;
  readonly response: unknown;
  readonly version: number;
  readonly createdAt: string;
}
