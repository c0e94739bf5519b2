import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { PlayersModule } from '../players/players.module';
import { SeatsModule } from '../seats/seats.module';
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
