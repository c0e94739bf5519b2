import { Injectable } from '@nestjs/common';
import { decide, evolve, RuleViolation, type BismarckEvent, type MatchState, type Seat } from '@bismarck/rules';
import { ConcurrencyError, EventStore } from '@bismarck/event-store';
import { projectMatch } from '@bismarck/projections';
import { ProblemException } from '../problem/problem';
import { DealingService } from '../matches/dealing.service';
import { MatchStreams } from '../matches/match-streams.service';
import { SeatCredentials } from '../matches/seat-credentials.service';

export interface SeatJoined {
  id: string;
  version: number;
  seat: Seat;
  name: string;
  token: string;
  status: 'waiting' | 'playing';
}

const MAX_ATTEMPTS = 5;

/**
 * Lobby tables: a match created with open seats waits (status `waiting`) until each open seat is
 * joined. A join appends SeatJoined and, in the same transaction (the inline projection), the new
 * seat's token hash; the token is returned once. The join that fills the table starts the match.
 */
@Injectable()
export class LobbyService {
  constructor(
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
    private readonly credentials: SeatCredentials,
    private readonly dealing: DealingService,
  ) {}

  join(matchId: string, seat: Seat, name: string): Promise<SeatJoined> {
    return this.streams.run(matchId, () => this.decideAndAppend(matchId, seat, name));
  }

  private async decideAndAppend(matchId: string, seat: Seat, name: string): Promise<SeatJoined> {
    let fresh = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++, fresh = true) {
      const current = await this.streams.load(matchId, fresh);
      if (!current) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
      let decided: BismarckEvent[];
      try {
        decided = decide({ type: 'joinSeat', seat, name }, current.state);
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error;
        // Refuse only what the latest log refuses (the fold here may be behind another process).
        if (!fresh && (await this.store.streamVersion(matchId)) !== current.version) continue;
        throw error;
      }
      const { events, seeds } = await this.dealing.complete(matchId, decided, decided.reduce(evolve, current.state), isSeeded(current.state));
      const state = events.reduce(evolve, current.state);
      const version = current.version + events.length;
      const at = new Date().toISOString();
      const [issued] = this.credentials.issue([seat]);
      try {
        await this.store.append(matchId, current.version, events.map((e) => ({ ...e, metadata: { at } })), {
          inline: {
            fn: 'bismarck_project',
            arg: {
              ...projectMatch(matchId, version, state, { createdAt: current.createdAt, updatedAt: at }),
              credentials: [{ match_id: matchId, seat, token_hash: issued.hash }],
              ...(seeds.length > 0 ? { seeds } : {}),
            },
          },
        });
      } catch (error) {
        if (error instanceof ConcurrencyError) continue;
        throw error;
      }
      this.dealing.remember(seeds);
      this.streams.remember(matchId, { version, state, createdAt: current.createdAt, updatedAt: at });
      return { id: matchId, version, seat, name, token: issued.token, status: state.status === 'awaitingPlayers' ? 'waiting' : 'playing' };
    }
    throw new ProblemException('CONCURRENT_UPDATE', 'The match kept changing while the join was decided; send it again.');
  }
}

function isSeeded(state: MatchState): boolean {
  return state.status !== 'empty' && state.seeded;
}
