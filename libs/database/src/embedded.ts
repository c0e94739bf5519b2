import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgresOptions {
  /** A directory that survives restarts, or 'memory'. Default: env BISMARCK_DATA_DIR, else ./.data/pglite. */
  readonly dataDir?: string;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Connections the socket server accepts; keep it above every pool size plus listeners. Default 32. */
  readonly maxConnections?: number;
}

export interface EmbeddedPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** The directory the data lives in, or 'memory'. */
  readonly dataDir: string;
  /** Closes the socket server, then the database. Close your pools first. Idempotent. */
  stop(): Promise<void>;
}

export const DEFAULT_EMBEDDED_DATA_DIR = './.data/pglite';
export const DEFAULT_EMBEDDED_MAX_CONNECTIONS = 32;

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) served over the Postgres wire protocol on
 * 127.0.0.1, so the app uses the same pg/TypeORM code path as with a real server.
 *
 * What it is not: it is ONE Postgres session behind a query queue. A transaction blocks every other
 * connection until it ends (keep transactions short; never open a second connection inside one),
 * LISTEN/NOTIFY does not cross connections, and it never fsyncs.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const dataDir = options.dataDir ?? process.env.BISMARCK_DATA_DIR ?? DEFAULT_EMBEDDED_DATA_DIR;
  let db: PGlite;
  if (dataDir === 'memory') {
    db = await PGlite.create();
  } else {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create(dir);
  }
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? DEFAULT_EMBEDDED_MAX_CONNECTIONS,
  });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  // getServerConn() reports the port actually bound (port 0 picks a free one).
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    dataDir,
    stop() {
      stopping ??= (async () => {
        await server.stop();
        await db.close();
      })();
      return stopping;
    },
  };
}

export interface ResolvedDatabase {
  readonly url: string;
  /** True when no DATABASE_URL was set and an embedded PGlite was started. */
  readonly embedded: boolean;
  /** Stops the embedded database; a no-op for DATABASE_URL. */
  stop(): Promise<void>;
}

/** DATABASE_URL when set (a real server), else a freshly started embedded PGlite. */
export async function resolveDatabaseUrl(
  options: EmbeddedPostgresOptions & { readonly env?: NodeJS.ProcessEnv } = {},
): Promise<ResolvedDatabase> {
  const env = options.env ?? process.env;
  const url = env.DATABASE_URL?.trim();
  if (url) return { url, embedded: false, stop: async () => undefined };
  const embedded = await startEmbeddedPostgres(options);
  return { url: embedded.url, embedded: true, stop: () => embedded.stop() };
}
