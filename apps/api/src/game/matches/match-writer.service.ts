import { HttpException, Inject, Injectable } from '@nestjs/common';
import { RuleViolation, type BismarckEvent } from '@bismarck/rules';
import { ConcurrencyError, EventStore, IdempotencyKeyReuseError } from '@bismarck/event-store';
import { foldOnto, projectMatch, PROJECT_FUNCTION, scorecardChangedAt, UNBORN, type FoldedMatch, type ProjectionExtras } from '@bismarck/projections';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { ProblemException } from '../../platform/problem/problem';
import { DealingService, type AskedCommand } from './dealing.service';
import { MATCH_DECIDER, type MatchDecider } from './decider';
import { MatchFolds } from './match-folds.service';
import { retrying, type RetryPolicy } from './retry-policy';
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
  /**
   * The service's own move that follows at once (a stand-in's, after a timeout), decided on the fold
   * the command leaves and appended with it: one append, one round trip, where two would be made.
   * Refused by the rules, or null, the command is appended alone.
   */
  followUp?: (after: FoldedMatch, events: readonly BismarckEvent[]) => Promise<FollowUp | null>;
}

/** A service move appended with the command before it (WriteOptions.followUp), under its own idempotency record. */
export interface FollowUp {
  command: AskedCommand;
  idempotency: { scope: string; key: string; requestHash: string };
}

/** An append this process committed: its events (the first at version `from`) and the match folded after them. */
export interface Committed {
  matchId: string;
  from: number;
  events: readonly BismarckEvent[];
  folded: FoldedMatch;
}

/** Told of every append this process committed. */
export type CommittedListener = (committed: Committed) => void;

/** One command decided: its events, the dealer's seeds they commit to, and whether a stand-in made it. */
interface Decided {
  events: BismarckEvent[];
  seeds: ReturnType<DealingService['committed']>;
  standIn: boolean;
}

/** An attempt decided on a fold that the log has moved past (another process appended): try again. */
class StaleFold extends Error {}

/**
 * The write path's one retry: an attempt that finds its fold behind the log (its version or a rule
 * refused against a cached fold, or its append lost the race) is made again at once against the log
 * as it is now. No delay: the next attempt reads what the winner wrote, so it cannot lose the same way.
 */
const STALE_FOLD: RetryPolicy = {
  attempts: 5,
  retries: (error) => error instanceof StaleFold,
  exhausted: () => new ProblemException('CONCURRENT_UPDATE', 'The match kept changing while this command was decided; send it again.'),
};

/**
 * The one write path of every command on a match, creation and joins included, in the spirit of
 * Emmett's command handler: load (or catch up) the match, bring the facts from outside the rules (a
 * deal's deck, the dealer's commitment and seeds), let the rules decide once, fold once, and append
 * the events with the expected version, the idempotency record and the projection rows (from that
 * fold) in one transaction; then hand the fold to the listeners (the bot runner), who need not read
 * it back. Commands to one match run one at a time in this process; a race lost to another process
 * is decided again against the log as it is now (STALE_FOLD).
 */
@Injectable()
export class MatchWriter {
  private readonly committed = new Set<CommittedListener>();

  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
    private readonly dealer: DealingService,
    private readonly metrics: MetricsService,
    @Inject(MATCH_DECIDER) private readonly decider: MatchDecider,
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
  handle<T>(matchId: string, command: AskedCommand, options: WriteOptions<T>): Promise<T> {
    const stop = this.metrics.startCommand();
    // A follow-up appended with the command is counted as accepted too (its type, once).
    const appended: { followUp?: string } = {};
    const write = (): Promise<T> => retrying(STALE_FOLD, (attempt) => this.attempt(matchId, command, options, attempt > 0, appended));
    return this.folds.run(matchId, write).then(
      (answer) => {
        stop(command.type, 'accepted');
        if (appended.followUp) stop(appended.followUp, 'accepted');
        return answer;
      },
      (error: unknown) => {
        stop(command.type, error instanceof RuleViolation || (error instanceof HttpException && error.getStatus() < 500) ? 'refused' : 'failed');
        throw error;
      },
    );
  }

