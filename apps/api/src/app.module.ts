import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { AnalysisModule } from './analysis/analysis.module';
import { appConfig } from './config/app.config';
import { BotsModule } from './bots/bots.module';
import { ClocksModule } from './clocks/clocks.module';
import { DatabaseModule } from './database/database.module';
import { DocsModule } from './docs/docs.module';
import { ForkModule } from './fork/fork.module';
import { HealthModule } from './health/health.module';
import { LiveModule } from './live/live.module';
import { LobbyModule } from './lobby/lobby.module';
import { LoggerModule } from './logger/logger.module';
import { edgeConfig } from './config/edge.config';
import { MatchesModule } from './matches/matches.module';
import { MetricsModule } from './metrics/metrics.module';
import { NotationModule } from './notation/notation.module';
import { ProblemFilter } from './problem/problem.filter';
import { PlayModule } from './play/play.module';
import { PlayersModule } from './players/players.module';
import { RatingsModule } from './ratings/ratings.module';
import { RematchModule } from './rematch/rematch.module';
import { ReplayModule } from './replay/replay.module';
import { RulesPageModule } from './rules-page/rules-page.module';
import { ViewerModule } from './viewer/viewer.module';
import { PagesModule } from './pages/pages.module';

export interface AppModuleOptions {
  databaseUrl: string;
  /** True on the embedded PGlite. */
  embedded?: boolean;
  poolSize?: number;
  /** Overrides LOG_LEVEL (tests use 'silent'). */
  logLevel?: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig, edgeConfig] }),
        // Nest's own logs go through pino; request lines come from edge/request-log.ts, which is
        // cheaper than pino-http's per-request child logger and AsyncLocalStorage (docs/performance.md).
        LoggerModule.forRoot({ level: options.logLevel }),
        DatabaseModule.forRoot({ url: options.databaseUrl, embedded: options.embedded, poolSize: options.poolSize }),
        MetricsModule,
        HealthModule,
        MatchesModule,
        LiveModule,
        LobbyModule,
        BotsModule,
        ClocksModule,
        AdminModule,
        ReplayModule,
        ForkModule,
        RematchModule,
        PlayersModule,
        RatingsModule,
        NotationModule,
        AnalysisModule,
        ViewerModule,
        PagesModule,
        PlayModule,
        RulesPageModule,
        DocsModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}
