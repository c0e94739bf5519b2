import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { ForkController } from './fork.controller';
import { ForkService } from './fork.service';

/** `POST /api/matches/{id}/fork?version=N`: a finished match forked at any position (libs/rules fork.ts). */
@Module({ imports: [MatchesModule, SeatsModule], controllers: [ForkController], providers: [ForkService] })
export class ForkModule {}
