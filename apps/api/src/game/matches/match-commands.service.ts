import { Injectable } from '@nestjs/common';
import { createHash, createHmac, randomInt, randomUUID } from 'node:crypto';
import { orderOf } from '@bismarck/rules';
import type { AskedOptions, SeatCommand, BismarckEvent, CreateMatch, ForkMatch, MatchOptions, MatchState, Seat, Triple } from '@bismarck/rules';
import { defaultBotName, type PlayerEntry } from '../../accounts/names/seat-names.validator';
import { eventView, type EventView } from '@bismarck/match';
import type { ProjectionExtras } from '@bismarck/projections';
import type { AskedCommand } from './dealing.service';
import { MatchWriter, type FollowUp, type WriteOptions } from './match-writer.service';
import { SeatCredentials } from '../../accounts/seats/seat-credentials.service';

export interface CommandResult {
  version: number;
  events: EventView[];
}

/** What one of the game's own commands (a join, a timeout, a fork…) left: the match after it, and its new events. */
export interface Applied {
  version: number;
  state: MatchState;
  events: readonly BismarckEvent[];
}

export interface MatchCreated {
  id: string;
  version: number;
  options: MatchOptions;
  firstDealer: Seat;
  seeded: boolean;
  /** `waiting` while some seats are open (a lobby table), else `playing`. */
  status: 'waiting' | 'playing';
  /** The seats of persons, each with its token (open seats get theirs when joined). */
  seats: { seat: Seat; name: string; token: string }[];
  /** The seats the service plays: no token. */
  bots: { seat: Seat; name: string; bot: string }[];
}

/** A seat's order as the seat routes take it (the rules' type, which the bots give too). */
export type { SeatCommand } from '@bismarck/rules';
/** A service move appended with the command before it (a stand-in's, after a timeout). */
export type { FollowUp } from './match-writer.service';

export interface CommandOptions {
  /** `If-Match`: apply only at this version. */
  expectedVersion?: number;
  /** `Idempotency-Key`: a retry by the same seat gets the first answer. */
  idempotencyKey?: string;
}

/**
 * The service's own actors that move for a seat: a bot seat, or the stand-in of a person whose time
 * ran out or who is away. They are principals of their own, never a caller.
 */
export type ServiceActor = 'bot' | 'standIn';

/**
 * The idempotency record of a service actor's move: a scope no request can name (a caller's key is
 * always kept under `seat:N`), the key derived from the version it decided at. Two instances making
 * the same move share it; no client key can ever collide with it, whatever the client sends.
 */
export const serviceIdempotency = (actor: ServiceActor, seat: Seat, version: number): { scope: string; key: string } => ({
  scope: `service:${actor}:${seat}`,
  key: `v${version}`,
});


/**
 * The commands of the API as the rules' commands: creation, and each seat's move. Every one is
 * written by the MatchWriter; this service only adds what the rules take as input (ids, the first
 * dealer, tokens for new seats) and shapes the answer. It is the game's one command API: the lobby,
 * forks, rematches, clocks, bots and sweepers write through it, never around it.
 */
@Injectable()
export class MatchCommands {
  constructor(
    private readonly writer: MatchWriter,
    private readonly credentials: SeatCredentials,
  ) {}

  async create(entries: [PlayerEntry, PlayerEntry, PlayerEntry], options: AskedOptions | undefined, seed?: string): Promise<MatchCreated> {
    const id = randomUUID();
    const seeded = seed !== undefined;
    const firstDealer = seeded ? firstDealerFromSeed(seed) : (randomInt(3) as Seat);
    const players = entries.map((e) => (e === null || typeof e === 'string' ? e : 'bot' in e ? (e.name ?? defaultBotName(e.bot)) : e.name)) as Triple<string | null>;
    const bots = entries.map((e) => (e !== null && typeof e === 'object' && 'bot' in e ? e.bot : null)) as Triple<string | null>;
    const accounts = entries.map((e) => (e !== null && typeof e === 'object' && 'account' in e ? e.account : null)) as Triple<string | null>;
    // Only persons get tokens (a bound seat too: its player's token acts for it as well): nobody but the service acts for a bot seat.
    const issued = this.credentials.issue(([0, 1, 2] as Seat[]).filter((s) => players[s] !== null && bots[s] === null));
    const bound = accounts.some((a) => a !== null) ? { accounts } : {};
    const created = await this.writer.handle<MatchCreated>(id, { type: 'createMatch', matchId: id, players, bots, ...bound, options, firstDealer, seeded }, {
      expectedVersion: 0,
      extra: {
        credentials: issued.map((t) => ({ match_id: id, seat: t.seat, token_hash: t.hash })),
        ...(seeded ? { secret: { match_id: id, seed } } : {}),
      },
      answer: ({ events, version, state }) => ({
        id,
        version,
        options: (events[0] as Extract<BismarckEvent, { type: 'MatchCreated' }>).data.options,
        firstDealer,
        seeded,
        status: state.status === 'awaitingPlayers' ? 'waiting' : 'playing',
        seats: issued.map((t) => ({ seat: t.seat, name: players[t.seat]!, token: t.token })),
        bots: ([0, 1, 2] as Seat[]).flatMap((seat) => (bots[seat] === null ? [] : [{ seat, name: players[seat]!, bot: bots[seat]! }])),
      }),
    });
    this.credentials.remember(id, issued, !players.includes(null));
    return created;
  }

