export {
  startEmbeddedPostgres,
  resolveDatabaseUrl,
  DEFAULT_EMBEDDED_DATA_DIR,
  DEFAULT_EMBEDDED_MAX_CONNECTIONS,
} from './embedded';
export type { EmbeddedPostgres, EmbeddedPostgresOptions, ResolvedDatabase } from './embedded';
export { acquireDataDirLock, DataDirectoryLockedError, DATA_DIR_LOCK_FILE } from './data-dir-lock';
export type { DataDirLock, DataDirLockHolder, DataDirLockOptions } from './data-dir-lock';
export { postgresDataSourceOptions, MIGRATIONS_TABLE, DEFAULT_POOL_SIZE } from './data-source';
export type { PostgresOptionsInput, MigrationClass } from './data-source';
export { guardConnectionErrors, openDataSource } from './guard';
export { pgPool } from './pool';
export { runMigrationsLocked, pgConfigFromDataSource, newPgClient, MIGRATION_LOCK_KEY } from './migrate';
export type { PgConnectionConfig } from './migrate';
export { parseHosts, followPrimary, primaryFinder, primaryClientClass, PrimaryFinder, StandbyReachedError, FAILOVER_CONNECT_TIMEOUT_MS } from './primary';
export type { DatabaseHost, HostList, SessionTarget } from './primary';
export { savedSnapshots, migrationsKey, pruneScratchDirectories } from './snapshots';
export { recordMigration } from './recorded';
export type { RecordedMigration, RecordedStatement } from './recorded';
export type { SavedSnapshots } from './snapshots';
