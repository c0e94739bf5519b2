import { Injectable } from '@nestjs/common';
import { evolve, RuleViolation, type BismarckEvent, type MatchState } from '@bismarck/rules';
import { ConcurrencyError, EventStore, IdempotencyKeyReuseError } from '@bismarck/event-store';
import { foldOnto, projectMatch, scorecardChangedAt, type FoldedMatch } from '@bismarck/projections';
import { ProblemException } from '../problem/problem';
import { DealingService } from './dealing.service';
import { MatchStreams } from './match-streams.service';
import type { LoadedMatch } from './state-cache';

/** What a decision appended, for building its answer. */
export interface Written extends FoldedMatch {
  events: BismarckEvent[];
  /** The version of the first new event. */
  from: number;
  at: string;
}

/** One command on an existing match, as the writer needs it. */
export interface Decision<T> {
  /** The rules' events against the match as loaded; throws RuleViolation to refuse. */
  decide(current: LoadedMatch): BismarckEvent[] | Promise<BismarckEvent[]>;
  /** The caller's answer, built before the append (it is stored with an idempotency key). */
  answer(written: Written): T;
  /** `If-Match`: apply only at this version. */
  expectedVersion?: number;
  /** Stored with the answer, in the append transaction: a retry with the same key gets the first answer. */
  idempotency?: { scope: string; key: string; requestHash: string };
  /** Before refusing (rules or If-Match): the first answer to this same command, if it was a retry. */
  replay?(): Promise<T | null>;
  /** More rows for the inline projection (e.g. a new seat's token hash). */
  extra?: Record<string, unknown>;
}

/** A command that lost a race to another process is re-decided this many times before giving up. */
const MAX_ATTEMPTS = 5;
export const PROJECT_FN = 'bismarck_project';

export function isSeeded(state: MatchState): boolean {
  return state.status !== 'empty' && state.seeded;
}

/**
 * The write path every command on a match shares: load the match, let the rules decide, add the
 * dealer's events, and append the events with the expected version, the idempotency record and
 * the projection rows in one transaction. Commands to one match run one at a time in this process;
 * a race lost to another process is decided again against a fresh read of the log.
 */
@Injectable()
export class MatchWriter {
  constructor(
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
    private readonly dealing: DealingService,
  ) {}

  write<T>(matchId: string, decision: Decision<T>): Promise<T> {
    return this.streams.run(matchId, () => this.decideAndAppend(matchId, decision));
  }

  private async decideAndAppend<T>(matchId: string, d: Decision<T>): Promise<T> {
    let fresh = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++, fresh = true) {
      const current = await this.streams.load(matchId, fresh);
      if (!current) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);

      if (d.expectedVersion !== undefined && d.expectedVersion !== current.version) {
        if (!fresh) continue; // the cache may be behind another process: look again before refusing
        const replay = await d.replay?.();
        if (replay) return replay;
        throw new ProblemException('VERSION_MISMATCH', `The match is at version ${current.version}, not ${d.expectedVersion}.`, {
          currentVersion: current.version,
        });
      }

      let decided: BismarckEvent[];
      try {
        decided = await d.decide(current);
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error;
        const replay = await d.replay?.();
        if (replay) return replay;
        // A refusal against a stale fold would be wrong: refuse only what the latest log refuses.
        if (!fresh && (await this.store.streamVersion(matchId)) !== current.version) continue;
        throw error;
      }

      const { events, seeds } = await this.dealing.complete(matchId, decided, decided.reduce(evolve, current.state), isSeeded(current.state));
      const folded = foldOnto(current, events);
      const at = new Date().toISOString();
      const answer = d.answer({ ...folded, events, from: current.version + 1, at });
      try {
        const outcome = await this.store.append(matchId, current.version, events.map((e) => ({ ...e, metadata: { at } })), {
          idempotency: d.idempotency ? { ...d.idempotency, response: storedAnswer(answer) } : undefined,
          inline: {
            fn: PROJECT_FN,
            arg: {
              ...projectMatch(matchId, folded, { createdAt: current.createdAt, updatedAt: at }, scorecardChangedAt(events, current.version + 1)),
              ...d.extra,
              ...(seeds.length > 0 ? { seeds } : {}),
            },
          },
        });
        if (outcome.status === 'replayed') return answerOf(outcome.response) as T;
      } catch (error) {
        if (error instanceof ConcurrencyError) continue;
        if (error instanceof IdempotencyKeyReuseError) {
          throw new ProblemException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first used for a different command.');
        }
        throw error;
      }
      this.dealing.remember(seeds);
      this.streams.remember(matchId, { ...folded, createdAt: current.createdAt, updatedAt: at });
      return answer;
    }
    throw new ProblemException('CONCURRENT_UPDATE', 'The match kept changing while this command was decided; send it again.');
  }
}

/**
 * A first answer kept for retries as its JSON text (a jsonb string): a jsonb object would come back
 * with its keys reordered, and a retry must get the same bytes as the first answer.
 */
export const storedAnswer = (answer: unknown): string => JSON.stringify(answer);

/** The answer kept by storedAnswer (or, from rows written before it, the object itself). */
export const answerOf = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);
