import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  openDataSource as openPostgres,
  postgresDataSourceOptions,
  runMigrationsLocked,
  startEmbeddedPostgres,
  type MigrationClass,
} from '@bismarck/database';
import { eventStoreMigrations } from '@bismarck/event-store';

// A test on a database of its own (and the whole api on it, ./app) waits on that database, on the
// embedded PGlite one WebAssembly session every query queues for: a few dozen requests take well
// under a second on a quiet machine and several on a loaded two-core one, past jest's default 5 s.
// So every test file that uses this module, directly or through ./app, gets 30 s per test and hook
// by default; a file's own jest.setTimeout (which runs after its imports) or a test's own timeout wins.
// The chaos drill imports this module outside jest, where there is no jest global.
if (typeof jest !== 'undefined') jest.setTimeout(30_000);

/**
 * What starting a database and an api on it may take before a file's tests: a few seconds on a quiet
 * machine (PGlite's WebAssembly, the migrations, Nest's modules), over a minute on a crowded one.
 */
export const STARTUP_MS = 180_000;

export interface TestDatabase {
  readonly url: string;
  /** True when running on the embedded PGlite (no DATABASE_URL). */
  readonly embedded: boolean;
  /** Drops the database (real server) or stops the embedded PGlite. Close your DataSources first. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Migrations to apply; default: the event store's. */
  readonly migrations?: readonly MigrationClass[];
}

/** True when tests run against a real PostgreSQL server (DATABASE_URL set). */
export const onRealServer = Boolean(process.env.DATABASE_URL?.trim());

/**
 * A fresh, isolated, migrated database for one test file.
 * With DATABASE_URL: CREATE DATABASE <unique name> on that server, dropped by drop().
 * Without: an in-memory embedded PGlite of its own, stopped by drop().
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrations = options.migrations ?? eventStoreMigrations;
  const serverUrl = process.env.DATABASE_URL?.trim();
  let db: TestDatabase;
  if (serverUrl) {
    const name = `bismarck_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    db = {
      url: url.toString(),
      embedded: false,
      drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: 'memory', migrations });
    db = { url: embedded.url, embedded: true, drop: () => embedded.stop() };
  }
  try {
    const ds = await openDataSource(db, { migrations });
    try {
      await runMigrationsLocked(ds);
    } finally {
      await ds.destroy();
    }
  } catch (err) {
    await db.drop().catch(() => undefined);
    throw err;
  }
  return db;
}

/** An initialised TypeORM DataSource on a test database (a pool of one on the embedded PGlite). */
export async function openDataSource(
  db: Pick<TestDatabase, 'url' | 'embedded'>,
  options: { poolSize?: number; migrations?: readonly MigrationClass[] } = {},
): Promise<DataSource> {
  return openPostgres(
    postgresDataSourceOptions({
      url: db.url,
      embedded: db.embedded,
      poolSize: options.poolSize ?? 10,
      migrations: options.migrations ?? [],
    }),
  );
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface DatabaseFixture {
  db: TestDatabase;
  ds: DataSource;
}

/**
 * A fresh migrated database (the event store's migrations unless told others) and a pool on it for one test file:
 * opened before its tests; after them `beforeClose` runs (close the EventStores on the pool), then
 * the pool closes and the database is dropped. The handle is filled in by `beforeAll`, so use it
 * inside tests and hooks only.
 */
export function useTestDatabase(options: { poolSize?: number } & TestDatabaseOptions = {}, beforeClose?: () => Promise<unknown>): DatabaseFixture {
  const handle = {} as DatabaseFixture;
  beforeAll(async () => {
    handle.db = await createTestDatabase(options);
    handle.ds = await openDataSource(handle.db, options);
  }, STARTUP_MS);
  // Stopping an embedded database may take its 10 s before SIGKILL: more than jest's default 5 s for a hook.
  afterAll(async () => {
    await beforeClose?.();
    await handle.ds?.destroy();
    await handle.db?.drop();
  }, 60_000);
  return handle;
}

/** An inline projection function for event-store tests: records each call in `table`, and raises when `arg.fail` is 'yes'. */
export async function createRecordingInline(ds: DataSource, fn: string, table: string): Promise<void> {
  await ds.query(`CREATE TABLE ${table} (stream_id text, version int, arg jsonb)`);
  await ds.query(`
    CREATE FUNCTION ${fn}(p_stream text, p_version int, p_arg jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${table} VALUES (p_stream, p_version, p_arg);
      IF p_arg->>'fail' = 'yes' THEN RAISE EXCEPTION 'projection refused' USING ERRCODE = 'P0001'; END IF;
    END $$`);
}
