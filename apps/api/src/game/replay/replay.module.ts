import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { ReplayController } from './replay.controller';
import { ReplayService } from './replay.service';

@Module({ imports: [MatchesModule, SeatsModule], controllers: [ReplayController], providers: [ReplayService] })
export class ReplayModule {}
