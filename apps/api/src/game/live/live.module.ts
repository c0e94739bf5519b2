import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { PlayersModule } from '../../accounts/players/players.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { EventStreamService } from './event-stream.service';
import { LiveController } from './live.controller';
import { LiveHub } from './live-hub.service';
import { PresenceService } from './presence.service';

/** Live event streams (SSE): one hub per process on the commit-order feed, one session per client, and the seats' presence. */
@Module({
  imports: [MatchesModule, SeatsModule, PlayersModule],
  controllers: [LiveController],
  providers: [LiveHub, PresenceService, EventStreamService],
  exports: [LiveHub],
})
export class LiveModule {}
