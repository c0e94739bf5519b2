import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { followPrimary } from './primary';

export type MigrationClass = new () => unknown;

export interface PostgresOptionsInput {
  readonly url: string;
  /** Migration classes, e.g. [...eventStoreMigrations, ...projectionMigrations]. */
  readonly migrations?: readonly MigrationClass[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly entities?: MixedList<Function | string | EntitySchema>;
  /** pg pool size (extra.max). Default 10. Forced to 1 when `embedded` is true. */
  readonly poolSize?: number;
  /**
   * True for the embedded PGlite (resolveDatabaseUrl().embedded). The pool then has ONE connection:
   * pglite-socket runs every connection in the same Postgres session and interleaves their
   * extended-protocol messages (Parse/Bind/Execute), so two connections at once can run each
   * other's unnamed statements ("portal does not exist", empty results). One session gives no
   * concurrency to lose anyway: a transaction there blocks every other connection.
   */
  readonly embedded?: boolean;
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
  const poolSize = input.embedded ? 1 : (input.poolSize ?? DEFAULT_POOL_SIZE);
  // A URL with several hosts (a replicated database) gets a Client class that follows the primary.
  const { url, ...following } = followPrimary(input.url);
  return {
    type: 'postgres',
    url,
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
    // A command is acknowledged only after its commit is durable (flushed to the WAL), whatever the
    // server's or the database's default says. The embedded PGlite never fsyncs (docs/operations.md).
    extra: input.embedded ? { max: poolSize } : { max: poolSize, options: '-c synchronous_commit=on', ...following },
  };
}
