import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER } from '@nestjs/core';
import { AdminModule } from './platform/admin/admin.module';
import { AnalysisModule } from './game/analysis/analysis.module';
import { appConfig } from './platform/config/app.config';
import { BotsModule } from './game/bots/bots.module';
import { ClocksModule } from './game/clocks/clocks.module';
import { DatabaseModule } from './platform/database/database.module';
import { DocsModule } from './web/docs/docs.module';
import { ForkModule } from './game/fork/fork.module';
import { HealthModule } from './platform/health/health.module';
import { LiveModule } from './game/live/live.module';
import { LobbyModule } from './game/lobby/lobby.module';
import { LoggerModule } from './platform/logger/logger.module';
import { edgeConfig } from './platform/config/edge.config';
import { MatchesModule } from './game/matches/matches.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { NotationModule } from './game/notation/notation.module';
import { ProblemFilter } from './platform/problem/problem.filter';
import { PlayModule } from './web/play/play.module';
import { PlayersModule } from './accounts/players/players.module';
import { RatingsModule } from './accounts/ratings/ratings.module';
import { RematchModule } from './game/rematch/rematch.module';
import { ReplayModule } from './game/replay/replay.module';
import { RulesPageModule } from './web/rules-page/rules-page.module';
import { ViewerModule } from './web/viewer/viewer.module';
import { PagesModule } from './web/pages/pages.module';

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
