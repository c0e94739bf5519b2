import { DynamicModule, Global, Logger, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { openDataSource, postgresDataSourceOptions, runMigrationsLocked } from '@bismarck/database';
import { EventStore, eventStoreMigrations } from '@bismarck/event-store';
import { CommitFeed } from './commit-feed';
import { projectionMigrations } from '@bismarck/projections';
import { appConfig } from '../config/app.config';

export const ALL_MIGRATIONS = [...eventStoreMigrations, ...projectionMigrations];

export interface DatabaseModuleOptions {
  url: string;
  /** The embedded PGlite: one connection only (see postgresDataSourceOptions). */
  embedded?: boolean;
  poolSize?: number;
}

const EVENT_STORE_CLOSER = Symbol('EVENT_STORE_CLOSER');

/** The PostgreSQL connection (real server or embedded), migrated at start, the event store on it, and the feed of this process's commits. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => postgresDataSourceOptions({ url: options.url, embedded: options.embedded, migrations: ALL_MIGRATIONS, poolSize: options.poolSize }),
          dataSourceFactory: async (dataSourceOptions) => {
            const logger = new Logger('Database');
            const dataSource = await openDataSource(dataSourceOptions!, (err) => logger.warn(`database connection lost: ${err.message}`));
            await runMigrationsLocked(dataSource);
            return dataSource;
          },
        }),
      ],
      providers: [
        CommitFeed,
        // Concurrent commands to different matches share a statement and a commit (docs/performance.md).
        {
          provide: EventStore,
          useFactory: (dataSource: DataSource, config: ConfigType<typeof appConfig>) =>
            new EventStore(dataSource, { batchAppends: { maxInFlight: config.appendsInFlight } }),
          inject: [DataSource, appConfig.KEY],
        },
        { provide: EVENT_STORE_CLOSER, useFactory: (store: EventStore) => new EventStoreCloser(store), inject: [EventStore] },
      ],
      exports: [EventStore, CommitFeed],
    };
  }
}

/** Opens the LISTEN connection before the app serves (so it never answers without hearing other instances), and closes the store last. */
class EventStoreCloser implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(EventStore) private readonly store: EventStore) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.store.listenForOthers();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
