import { Client, type ClientConfig } from 'pg';
import type { DataSource, Migration } from 'typeorm';

/** pg settings for a connection of its own, with the Client class that follows the primary (primary.ts) when the URL lists several hosts. */
export type PgConnectionConfig = ClientConfig & { readonly Client?: typeof Client };

/** A new, unconnected client for `config`. */
export function newPgClient(config: PgConnectionConfig): Client {
  const { Client: ClientClass = Client, ...settings } = config;
  return new ClientClass(settings);
}

/** The session advisory lock key that serialises migration runs across processes ('bismarck-migrations'). */
export const MIGRATION_LOCK_KEY = 0x6269736d6172636bn; // "bismarck" in ASCII

/** pg client settings taken from a TypeORM postgres DataSource (url or discrete fields). */
export function pgConfigFromDataSource(dataSource: DataSource): PgConnectionConfig {
  const o = dataSource.options as {
    url?: string; host?: string; port?: number; username?: string; password?: unknown;
    database?: string; ssl?: unknown; applicationName?: string;
    extra?: { Client?: typeof Client; connectionTimeoutMillis?: number };
  };
  return {
    Client: o.extra?.Client,
    connectionTimeoutMillis: o.extra?.connectionTimeoutMillis,
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
  const lock = newPgClient(pgConfigFromDataSource(dataSource));
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
