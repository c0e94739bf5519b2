import { Injectable } from '@nestjs/common';
import { createHash, createHmac, randomInt, randomUUID } from 'node:crypto';
import {
  decide,
  evolve,
  initialState,
  RuleViolation,
  type BismarckEvent,
  type Command,
  type MatchOptions,
  type Seat,
} from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { eventView, foldOnto, projectMatch, scorecardChangedAt, UNBORN, type EventView } from '@bismarck/projections';
import { ProblemException } from '../problem/problem';
import { MetricsService } from '../metrics/metrics.service';
import { DealingService } from './dealing.service';
import { MatchStreams } from './match-streams.service';
import { answerOf, MatchWriter, PROJECT_FN } from './match-writer.service';
import { SeatCredentials } from './seat-credentials.service';
import type { LoadedMatch } from './state-cache';

export interface CommandResult {
  version: number;
  events: EventView[];
}

export interface MatchCreated {
  id: string;
  version: number;
  options: MatchOptions;
  firstDealer: Seat;
  seeded: boolean;
  /** `waiting` while some seats are open (a lobby table), else `playing`. */
  status: 'waiting' | 'playing';
  /** The named seats only, each with its token (open seats get theirs when joined). */
  seats: { seat: Seat; name: string; token: string }[];
}

export type SeatCommand =
  | { type: 'deal' }
  | { type: 'chooseContract'; contract: 'spades' | 'trump' | 'notrump' | 'pass'; trump?: 'S' | 'H' | 'D' | 'C' | null }
  | { type: 'discard'; cards: string[] }
  | { type: 'playCard'; card: string }
  | { type: 'cut'; cut: string };

export interface CommandOptions {
  /** `If-Match`: apply only at this version. */
  expectedVersion?: number;
  /** `Idempotency-Key`: a retry by the same seat gets the first answer. */
  idempotencyKey?: string;
}


/**
 * The write side: load the match, let the rules decide, append the events with the expected
 * version, the idempotency record and the projection rows in one transaction.
 */
@Injectable()
export class MatchCommands {
  constructor(
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
    private readonly credentials: SeatCredentials,
    private readonly metrics: MetricsService,
    private readonly dealing: DealingService,
    private readonly writer: MatchWriter,
  ) {}

  async create(players: [string | null, string | null, string | null], options: Partial<MatchOptions> | undefined, seed?: string): Promise<MatchCreated> {
    const id = randomUUID();
    const seeded = seed !== undefined;
    const firstDealer = seeded ? firstDealerFromSeed(seed) : (randomInt(3) as Seat);
    const decided = decide({ type: 'createMatch', matchId: id, players, options, firstDealer, seeded }, initialState());
    const { events, seeds } = await this.dealing.complete(id, decided, decided.reduce(evolve, initialState()), seeded);
    const folded = foldOnto(UNBORN, events);
    const { state } = folded;
    const at = new Date().toISOString();
    const issued = this.credentials.issue(([0, 1, 2] as Seat[]).filter((s) => players[s] !== null));
    const projection = projectMatch(id, folded, { createdAt: at, updatedAt: at }, scorecardChangedAt(events, 1));
    await this.store.append(id, 0, events.map((e) => ({ ...e, metadata: { at } })), {
      inline: {
        fn: PROJECT_FN,
        arg: {
          ...projection,
          credentials: issued.map((t) => ({ match_id: id, seat: t.seat, token_hash: t.hash })),
          ...(seeded ? { secret: { match_id: id, seed } } : {}),
          ...(seeds.length > 0 ? { seeds } : {}),
        },
      },
    });
    this.dealing.remember(seeds);
    this.credentials.remember(id, issued);
    this.streams.remember(id, { ...folded, createdAt: at, updatedAt: at });
    const created = events[0] as Extract<BismarckEvent, { type: 'MatchCreated' }>;
    return {
      id,
      version: events.length,
      options: created.data.options,
      firstDealer,
      seeded,
      status: state.status === 'awaitingPlayers' ? 'waiting' : 'playing',
      seats: issued.map((t) => ({ seat: t.seat, name: players[t.seat]!, token: t.token })),
    };
  }

  execute(matchId: string, seat: Seat, command: SeatCommand, options: CommandOptions = {}): Promise<CommandResult> {
    const stop = this.metrics.startCommand(command.type);
    return this.decideAndAppend(matchId, seat, command, options).then(
      (result) => {
        stop('accepted');
        return result;
      },
      (error: unknown) => {
        stop(error instanceof RuleViolation || error instanceof ProblemException ? 'refused' : 'failed');
        throw error;
      },
    );
  }

  private decideAndAppend(matchId: string, seat: Seat, command: SeatCommand, options: CommandOptions): Promise<CommandResult> {
    const scope = `seat:${seat}`;
    const key = options.idempotencyKey;
    // Only an Idempotency-Key needs the request's hash (replayed() and the append read it only then).
    const requestHash = key === undefined ? '' : createHash('sha256').update(JSON.stringify(command)).digest('hex');
    return this.writer.write<CommandResult>(matchId, {
      expectedVersion: options.expectedVersion,
      idempotency: key === undefined ? undefined : { scope, key, requestHash },
      replay: () => this.replayed(matchId, scope, key, requestHash),
      decide: async (current) => decide(await this.toRulesCommand(matchId, seat, command, current), current.state),
      answer: (written) => ({
        version: written.version,
        events: written.events.map((e, i) => eventView(e, written.from + i, written.at, seat, written)),
      }),
    });
  }

  private async replayed(matchId: string, scope: string, key: string | undefined, requestHash: string): Promise<CommandResult | null> {
    if (key === undefined) return null;
    const stored = await this.store.lookupIdempotency(matchId, scope, key);
    if (!stored) return null;
    if (stored.requestHash !== requestHash) {
      throw new ProblemException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first used for a different command.');
    }
    return answerOf(stored.response) as CommandResult;
  }

  private async toRulesCommand(matchId: string, seat: Seat, command: SeatCommand, current: LoadedMatch): Promise<Command> {
    switch (command.type) {
      case 'deal': {
        // The shuffle outcome is an input of the rules; its index is the version the deal will start at.
        const { deck, shuffle } = await this.dealing.deck(matchId, current.state, current.version + 1);
        return { type: 'deal', seat, deck, shuffle };
      }
      case 'cut':
        return { type: 'cut', seat, cut: command.cut };
      case 'chooseContract':
        return { type: 'chooseContract', seat, contract: command.contract, trump: command.trump ?? null };
      case 'discard':
        return { type: 'discard', seat, cards: command.cards };
      case 'playCard':
        return { type: 'playCard', seat, card: command.card };
      default: {
        const unknown: never = command;
        throw new Error(`unknown command ${JSON.stringify(unknown)}`);
      }
    }
  }
}


/** The event as this caller may see it now (docs/rules.md §7). */

/** A seeded match draws its first dealer from the seed too, so that the whole match is reproducible. */
function firstDealerFromSeed(seed: string): Seat {
  // Rejection sampling over HMAC bytes: 255 = 3 × 85, so a byte below it picks a seat without bias.
  for (let block = 0; ; block++) {
    for (const byte of createHmac('sha256', seed).update(`firstDealer:${block}`).digest()) {
      if (byte < 255) return (byte % 3) as Seat;
    }
  }
}
