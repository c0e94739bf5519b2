import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { RematchController } from './rematch.controller';
import { RematchService } from './rematch.service';

/** `POST /api/matches/{id}/rematch`: the next match of a finished one, with the same players (docs/clients.md, "Rematch"). */
@Module({ imports: [MatchesModule, SeatsModule], controllers: [RematchController], providers: [RematchService] })
export class RematchModule {}
