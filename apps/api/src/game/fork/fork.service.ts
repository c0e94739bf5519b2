import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EventStore } from '@bismarck/event-store';
import { toDomainEvent } from '@bismarck/match';
import {
  forkableVersions,
  newServerSeed,
  notForkable,
  RuleViolation,
  type BismarckEvent,
  type ForkedFrom,
  type Seat,
} from '@bismarck/rules';
import { StrongBotMatches } from '../matches/strong-bot-matches';
import { MatchFolds } from '../matches/match-folds.service';
import { MatchCommands, type MatchCreated } from '../matches/match-commands.service';
import { invalidParameter, ProblemException } from '../../platform/problem/problem';
import { SeatCredentials } from '../../accounts/seats/seat-credentials.service';

/** The answer to a fork: a new match's (as POST /api/matches answers), and where it comes from. */
export interface ForkCreated extends Omit<MatchCreated, 'status'> {
  /** `finished` only for a fork at the last version of the match. */
  status: 'playing' | 'finished';
  forkedFrom: ForkedFrom;
}

/**
 * Forks a finished match at a version (docs/clients.md, "Forking a finished match"): a new seeded
 * match, created by the rules' `forkMatch` through the game's command API (MatchCommands.createFrom) in one append,
 * whose log rests exactly where the original rested after that version. Persons get fresh tokens;
 * bot seats stay bot seats, played by the BotRunner as in any match.
 */
@Injectable()
export class ForkService {
  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
    private readonly commands: MatchCommands,
    private readonly credentials: SeatCredentials,
    private readonly strongBots: StrongBotMatches,
  ) {}

  /** `caller`: who asks, as the cap on matches against strong bots counts (StrongBotMatches.callerOf). */
  async fork(id: string, version: number, caller: string): Promise<ForkCreated> {
    // Caught up with the log: another instance may have finished the match.
    const original = await this.folds.load(id, true);
    if (!original) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
    if (original.state.status !== 'finished') {
      throw new ProblemException('MATCH_NOT_FINISHED', 'A match can be forked once it is finished: until then its hands are secret.');
    }
    if (version > original.version) throw invalidParameter('version', `version must be at most ${original.version}, the match's current version.`);
    const { players, bots } = original.state;
    // A finished log never changes: read once, it is the whole match (every card public now).
    const events = (await this.store.readStream(id)).map(toDomainEvent);
    const forkId = randomUUID();
    const forkedFrom: ForkedFrom = { matchId: id, version };
    // Only persons get tokens, and fresh ones: nobody but the service acts for a bot seat.
    const issued = this.credentials.issue(([0, 1, 2] as Seat[]).filter((s) => bots[s] === null));
    const write = (): Promise<ForkCreated> => this.commands
      .createFrom(
        { type: 'forkMatch', matchId: forkId, from: { ...forkedFrom, events } },
        {
          credentials: issued.map((t) => ({ match_id: forkId, seat: t.seat, token_hash: t.hash })),
          // The fork's own seed, for the decks the original never dealt (DealingService); never published.
          secret: { match_id: forkId, seed: newServerSeed() },
        },
      )
      .then(({ events: written, version: forkVersion, state }): ForkCreated => {
          const first = written[0] as Extract<BismarckEvent, { type: 'MatchCreated' }>;
          return {
            id: forkId,
            version: forkVersion,
            options: first.data.options,
            firstDealer: first.data.firstDealer,
            seeded: true,
            status: state.status === 'finished' ? 'finished' : 'playing',
            seats: issued.map((t) => ({ seat: t.seat, name: players[t.seat], token: t.token })),
            bots: ([0, 1, 2] as Seat[]).flatMap((seat) => (bots[seat] === null ? [] : [{ seat, name: players[seat], bot: bots[seat]! }])),
            forkedFrom,
          };
      })
      .catch((error: unknown) => {
        throw error instanceof RuleViolation && error.code === 'VERSION_NOT_FORKABLE' ? notForkableProblem(events, version) : error;
      });
    const created = await this.strongBots.admit(caller, bots.includes('strong'), write);
    this.credentials.remember(forkId, issued, true);
    return created;
  }
}

/** VERSION_NOT_FORKABLE with the forkable versions around the one asked (computed only on a refusal). */
function notForkableProblem(events: readonly BismarckEvent[], version: number): ProblemException {
  const { before, after, message } = notForkable(version, forkableVersions(events));
  return new ProblemException('VERSION_NOT_FORKABLE', `${message[0].toUpperCase()}${message.slice(1)}.`, { nearestForkable: { before, after } });
}
