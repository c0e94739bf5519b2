import { Module } from '@nestjs/common';
import { PlayersModule } from '../../accounts/players/players.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { CommandsController } from './commands.controller';
import { DealingService } from './dealing.service';
import { MATCH_DECIDER, rulesDecider } from './decider';
import { MatchCommands } from './match-commands.service';
import { MatchWriter } from './match-writer.service';
import { MatchQueries } from './match-queries.service';
import { MatchFolds } from './match-folds.service';
import { StrongBotMatches } from './strong-bot-matches';
import { MatchesController } from './matches.controller';

@Module({
  imports: [SeatsModule, PlayersModule],
  controllers: [MatchesController, CommandsController],
  providers: [DealingService, MatchWriter, MatchCommands, MatchQueries, MatchFolds, StrongBotMatches, { provide: MATCH_DECIDER, useFactory: rulesDecider }],
  // The game's command API and its reads; the writer, the dealer and the decider stay inside.
  exports: [MatchCommands, MatchFolds, MatchQueries, StrongBotMatches],
})
export class MatchesModule {}
