import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { BotDecider } from './bot-decider.service';
import { BotRunner } from './bot-runner.service';

/** Bot seats: the service plays them through the same command path as any seat (docs/bots.md). */
@Module({
  imports: [MatchesModule],
  providers: [BotDecider, BotRunner],
  exports: [BotRunner],
})
export class BotsModule {}