  /** A seat's move asked by a caller (its token decided the seat). */
  execute(matchId: string, seat: Seat, command: SeatCommand, options: CommandOptions = {}): Promise<CommandResult> {
    const key = options.idempotencyKey;
    // Only an Idempotency-Key needs the request's hash.
    const idempotency = key === undefined ? undefined : { scope: `seat:${seat}`, key, requestHash: requestHash(command) };
    return this.write(matchId, seat, orderOf(seat, command), options.expectedVersion, idempotency);
  }

  /**
   * A seat's move made by the service itself, decided at `version`: appended only at that version,
   * under a key of the service's own (serviceIdempotency). A stand-in's events say they are its.
   */
  executeAsService(matchId: string, seat: Seat, command: SeatCommand, actor: ServiceActor, version: number): Promise<CommandResult> {
    const move = serviceMove(seat, command, actor, version);
    return this.write(matchId, seat, move.command, version, move.idempotency);
  }

  /** A lobby table's open seat taken by a person (its new token's hash kept with it) or by a bot (`bot`: its strategy). */
  join(matchId: string, seat: Seat, name: string, by: { account?: string; tokenHash: string } | { bot: string }): Promise<Applied> {
    if ('bot' in by) return this.apply(matchId, { type: 'joinSeat', seat, name, bot: by.bot });
    return this.apply(matchId, { type: 'joinSeat', seat, name, ...(by.account !== undefined ? { account: by.account } : {}) }, {
      extra: { credentials: [{ match_id: matchId, seat, token_hash: by.tokenHash }] },
    });
  }

  /** A lobby table nobody joined, closed: only at the version it was found idle. */
  abandon(matchId: string, version: number): Promise<Applied> {
    return this.apply(matchId, { type: 'abandonTable' }, { expectedVersion: version });
  }

  /** A turn whose time ran out, found overdue at `version`; its stand-in's move appended with it when `followUp` gives one. */
  timeOut(matchId: string, version: number, followUp: NonNullable<WriteOptions<Applied>['followUp']>): Promise<Applied> {
    return this.apply(matchId, { type: 'timeOut' }, { expectedVersion: version, followUp });
  }

  /** The next match of a finished one, offered by `seat`: the rules take one offer, the rematch's id drawn here. */
  offerRematch(matchId: string, seat: Seat): Promise<Applied> {
    return this.apply(matchId, { type: 'offerRematch', seat, matchId: randomUUID() });
  }

  /**
   * A match created by the service from another (a rematch: `createMatch` with `rematchOf`; a fork:
   * `forkMatch`), with its seats' token hashes and, for a fork, its own secret seed.
   */
  createFrom(command: CreateMatch | ForkMatch, extra: ProjectionExtras): Promise<Applied> {
    return this.apply(command.matchId, command, { expectedVersion: 0, extra });
  }

  private apply(matchId: string, command: AskedCommand, options: Omit<WriteOptions<Applied>, 'answer'> = {}): Promise<Applied> {
    return this.writer.handle<Applied>(matchId, command, { ...options, answer: ({ version, state, events }) => ({ version, state, events }) });
  }

  private write(matchId: string, seat: Seat, asked: AskedCommand, expectedVersion: number | undefined, idempotency: WriteOptions<CommandResult>['idempotency']): Promise<CommandResult> {
    return this.writer.handle<CommandResult>(matchId, asked, {
      expectedVersion,
      idempotency,
      answer: (written) => ({
        version: written.version,
        events: written.events.map((e, i) => eventView(e, written.from + i, written.at, seat, written)),
      }),
    });
  }

}


/** A seat's move made by the service, decided at `version`: the rules' command and its idempotency record. */
export function serviceMove(seat: Seat, command: SeatCommand, actor: ServiceActor, version: number): FollowUp {
  const asked = orderOf(seat, command);
  return {
    command: actor === 'standIn' ? { ...asked, standIn: true } : asked,
    idempotency: { ...serviceIdempotency(actor, seat, version), requestHash: requestHash(command) },
  };
}

const requestHash = (command: SeatCommand): string => createHash('sha256').update(JSON.stringify(command)).digest('hex');


/** A seeded match draws its first dealer from the seed too, so that the whole match is reproducible. */
function firstDealerFromSeed(seed: string): Seat {
  // Rejection sampling over HMAC bytes: 255 = 3 × 85, so a byte below it picks a seat without bias.
  for (let block = 0; ; block++) {
    for (const byte of createHmac('sha256', seed).update(`firstDealer:${block}`).digest()) {
      if (byte < 255) return (byte % 3) as Seat;
    }
  }
}
