import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { acquireDataDirLock } from './data-dir-lock';
import { postgresDataSourceOptions, type MigrationClass } from './data-source';
import { openDataSource } from './guard';
import { runMigrationsLocked } from './migrate';
import { pruneScratchDirectories, pruneSnapshots, savedSnapshots, touchSnapshot, type SavedSnapshots } from './snapshots';

export interface EmbeddedPostgresOptions {
  /**
   * A directory that survives restarts; or 'memory' (nothing on disk) or 'scratch' (a directory of its
   * own in the temp folder, removed at stop: it starts fastest, `bismarck play`). Default: env
   * BISMARCK_DATA_DIR, else ./.data/pglite.
   */
  readonly dataDir?: string;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Connections the socket server accepts; keep it above every pool size plus listeners. Default 32. */
  readonly maxConnections?: number;
  /** Give up when the database is not serving after this long. Default 60 s. */
  readonly startTimeoutMs?: number;
  /**
   * For 'memory' and 'scratch' only: the database starts with these applied, from a snapshot saved the first time
   * (snapshots.ts), so a test or `bismarck play` skips initdb and the migrations.
   */
  readonly migrations?: readonly MigrationClass[];
}

export interface EmbeddedPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** The absolute directory the data lives in, or 'memory' or 'scratch'. */
  readonly dataDir: string;
  /**
   * For 'scratch': the directory of its own, `<temp>/bismarck-scratch-<pid of its server>-<random>`,
   * removed at stop. The pid names its owner: another start prunes it only once that process is gone.
   */
  readonly scratchDir?: string;
  /** Closes the socket server, then the database, and waits for its process to end. Idempotent. */
  stop(): Promise<void>;
}

export const DEFAULT_EMBEDDED_DATA_DIR = './.data/pglite';
export const DEFAULT_EMBEDDED_MAX_CONNECTIONS = 32;

/**
 * The embedded server's own process. PGlite runs its WebAssembly Postgres synchronously, so keeping
 * it out of the app's process keeps the app's event loop free while a query runs. (It also has to:
 * PGlite loads parts of itself with dynamic import(), which fails inside jest's module sandbox.)
 * It exits when its parent goes away (the IPC channel closes), so it never outlives the app.
 */
