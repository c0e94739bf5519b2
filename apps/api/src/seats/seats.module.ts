import { Module } from '@nestjs/common';
import { SeatCredentials } from './seat-credentials.service';
import { SeatGuard } from './seat.guard';

/**
 * Who acts for which seat: token issue and check (SeatCredentials) and the guard of every match
 * route. A module that uses the guard imports this one: the guard is built in that module.
 */
@Module({
  providers: [SeatCredentials, SeatGuard],
  exports: [SeatCredentials, SeatGuard],
})
export class SeatsModule {}
