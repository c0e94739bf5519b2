import { Module } from '@nestjs/common';
import { RatingsController } from './ratings.controller';
import { RatingsProjector } from './ratings.projector';
import { RatingsService } from './ratings.service';

/** Ratings (issue 31): the projector that follows the log in commit order, and GET /api/ratings. */
@Module({ controllers: [RatingsController], providers: [RatingsService, RatingsProjector], exports: [RatingsService, RatingsProjector] })
export class RatingsModule {}
