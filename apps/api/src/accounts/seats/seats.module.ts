import { Module } from '@nestjs/common';
import { PlayersModule } from '../players/players.module';
import { SeatCredentials } from './seat-credentials.service';
import { SeatGuard } from './seat.guard';

/**
 * Who acts for which seat: token issue and check (SeatCredentials) and the guard of every match
 * route. A module that uses the guard imports this one: the guard is built in that module. A player's
 * credential acts for the seat bound to the player (PlayerCredentials.playerOf).
 */
@Module({
  imports: [PlayersModule],
  providers: [SeatCredentials, SeatGuard],
  exports: [SeatCredentials, SeatGuard],
})
export class SeatsModule {}
