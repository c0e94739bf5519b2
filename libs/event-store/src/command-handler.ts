import { ConcurrencyError, IdempotencyKeyReuseError } from './errors';
import type { EventStore } from './event-store';
import { retrying } from './retry';
import type { NewEvent } from './types';

/** A stream folded: the state its commands are decided on, at the version its events reach (0: no stream yet). */
export interface Aggregate {
  readonly version: number;
}

/** A stream's kind, as its commands need it: how it is found, and how new events fold onto it. */
export interface StreamModel<A extends Aggregate, E> {
  /** A stream that does not exist yet. */
  readonly empty: A;
  /**
   * The stream as this process knows it or, when `fresh`, as the log says now; null when there is none.
   * A model without a cache reads the log either way.
   */
  load(streamId: string, fresh: boolean): Promise<A | null>;
  /** `from` with `events` folded on (versions from.version + 1, …), decided at `at`. */
  fold(from: A, events: readonly E[], at: string): A;
  /** True when `load` reads the log every time: what it finds is never behind, and a refusal needs no second look. */
  readonly readsLog?: boolean;
}

/** An idempotency record as a request brings it; the handler adds the answer it stores. */
export interface IdempotencyRequest {
  readonly scope: string;
  readonly key: string;
  readonly requestHash: string;
}

/** One decision: its events and when it was made (their time). A caller's decision type may carry more. */
export interface Decision<E> {
  readonly events: readonly E[];
  readonly at: string;
  /** The record to keep when the request brought none (a service's own move). */
  readonly idempotency?: IdempotencyRequest;
}

/** What a command appended: the stream before and after, and the decisions made (one, or one and its follow-up). */
export interface Written<A, E, D extends Decision<E> = Decision<E>> {
  readonly before: A;
  readonly after: A;
  readonly decisions: readonly D[];
  readonly events: readonly E[];
  /** The version of the first new event. */
  readonly from: number;
  /** When the last decision was made. */
  readonly at: string;
}

/** One command on one stream, as its caller hands it to the handler. */
export interface StreamCommand<A extends Aggregate, E, D extends Decision<E>, R> {
  /** The rules' decision on the stream as found. A refusal is thrown (the policy says which errors are refusals). */
  decide(current: A): D | Promise<D>;
  /** A second decision on the stream the first leaves, appended with it; null leaves the first alone. */
  followUp?(after: A, first: D): Promise<D | null>;
  /** `If-Match`: decide only at this version. 0 creates the stream: nothing is loaded on the first attempt. */
  expectedVersion?: number;
  /** A retry with the same key and request gets the first answer; another request with it is refused. */
  idempotency?: IdempotencyRequest;
  /** The caller's answer, built before the append: it is stored with the idempotency record. */
  answer(written: Written<A, E, D>): R;
  /** The rows of the append: the events as stored (with their metadata), and the inline projection. */
  append(written: Written<A, E, D>): { events: NewEvent[]; inline?: { fn: string; arg: unknown } };
  /** After the commit, before the answer: what the caller remembers of it (caches, feeds). */
  committed?(written: Written<A, E, D>): void;
}

/** The errors a stream kind answers with, and how many times a command is decided again when its stream moved. */
export interface HandlerPolicy {
  /** Attempts in all when another writer appended first (each one decides on the log as it is then). */
  readonly attempts: number;
  /** The error once the attempts are spent. */
  exhausted(): Error;
  /** Whether an error thrown by `decide` is the rules' refusal (checked against the log as it is now before it stands). */
  isRefusal(error: unknown): boolean;
  notFound(streamId: string): Error;
  versionMismatch(currentVersion: number, expectedVersion: number): Error;
  keyReused(): Error;
}

/** A decision made on a fold the log has moved past (another process appended): made again. */
class StaleFold extends Error {}

/**
 * The one way a command reaches a stream, in the spirit of Emmett's CommandHandler: find the stream
 * (a cache, or the log), decide, fold once, and append at the version found, with the idempotency
 * record and the inline projection in the same transaction. A decision on a fold the log has moved
 * past is made again against the log, up to the policy's attempts, at once: the next attempt reads
 * what the winner wrote, so a delay would only add latency. A refusal or a version mismatch on a
 * cached fold is checked against the log before it stands.
 */
