import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { NotationController } from './notation.controller';
import { NotationService } from './notation.service';

/** `GET /api/matches/{id}/notation`: the match as plain text (libs/notation, docs/notation.md). */
@Module({ imports: [MatchesModule, SeatsModule], controllers: [NotationController], providers: [NotationService] })
export class NotationModule {}