  /** One attempt against the match as known here (or, once a retry, as the log says now). */
  private async attempt<T>(matchId: string, asked: AskedCommand, o: WriteOptions<T>, fresh: boolean, appended: { followUp?: string }): Promise<T> {
    const current = await this.load(matchId, fresh, o.expectedVersion === 0);
    if (o.expectedVersion !== undefined && o.expectedVersion !== current.version) {
      if (!fresh) throw new StaleFold(); // the cache may be behind another process: look again before refusing
      const first = await this.replayed<T>(matchId, o);
      if (first) return first;
      throw new ProblemException('VERSION_MISMATCH', `The match is at version ${current.version}, not ${o.expectedVersion}.`, {
        currentVersion: current.version,
      });
    }

    let at = new Date().toISOString();
    let decided: Decided;
    try {
      decided = await this.decide(matchId, asked, current, at);
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      const first = await this.replayed<T>(matchId, o);
      if (first) return first;
      // A refusal against a stale fold would be wrong: refuse only what the latest log refuses.
      if (!fresh && (await this.store.streamVersion(matchId)) !== current.version) throw new StaleFold();
      throw error;
    }

    let { events, seeds } = decided;
    // Per event: made by a stand-in (its metadata says so).
    let standIn = events.map(() => decided.standIn);
    let folded = foldOnto(current, events);
    let idempotency = o.idempotency;
    const followUp = o.followUp ? await o.followUp(folded, events) : null;
    if (followUp) {
      const more = await this.decide(matchId, followUp.command, { ...folded, createdAt: current.createdAt, updatedAt: at }, at).catch((error: unknown) => {
        if (error instanceof RuleViolation) return null;
        throw error;
      });
      if (more) {
        events = [...events, ...more.events];
        standIn = [...standIn, ...more.events.map(() => more.standIn)];
        seeds = [...seeds, ...more.seeds];
        folded = foldOnto(folded, more.events);
        idempotency ??= followUp.idempotency;
        // Stamped when both are decided, not before the follow-up's thinking: the log says when the
        // move was made, and the next turn's clock starts from it.
        at = new Date().toISOString();
      }
    }
    const createdAt = current.version === 0 ? at : current.createdAt;
    const from = current.version + 1;
    const answer = o.answer({ ...folded, events, from, at });
    try {
      const outcome = await this.store.append(matchId, current.version, events.map((e, i) => ({ ...e, metadata: standIn[i] ? { at, standIn: true } : { at } })), {
        idempotency: idempotency ? { ...idempotency, response: storedAnswer(answer) } : undefined,
        inline: {
          fn: PROJECT_FUNCTION,
          arg: {
            ...projectMatch(matchId, folded, { createdAt, updatedAt: at }, scorecardChangedAt(events, from)),
            ...o.extra,
            ...(seeds.length > 0 ? { seeds } : {}),
          },
        },
      });
      if (outcome.status === 'replayed') return answerOf(outcome.response) as T;
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new StaleFold();
      if (error instanceof IdempotencyKeyReuseError) throw keyReused();
      throw error;
    }
    if (events.length > decided.events.length) appended.followUp = followUp!.command.type;
    this.dealer.remember(seeds);
    this.folds.remember(matchId, { ...folded, createdAt, updatedAt: at });
    for (const listener of this.committed) listener({ matchId, from, events, folded });
    return answer;
  }

  /** Every fact from outside the rules (the deck, the dealer's commitment and seeds, the time) first: then one decision. */
  private async decide(matchId: string, asked: AskedCommand, current: LoadedMatch, at: string): Promise<Decided> {
    const { command, dealer } = await this.dealer.prepare(matchId, asked, current);
    // A timeout is decided on the time now and when the turn began (the last event's).
    const events = this.decider.decide(command.type === 'timeOut' ? { ...command, now: at, since: current.updatedAt } : command, current.state);
    return { events, seeds: this.dealer.committed(dealer, events), standIn: command.standIn === true };
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
