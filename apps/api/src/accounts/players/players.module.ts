import { Module } from '@nestjs/common';
import { RatingsModule } from '../ratings/ratings.module';
import { PlayerGuard } from './player.guard';
import { PlayerAccounts } from './player-accounts.service';
import { PlayerCredentials } from './player-credentials.service';
import { PlayerIdentities } from './player-identities.service';
import { PlayerQueries } from './player-queries.service';
import { PlayersController } from './players.controller';

/** Player accounts and their tokens (docs/players.md): written as event streams, read from their projection, taken as credentials. */
@Module({
  imports: [RatingsModule],
  controllers: [PlayersController],
  providers: [PlayerAccounts, PlayerCredentials, PlayerIdentities, PlayerQueries, PlayerGuard],
  exports: [PlayerCredentials, PlayerGuard],
})
export class PlayersModule {}
