import { HttpException, Injectable } from '@nestjs/common';
import { RuleViolation, type BismarckEvent, type Command } from '@bismarck/rules';
import { ConcurrencyError, EventStore, IdempotencyKeyReuseError } from '@bismarck/event-store';
import { foldOnto, projectMatch, PROJECT_FUNCTION as PROJECT_FN, scorecardChangedAt, UNBORN, type FoldedMatch, type ProjectionExtras } from '@bismarck/projections';
import { MetricsService } from '../metrics/metrics.service';
import { ProblemException } from '../problem/problem';
import { DealingService } from './dealing.service';
import { MatchFolds } from './match-folds.service';
import type { LoadedMatch } from './match-folds.service';

/** What a command appended, for building its answer. */
export interface Written extends FoldedMatch {
  events: BismarckEvent[];
  /** The version of the first new event. */
  from: number;
  at: string;
}

/** How one command is written, besides the command itself. */
export interface WriteOptions<T> {
  /** The caller's answer, built before the append (it is kept with an idempotency key). */
  answer(written: Written): T;
  /** `If-Match`: apply only at this version. 0 creates the match: there is nothing to load. */
  expectedVersion?: number;
  /** A retry with the same key (and the same request) gets the first answer; another request gets 422. */
  idempotency?: { scope: string; key: string; requestHash: string };
  /** More rows for the inline projection: a new seat's token hash, a seeded match's seed. */
  extra?: ProjectionExtras;
}

/** Told of every append this process committed: the match's id and its fold right after it. */
export type CommittedListener = (matchId: string, match: FoldedMatch) => void;

/** A command that lost a race to another process is decided again this many times before giving up. */
const MAX_ATTEMPTS = 5;

/**
 * The one write path of every command on a match, creation and joins included, in the spirit of
 * Emmett's command handler: load (or catch up) the match, let the rules decide (the dealer's events
 * too), fold once, project, and append the events with the expected version, the idempotency record
 * and the projection rows in one transaction. Commands to one match run one at a time in this
 * process; a race lost to another process is decided again against the log as it is now.
 */
@Injectable()
export class MatchWriter {
  private readonly committed = new Set<CommittedListener>();

  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
    private readonly dealer: DealingService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Calls `listener` after each append this process commits (the bot runner learns here that a bot
   * may have to act). A listener must not throw; it is called synchronously, so it should only
   * schedule work. Returns the function that removes it.
   */
  onCommitted(listener: CommittedListener): () => void {
    this.committed.add(listener);
    return () => this.committed.delete(listener);
  }

  /**
   * Every write is measured here, by the rules' command type and its outcome: accepted, refused (a
   * rule, a version or key conflict: any 4xx) or failed. (A global Nest interceptor measured the same
   * and cost every request an rxjs pipeline: ~8 % of the api's CPU in the bench.)
   */
  handle<T>(matchId: string, command: (current: LoadedMatch) => Command | Promise<Command>, options: WriteOptions<T>): Promise<T> {
    const stop = this.metrics.startCommand();
    let type = 'unknown';
    const named = async (current: LoadedMatch): Promise<Command> => {
      const built = await command(current);
      type = built.type;
      return built;
    };
    return this.folds.run(matchId, () => this.decideAndAppend(matchId, named, options)).then(
      (answer) => {
        stop(type, 'accepted');
        return answer;
      },
      (error: unknown) => {
        stop(type, error instanceof RuleViolation || (error instanceof HttpException && error.getStatus() < 500) ? 'refused' : 'failed');
        throw error;
      },
    );
  }

  private async decideAndAppend<T>(matchId: string, command: (current: LoadedMatch) => Command | Promise<Command>, o: WriteOptions<T>): Promise<T> {
    for (let attempt = 0, fresh = false; attempt < MAX_ATTEMPTS; attempt++, fresh = true) {
      const current = await this.load(matchId, fresh, o.expectedVersion === 0);
      if (o.expectedVersion !== undefined && o.expectedVersion !== current.version) {
        if (!fresh) continue; // the cache may be behind another process: look again before refusing
        const first = await this.replayed<T>(matchId, o);
        if (first) return first;
        throw new ProblemException('VERSION_MISMATCH', `The match is at version ${current.version}, not ${o.expectedVersion}.`, {
          currentVersion: current.version,
        });
      }

      let decided: Awaited<ReturnType<DealingService['decide']>>;
      try {
        decided = await this.dealer.decide(matchId, await command(current), current);
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error;
        const first = await this.replayed<T>(matchId, o);
        if (first) return first;
        // A refusal against a stale fold would be wrong: refuse only what the latest log refuses.
        if (!fresh && (await this.store.streamVersion(matchId)) !== current.version) continue;
        throw error;
      }

      const { events, seeds } = decided;
      const folded = foldOnto(current, events);
      const at = new Date().toISOString();
      const createdAt = current.version === 0 ? at : current.createdAt;
      const answer = o.answer({ ...folded, events, from: current.version + 1, at });
      try {
        const outcome = await this.store.append(matchId, current.version, events.map((e) => ({ ...e, metadata: { at } })), {
          idempotency: o.idempotency ? { ...o.idempotency, response: storedAnswer(answer) } : undefined,
          inline: {
            fn: PROJECT_FN,
            arg: {
              ...projectMatch(matchId, folded, { createdAt, updatedAt: at }, scorecardChangedAt(events, current.version + 1)),
              ...o.extra,
              ...(seeds.length > 0 ? { seeds } : {}),
            },
          },
        });
        if (outcome.status === 'replayed') return answerOf(outcome.response) as T;
      } catch (error) {
        if (error instanceof ConcurrencyError) continue;
        if (error instanceof IdempotencyKeyReuseError) throw keyReused();
        throw error;
      }
      this.dealer.remember(seeds);
      this.folds.remember(matchId, { ...folded, createdAt, updatedAt: at });
      for (const listener of this.committed) listener(matchId, folded);
      return answer;
    }
    throw new ProblemException('CONCURRENT_UPDATE', 'The match kept changing while this command was decided; send it again.');
  }

  /** The match as known here (or, fresh, as the log says now); a new match starts from nothing. */
  private async load(matchId: string, fresh: boolean, creating: boolean): Promise<LoadedMatch> {
    const loaded = creating && !fresh ? null : await this.folds.load(matchId, fresh);
    if (loaded) return loaded;
    if (creating) return { ...UNBORN, createdAt: '', updatedAt: '' };
    throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
  }

  /** The first answer to this same command, when it is a retry with the same Idempotency-Key. */
  private async replayed<T>(matchId: string, o: WriteOptions<T>): Promise<T | null> {
    if (!o.idempotency) return null;
    const stored = await this.store.lookupIdempotency(matchId, o.idempotency.scope, o.idempotency.key);
    if (!stored) return null;
    if (stored.requestHash !== o.idempotency.requestHash) throw keyReused();
    return answerOf(stored.response) as T;
  }
}

const keyReused = (): ProblemException =>
  new ProblemException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first used for a different command.');

/**
 * A first answer kept for retries as its JSON text (a jsonb string): a jsonb object would come back
 * with its keys reordered, and a retry must get the same bytes as the first answer.
 */
export const storedAnswer = (answer: unknown): string => JSON.stringify(answer);

/** The answer kept by storedAnswer (or, from rows written before it, the object itself). */
export const answerOf = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);
