import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { PlayersModule } from '../../accounts/players/players.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { LobbyController } from './lobby.controller';
import { LobbySweeper } from './lobby-sweeper.service';
import { LobbyService } from './lobby.service';

/** Lobby tables: matches created with open seats, joined one seat at a time. */
@Module({
  imports: [MatchesModule, SeatsModule, PlayersModule],
  controllers: [LobbyController],
  providers: [LobbyService, LobbySweeper],
})
export class LobbyModule {}
