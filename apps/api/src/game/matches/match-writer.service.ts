import { HttpException, Inject, Injectable } from '@nestjs/common';
import { RuleViolation, type BismarckEvent } from '@bismarck/rules';
import { CommandHandler, EventStore, type Decision, type HandlerPolicy, type IdempotencyRequest, type StreamModel } from '@bismarck/event-store';
import { foldOnto, UNBORN, type FoldedMatch } from '@bismarck/match';
import { projectMatch, PROJECT_FUNCTION, scorecardChangedAt, type ProjectionExtras } from '@bismarck/projections';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { ProblemException } from '../../platform/problem/problem';
import { CommitFeed } from '../../platform/database/commit-feed';
import { DealingService, type AskedCommand } from './dealing.service';
import { MATCH_DECIDER, type MatchDecider } from './decider';
import { MatchFolds, type LoadedMatch } from './match-folds.service';

/** What a command appended, for building its answer. */
export interface Written extends FoldedMatch {
  events: readonly BismarckEvent[];
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
  idempotency?: IdempotencyRequest;
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
  idempotency: IdempotencyRequest;
}

/** One decision on a match: its events, the dealer's seeds they commit to, and whether a stand-in made it. */
interface MatchDecision extends Decision<BismarckEvent> {
  type: AskedCommand['type'];
  seeds: ReturnType<DealingService['committed']>;
  standIn: boolean;
}

/** The match's errors as the HTTP contract names them; a match that kept changing is decided 5 times at most. */
const MATCH_POLICY: HandlerPolicy = {
  attempts: 5,
  exhausted: () => new ProblemException('CONCURRENT_UPDATE', 'The match kept changing while this command was decided; send it again.'),
  isRefusal: (error) => error instanceof RuleViolation,
  notFound: (matchId) => new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`),
  versionMismatch: (currentVersion, expected) => new ProblemException('VERSION_MISMATCH', `The match is at version ${currentVersion}, not ${expected}.`, { currentVersion }),
  keyReused: () => new ProblemException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first used for a different command.'),
};

/**
 * Every command on a match, creation and joins included, goes through here to the command handler:
 * the match is found in this process's folds (or caught up from the log), the facts from outside the
 * rules are brought (a deal's deck, the dealer's commitment and seeds), the rules decide once, the
 * events are folded once and appended with the projection rows of that fold. Commands to one match
 * run one at a time in this process; each commit is published on the CommitFeed with its fold.
 */
@Injectable()
export class MatchWriter {
  private readonly handler: CommandHandler<LoadedMatch, BismarckEvent>;

  constructor(
    store: EventStore,
    private readonly folds: MatchFolds,
    private readonly dealer: DealingService,
    private readonly metrics: MetricsService,
    private readonly feed: CommitFeed,
    @Inject(MATCH_DECIDER) private readonly decider: MatchDecider,
  ) {
    const matches: StreamModel<LoadedMatch, BismarckEvent> = {
      empty: { ...UNBORN, createdAt: '', updatedAt: '' },
      load: (matchId, fresh) => this.folds.load(matchId, fresh),
      fold: (from, events, at) => ({ ...foldOnto(from, events), createdAt: from.version === 0 ? at : from.createdAt, updatedAt: at }),
    };
    this.handler = new CommandHandler(store, matches, MATCH_POLICY);
  }

  /**
   * Every write is measured here, by the rules' command type and its outcome: accepted, refused (a
   * rule, a version or key conflict: any 4xx) or failed. (A global Nest interceptor measured the same
   * and cost every request an rxjs pipeline: ~8 % of the api's CPU in the bench.)
   */
  handle<T>(matchId: string, command: AskedCommand, o: WriteOptions<T>): Promise<T> {
    const stop = this.metrics.startCommand();
    // A follow-up appended with the command is counted as accepted too (its type, once).
    let followedUp: string | undefined;
    const write = (): Promise<T> =>
      this.handler.handle<MatchDecision, T>(matchId, {
        expectedVersion: o.expectedVersion,
        idempotency: o.idempotency,
        decide: (current) => this.decide(matchId, command, current),
        followUp: o.followUp && ((after, first) => this.followUp(matchId, after, first, o.followUp!)),
        answer: (w) => o.answer({ ...w.after, events: w.events, from: w.from, at: w.at }),
        append: (w) => {
          const seeds = w.decisions.flatMap((d) => d.seeds);
          return {
            events: w.decisions.flatMap((d) => d.events.map((e) => ({ ...e, metadata: d.standIn ? { at: w.at, standIn: true } : { at: w.at } }))),
            inline: {
              fn: PROJECT_FUNCTION,
              arg: { ...projectMatch(matchId, w.after, w.after, scorecardChangedAt(w.events, w.from)), ...o.extra, ...(seeds.length > 0 ? { seeds } : {}) },
            },
          };
        },
        committed: (w) => {
          followedUp = w.decisions[1]?.type;
          this.dealer.remember(w.decisions.flatMap((d) => d.seeds));
          this.folds.remember(matchId, w.after);
          this.feed.publish({ matchId, from: w.from, events: w.events, folded: w.after });
        },
      });
    return this.folds.run(matchId, write).then(
      (answer) => {
        stop(command.type, 'accepted');
        if (followedUp) stop(followedUp, 'accepted');
        return answer;
      },
      (error: unknown) => {
        stop(command.type, error instanceof RuleViolation || (error instanceof HttpException && error.getStatus() < 500) ? 'refused' : 'failed');
        throw error;
      },
    );
  }

  /** Every fact from outside the rules (the deck, the dealer's commitment and seeds, the time) first: then one decision. */
  private async decide(matchId: string, asked: AskedCommand, current: LoadedMatch): Promise<MatchDecision> {
    const at = new Date().toISOString();
    const { command, dealer } = await this.dealer.prepare(matchId, asked, current);
    // A timeout is decided on the time now and when the turn began (the last event's).
    const events = this.decider.decide(command.type === 'timeOut' ? { ...command, now: at, since: current.updatedAt } : command, current.state);
    return { type: asked.type, events, at, seeds: this.dealer.committed(dealer, events), standIn: command.standIn === true };
  }

  /** The service's move after the command (a stand-in's), or null: none asked, or the rules refuse it. */
  private async followUp(matchId: string, after: LoadedMatch, first: MatchDecision, next: NonNullable<WriteOptions<unknown>['followUp']>): Promise<MatchDecision | null> {
    const move = await next(after, first.events);
    if (!move) return null;
    try {
      const decided = await this.decide(matchId, move.command, after);
      // Stamped when both are decided, not before the follow-up's thinking: the log says when the
      // move was made, and the next turn's clock starts from it.
      return { ...decided, at: new Date().toISOString(), idempotency: move.idempotency };
    } catch (error) {
      if (error instanceof RuleViolation) return null;
      throw error;
    }
  }
}