export class CommandHandler<A extends Aggregate, E> {
  constructor(
    private readonly store: EventStore,
    private readonly model: StreamModel<A, E>,
    private readonly policy: HandlerPolicy,
  ) {}

  handle<D extends Decision<E>, R>(streamId: string, command: StreamCommand<A, E, D, R>): Promise<R> {
    const staleFolds = { attempts: this.policy.attempts, retries: (error: unknown) => error instanceof StaleFold, exhausted: () => this.policy.exhausted() };
    return retrying(staleFolds, (attempt) => this.attempt(streamId, command, attempt > 0));
  }

  private async attempt<D extends Decision<E>, R>(streamId: string, c: StreamCommand<A, E, D, R>, fresh: boolean): Promise<R> {
    const current = await this.load(streamId, fresh, c.expectedVersion === 0);
    // Found in a cache (or, creating, not looked for): the log may be further on.
    const maybeBehind = !fresh && (this.model.readsLog !== true || c.expectedVersion === 0);
    if (c.expectedVersion !== undefined && c.expectedVersion !== current.version) {
      if (maybeBehind) throw new StaleFold(); // the cache may be behind another process: look again before refusing
      return this.replayed<R>(streamId, c.idempotency, () => this.policy.versionMismatch(current.version, c.expectedVersion!));
    }
    let first: D;
    try {
      first = await c.decide(current);
    } catch (error) {
      if (!this.policy.isRefusal(error)) throw error;
      // A refusal against a stale fold would be wrong: only what the latest log refuses stands.
      return this.replayed<R>(streamId, c.idempotency, async () => (maybeBehind && (await this.store.streamVersion(streamId)) !== current.version ? new StaleFold() : error));
    }
    const decisions = [first];
    let after = this.model.fold(current, first.events, first.at);
    const more = c.followUp && (await c.followUp(after, first));
    if (more) {
      decisions.push(more);
      after = this.model.fold(after, more.events, more.at);
    }
    const written: Written<A, E, D> = { before: current, after, decisions, events: decisions.flatMap((d) => d.events), from: current.version + 1, at: decisions[decisions.length - 1].at };
    const answer = c.answer(written);
    if (written.events.length === 0) return answer;
    const idempotency = c.idempotency ?? decisions.find((d) => d.idempotency)?.idempotency;
    const { events, inline } = c.append(written);
    try {
      const outcome = await this.store.append(streamId, current.version, events, { idempotency: idempotency && { ...idempotency, response: storedAnswer(answer) }, inline });
      if (outcome.status === 'replayed') return answerOf(outcome.response) as R;
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new StaleFold();
      if (error instanceof IdempotencyKeyReuseError) throw this.policy.keyReused();
      throw error;
    }
    c.committed?.(written);
    return answer;
  }

  /** The stream as found here (or, fresh, as the log says now); a stream to create starts empty. */
  private async load(streamId: string, fresh: boolean, creating: boolean): Promise<A> {
    const loaded = creating && !fresh ? null : await this.model.load(streamId, fresh);
    if (loaded) return loaded;
    if (creating) return this.model.empty;
    throw this.policy.notFound(streamId);
  }

  /** The first answer to this same request when it is a retry with the same key; else the refusal stands. */
  private async replayed<R>(streamId: string, idempotency: IdempotencyRequest | undefined, refusal: () => unknown): Promise<R> {
    const stored = idempotency && (await this.store.lookupIdempotency(streamId, idempotency.scope, idempotency.key));
    if (!stored) throw await refusal();
    if (stored.requestHash !== idempotency!.requestHash) throw this.policy.keyReused();
    return answerOf(stored.response) as R;
  }
}

/**
 * A first answer kept for retries as its JSON text (a jsonb string): a jsonb object would come back
 * with its keys reordered, and a retry must get the same bytes as the first answer.
 */
const storedAnswer = (answer: unknown): string => JSON.stringify(answer);

/** The answer kept by storedAnswer (or, from rows written before it, the object itself). */
const answerOf = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);
