import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

export type MigrationClass = new () => unknown;

export interface PostgresOptionsInput {
  readonly url: string;
  /** Migration classes, e.g. [...eventStoreMigrations, ...projectionMigrations]. */
  readonly migrations?: readonly MigrationClass[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly entities?: MixedList<Function | string | EntitySchema>;
  /** pg pool size (extra.max). Default 10. On the embedded database keep it below its maxConnections. */
  readonly poolSize?: number;
  /** Let TypeORM run migrations on initialize(). Default false: prefer runMigrationsLocked(). */
  readonly migrationsRun?: boolean;
  readonly logging?: boolean;
  readonly applicationName?: string;
}

export const MIGRATIONS_TABLE = 'migrations';
export const DEFAULT_POOL_SIZE = 10;

/**
 * TypeORM options for PostgreSQL (a real server or the embedded PGlite: same options).
 * The schema changes only through migrations: `synchronize` is always false.
 */
export function postgresDataSourceOptions(input: PostgresOptionsInput): DataSourceOptions {
  const poolSize = input.poolSize ?? DEFAULT_POOL_SIZE;
  return {
    type: 'postgres',
    url: input.url,
    synchronize: false,
    migrationsRun: input.migrationsRun ?? false,
    migrationsTableName: MIGRATIONS_TABLE,
    // One transaction per migration: a failing one leaves the earlier ones applied and recorded.
    migrationsTransactionMode: 'each',
    migrations: [...(input.migrations ?? [])] as DataSourceOptions['migrations'],
    entities: input.entities ?? [],
    logging: input.logging ?? false,
    applicationName: input.applicationName ?? 'bismarck',
    poolSize,
    extra: { max: poolSize },
  };
}