const CHILD_SCRIPT = `
const [pglitePath, socketPath, dataDir, port, maxConnections, startFrom, clusterPath] = process.argv.slice(1);
const fs = require('node:fs');
const path = require('node:path');
// 'scratch': a directory of its own in the temp folder, named by this process (its owner: pruning
// removes it only once this pid is gone), removed when the database stops.
const scratch = dataDir === 'scratch' ? fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'bismarck-scratch-' + process.pid + '-')) : undefined;
(async () => {
  const { PGlite } = require(pglitePath);
  const { PGLiteSocketServer } = require(socketPath);
  const { db, from } = dataDir === 'memory' || scratch ? await openThrowAway(PGlite) : { db: await PGlite.create(dataDir), from: 'directory' };
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: Number(port), maxConnections: Number(maxConnections) });
  wholeBatches(server.queryQueue, db);
  await server.start();
  let stopping;
  const stop = () => (stopping ??= (async () => {
    try { await server.stop(); } catch {}
    try { await db.close(); } catch {}
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    process.exit(0);
  })());
  process.on('message', (m) => {
    if (m === 'stop') stop();
    else if (m && m.saveTo) save(PGlite, db, m.saveTo).then(() => process.send({ saved: true }), (err) => process.send({ saved: false, error: String(err) }));
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.send({ ready: server.getServerConn(), from, scratch });
})().catch((err) => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  process.send?.({ error: String(err && err.stack || err) });
  process.exit(1);
});

// PGlite is one session. pglite-socket takes the connections' protocol messages in turn, one message at
// a time, and keeps one connection's turn only inside a transaction: two connections' Parse, Bind,
// Execute, Sync batches then interleave, and one connection's query runs with the other's parameters
// or answers the other's rows (electric-sql/pglite#1046; with several api instances on one embedded
// database, as the tests run them, a seat token was found in another match). Here a connection keeps its
// turn from the first message of a batch to its Sync (or a simple Query), and a message that fails
// fails alone instead of stopping the queue for good.
function wholeBatches(queue, db) {
  const midBatch = new Set();
  queue.processQueue = async function () {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = this.lastHandlerId;
        const pinned = owner !== null && (midBatch.has(owner) || db.isInTransaction());
        const at = pinned ? this.queue.findIndex((q) => q.handlerId === owner) : 0;
        if (at === -1) break; // the owner's next message has not come yet: its enqueue starts the queue again
        const [item] = this.queue.splice(at, 1);
        let bytes = 0;
        try {
          await db.runExclusive(() => db.execProtocolRawStream(item.message, { onRawData: (data) => { bytes += data.length; item.onData(data); } }));
          item.resolve(bytes);
        } catch (err) {
          item.reject(err);
        }
        this.lastHandlerId = item.handlerId;
        // Sync (S), Query (Q) and Terminate (X) end a batch; a startup message (its length first: 0) is whole.
        const kind = item.message[0];
        if (kind === 0x53 || kind === 0x51 || kind === 0x58 || kind === 0) midBatch.delete(item.handlerId);
        else midBatch.add(item.handlerId);
      }
    } finally {
      this.processing = false;
    }
  };
  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async function (handlerId) {
    midBatch.delete(handlerId); // gone mid-batch: the others go on
    await clearTransaction(handlerId);
    await this.processQueue();
  };
}

// initdb takes ~3 s of WebAssembly. Unpacking a saved cluster into memory takes ~0.7 s; copying a
// saved directory and opening the copy ~0.3 s (PGlite reads the files as it needs them).
async function openThrowAway(PGlite) {
  for (const [saved, from] of [[startFrom, 'migrated'], [clusterPath, 'cluster']]) {
    if (!saved || !fs.existsSync(saved)) continue;
    try {
      let db;
      if (scratch) {
        fs.cpSync(saved, scratch, { recursive: true });
        db = await PGlite.create(scratch);
      } else db = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(saved)]) });
      await db.query('SELECT 1');
      return { db, from };
    } catch { // unreadable: the next way
      if (scratch) { fs.rmSync(scratch, { recursive: true, force: true }); fs.mkdirSync(scratch); }
    }
  }
  const db = scratch ? await PGlite.create(scratch) : await PGlite.create();
  if (clusterPath) await save(PGlite, db, clusterPath).catch(() => undefined); // a read-only cache costs the next start its initdb
  return { db, from: 'initdb' };
}

// A snapshot is a gzipped tarball (memory) or a data directory (scratch), written under another name
// and renamed: a reader sees all of it or none.
async function save(PGlite, db, target) {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = target + '.' + process.pid;
  fs.rmSync(partial, { recursive: true, force: true });
  if (target.endsWith('.tar.gz')) {
    fs.writeFileSync(partial, Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer()));
  } else {
    const copy = await PGlite.create(partial, { loadDataDir: await db.dumpDataDir('none') });
    await copy.close();
  }
  try {
    fs.renameSync(partial, target);
  } catch (err) { // another process saved the same snapshot first
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(target)) throw err;
  }
}
`;

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) in a child process, served over the Postgres
 * wire protocol on 127.0.0.1, so the app uses the same pg/TypeORM code path as with a real server.
 *
 * What it is not: it is ONE Postgres session behind a query queue. A transaction blocks every other
 * connection until it ends (keep transactions short; never open a second connection inside one),
 * LISTEN/NOTIFY does not cross connections, and it never fsyncs.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const configured = options.dataDir ?? process.env.BISMARCK_DATA_DIR ?? DEFAULT_EMBEDDED_DATA_DIR;
  const throwAway = configured === 'memory' || configured === 'scratch';
  const dataDir = throwAway ? configured : resolve(configured);
  // Before the child opens the directory: a second process on it would serve its own diverging copy.
  const lock = throwAway ? undefined : await acquireDataDirLock(dataDir);
  let child: ChildProcess | undefined;
  let exited: Promise<void> | undefined;
  let hostPort: string;
  let from: string;
  let scratchDir: string | undefined;
  let snapshots: SavedSnapshots | undefined;
  try {
    // Node's own resolution (not a bundler's or jest's): the child loads the CommonJS builds.
    const nodeRequire = createRequire(__filename);
    if (throwAway) {
      snapshots = savedSnapshots(dataDir === 'scratch' ? 'directory' : 'tarball', options.migrations);
      if (dataDir === 'scratch') pruneScratchDirectories();
    }
    child = spawn(
      process.execPath,
      [
        '-e',
        CHILD_SCRIPT,
        nodeRequire.resolve('@electric-sql/pglite'),
        nodeRequire.resolve('@electric-sql/pglite-socket'),
        dataDir,
        String(options.port ?? 0),
        String(options.maxConnections ?? DEFAULT_EMBEDDED_MAX_CONNECTIONS),
        snapshots?.migrated ?? '', // the child looks for each and takes the first it finds
        snapshots?.cluster ?? '',
      ],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    exited = exitOf(child);
    if (child.pid) lock?.setServerPid(child.pid);
    ({ hostPort, from, scratchDir } = await waitReady(child, options.startTimeoutMs ?? 60_000));
  } catch (err) {
    // The directory is free only once the child is gone.
    if (child?.pid && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (child?.pid) await exited;
    lock?.release();
    throw err;
  }
  // Do not keep the app alive for the database's sake; the child follows the app when it exits.
  child.unref();
  child.channel?.unref();
  let stopping: Promise<void> | undefined;
  const embedded: EmbeddedPostgres = {
    url: `postgres://postgres@${hostPort}/postgres`,
    dataDir,
    scratchDir,
    stop() {
      stopping ??= (async () => {
        child.ref();
        child.channel?.ref();
        if (child.connected) child.send('stop');
        else child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
        lock?.release();
      })();
      return stopping;
    },
  };
  if (options.migrations?.length && throwAway) {
    try {
      await startMigrated(embedded, child, options.migrations, from, snapshots?.migrated);
    } catch (err) {
      await embedded.stop();
      throw err;
    }
  }
  return embedded;
}

/** Applies the migrations unless the database came from their snapshot, then saves that snapshot for next time. */
async function startMigrated(db: EmbeddedPostgres, child: ChildProcess, migrations: readonly MigrationClass[], from: string, snapshot?: string): Promise<void> {
  if (from === 'migrated') {
    if (snapshot) touchSnapshot(snapshot);
    return;
  }
  const dataSource = await openDataSource(postgresDataSourceOptions({ url: db.url, embedded: true, migrations }));
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
  if (!snapshot) return;
  pruneSnapshots(dirname(snapshot));
  await new Promise<void>((done) => {
    // Whether or not it could be written (a read-only cache), the database is ready.
    const onMessage = (m: { saved?: boolean }) => {
      if (m.saved === undefined) return;
      child.off('message', onMessage);
      child.channel?.unref();
      done();
    };
    child.on('message', onMessage);
    child.channel?.ref(); // the answer is all this process waits for
    child.send({ saveTo: snapshot });
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
}

interface Ready {
  readonly hostPort: string;
  readonly from: string;
  readonly scratchDir?: string;
}

function waitReady(child: ChildProcess, timeoutMs: number): Promise<Ready> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`embedded PostgreSQL did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (err: Error | undefined, ready?: Ready) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
      if (err) reject(err);
      else resolvePromise(ready!);
    };
    const onMessage = (m: unknown) => {
      const msg = m as { ready?: string; from?: string; scratch?: string; error?: string };
      if (msg.ready) finish(undefined, { hostPort: msg.ready, from: msg.from ?? 'initdb', scratchDir: msg.scratch });
      else if (msg.error) finish(new Error(`embedded PostgreSQL failed to start: ${msg.error}`));
    };
    const onExit = (code: number | null) => finish(new Error(`embedded PostgreSQL exited during start (code ${code})`));
    const onError = (err: Error) => finish(err);
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.on('error', onError);
  });
}

export interface ResolvedDatabase {
  readonly url: string;
  /** True when no DATABASE_URL was set and an embedded PGlite was started. */
  readonly embedded: boolean;
  /** The embedded database's absolute directory (or 'memory'); undefined for DATABASE_URL. */
  readonly dataDir?: string;
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
  return { url: embedded.url, embedded: true, dataDir: embedded.dataDir, stop: () => embedded.stop() };
}
