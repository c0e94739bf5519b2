import { Module } from '@nestjs/common';
import { CommandsController } from './commands.controller';
import { DealingService } from './dealing.service';
import { MatchCommands } from './match-commands.service';
import { MatchWriter } from './match-writer.service';
import { MatchQueries } from './match-queries.service';
import { MatchStreams } from './match-streams.service';
import { MatchesController } from './matches.controller';
import { SeatCredentials } from './seat-credentials.service';
import { SeatGuard } from './seat.guard';

@Module({
  controllers: [MatchesController, CommandsController],
  providers: [DealingService, MatchWriter, MatchCommands, MatchQueries, MatchStreams, SeatCredentials, SeatGuard],
  exports: [MatchWriter, MatchStreams, MatchCommands, MatchQueries, SeatCredentials, SeatGuard, DealingService],
})
export class MatchesModule {}
