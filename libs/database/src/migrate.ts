import { Client } from 'pg';
import type { DataSource, Migration } from 'typeorm';

/** The session advisory lock key that serialises migration runs across processes ('bismarck-migrations'). */
export const MIGRATION_LOCK_KEY = 0x6269736d6172636bn; // "bismarck" in ASCII

/** pg client settings taken from a TypeORM postgres DataSource (url or discrete fields). */
export function pgConfigFromDataSource(dataSource: DataSource): import('pg').ClientConfig {
  const o = dataSource.options as {
    url?: string; host?: string; port?: number; username?: string; password?: unknown;
    database?: string; ssl?: unknown; applicationName?: string;
  };
  return {
    connectionString: o.url,
    host: o.host,
    port: o.port,
    user: o.username,
    password: o.password as string | undefined,
    database: o.database,
    ssl: o.ssl as import('pg').ClientConfig['ssl'],
    application_name: o.applicationName,
  };
}

/**
 * Runs the pending migrations of an initialised DataSource, at most one process at a time.
 *
 * A session advisory lock is held on a dedicated connection (not from the pool, so a pool of one
 * cannot deadlock) around TypeORM's runMigrations; a second process starting at the same moment
 * waits, then finds everything applied in TypeORM's migrations table and does nothing.
 * On the embedded database (one session) the lock is trivially re-entrant, which is fine: there is
 * only one process.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  const lock = new Client(pgConfigFromDataSource(dataSource));
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    // Literal SQL (simple protocol): one message, never interleaved with another connection's.
    await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    await lock.end();
  }
}
