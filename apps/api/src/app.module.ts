import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AdminModule } from './admin/admin.module';
import { appConfig, type AppConfig } from './config/app.config';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { LiveModule } from './live/live.module';
import { LobbyModule } from './lobby/lobby.module';
import { edgeConfig } from './config/edge.config';
import { MatchesModule } from './matches/matches.module';
import { MetricsModule } from './metrics/metrics.module';
import { ProblemFilter } from './problem/problem.filter';
import { ReplayModule } from './replay/replay.module';
import { ViewerModule } from './viewer/viewer.module';

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
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            pinoHttp: {
              level: options.logLevel ?? config.get<AppConfig>('app')!.logLevel,
              // A caller's X-Request-Id is kept (if sane) and echoed; otherwise one is made.
              genReqId: (req: IncomingMessage, res: ServerResponse) => {
                const given = req.headers['x-request-id'];
                const id = typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
                res.setHeader('X-Request-Id', id);
                return id;
              },
              // Seat and admin tokens never reach the logs.
              redact: ['req.headers.authorization', 'req.headers.cookie'],
              autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health' || req.url === '/metrics' },
              // A line per successful request cost ~12% of the api's CPU under load (docs/performance.md):
              // successes at debug (LOG_LEVEL=debug shows them; /metrics counts them), refusals at info.
              customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
                err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug',
            },
          }),
        }),
        DatabaseModule.forRoot({ url: options.databaseUrl, embedded: options.embedded, poolSize: options.poolSize }),
        MetricsModule,
        HealthModule,
        MatchesModule,
        LiveModule,
        LobbyModule,
        AdminModule,
        ReplayModule,
        ViewerModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }],
    };
  }
}
