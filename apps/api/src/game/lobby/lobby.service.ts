import { Injectable } from '@nestjs/common';
import type { Seat } from '@bismarck/rules';
import { MatchCommands } from '../matches/match-commands.service';
import { SeatCredentials } from '../../accounts/seats/seat-credentials.service';
import { defaultBotName } from '../../accounts/names/seat-names.validator';

/** A seat of a lobby table given to a bot: no token (nobody but the service acts for it). */
export interface BotSeatJoined {
  id: string;
  version: number;
  seat: Seat;
  name: string;
  bot: string;
  status: 'waiting' | 'playing';
}

export interface SeatJoined {
  id: string;
  version: number;
  seat: Seat;
  name: string;
  token: string;
  status: 'waiting' | 'playing';
}

/**
 * Lobby tables: a match created with open seats waits (status `waiting`) until each open seat is
 * joined. A join appends SeatJoined and, in the same transaction (the inline projection), the new
 * seat's token hash; the token is returned once. The join that fills the table starts the match.
 */
@Injectable()
export class LobbyService {
  constructor(private readonly commands: MatchCommands, private readonly credentials: SeatCredentials) {}

  /** `account`: the seat is bound to this player (who joined with a player token; docs/players.md). */
  async join(matchId: string, seat: Seat, name: string, account?: string): Promise<SeatJoined> {
    const [issued] = this.credentials.issue([seat]);
    const { state, version } = await this.commands.join(matchId, seat, name, { account, tokenHash: issued.hash });
    return { id: matchId, version, seat, name, token: issued.token, status: state.status === 'awaitingPlayers' ? 'waiting' : 'playing' };
  }

  /** An open seat for a bot: SeatJoined with its strategy; the service plays it from then on. */
  async seatBot(matchId: string, seat: Seat, bot: string, name = defaultBotName(bot)): Promise<BotSeatJoined> {
    const { state, version } = await this.commands.join(matchId, seat, name, { bot });
    return { id: matchId, version, seat, name, bot, status: state.status === 'awaitingPlayers' ? 'waiting' : 'playing' };
  }

}
