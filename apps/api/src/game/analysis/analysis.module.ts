import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { MatchesModule } from '../matches/matches.module';
import { SeatsModule } from '../../accounts/seats/seats.module';
import { analysisConfig } from './analysis.config';
import { AnalysisController } from './analysis.controller';
import { AnalysisService } from './analysis.service';

/** `GET /api/matches/{id}/analysis?deal=N`: scored deals solved double dummy in worker threads, kept in `deal_analyses`. */
@Module({
  imports: [MatchesModule, SeatsModule, ConfigModule.forFeature(analysisConfig)],
  controllers: [AnalysisController],
  providers: [AnalysisService],
})
export class AnalysisModule {}
