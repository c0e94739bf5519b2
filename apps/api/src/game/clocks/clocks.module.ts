import { Module } from '@nestjs/common';
import { BotsModule } from '../bots/bots.module';
import { MatchesModule } from '../matches/matches.module';
import { ClockSweeper } from './clock-sweeper.service';

/** Turn clocks: persons who let their time run out are timed out, and a stand-in bot plays for them. */
@Module({
  imports: [MatchesModule, BotsModule],
  providers: [ClockSweeper],
  exports: [ClockSweeper],
})
export class ClocksModule {}
