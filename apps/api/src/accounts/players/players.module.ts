import { Module } from '@nestjs/common';
import { RatingsModule } from '../ratings/ratings.module';
import { PlayerGuard } from './player.guard';
import { PlayersController } from './players.controller';
import { PlayersService } from './players.service';

/** Player accounts and their tokens (docs/players.md). */
@Module({ imports: [RatingsModule], controllers: [PlayersController], providers: [PlayersService, PlayerGuard], exports: [PlayersService, PlayerGuard] })
export class PlayersModule {}
