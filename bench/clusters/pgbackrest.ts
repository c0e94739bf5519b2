// A PostgreSQL cluster archiving its WAL with pgBackRest (Debian's package) into a repository in one
// temp directory, and point-in-time restores of it into new clusters on new ports: what
// `npm run drill:restore` (bench/drill-restore.ts) drives. pgBackRest finds its configuration through
// PGBACKREST_CONFIG, which every command and every postmaster here gets in its environment: the
// `archive_command` and the `restore_command` pgBackRest writes stay the plain ones a deployment uses
// (with /etc/pgbackrest/pgbackrest.conf), and each cluster names its own data directory and port.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { clusterDir, freePort, killTree, postgresBin, processesMentioning, runAsPostgres, waitFor } from './postgres-tools';

export const STANZA = 'bismarck';

export interface Cluster {
  readonly dataDir: string;
  readonly port: number;
  url(database: string): string;
  query<T = Record<string, unknown>>(database: string, text: string, params?: unknown[]): Promise<T[]>;
  /** `pg_ctl stop -m immediate` (no shutdown checkpoint: a crash as far as the data is concerned), then its data directory removed. */
  lose(): void;
}

export interface Archive {
  readonly dir: string;
  /** The cluster that archives into the repository (the one initdb made). */
  readonly primary: Cluster;
  /** Runs `pgbackrest <command>` as the cluster user with this cluster's configuration; returns stdout. */
  pgbackrest(cluster: Cluster, command: string, args?: string[], timeoutMs?: number): string;
  /** `backup --type=full` (a checkpoint at once, waits until the WAL it needs is archived). */
  backupFull(): { seconds: number; label: string; bytes: number; repoBytes: number };
  /** Closes the current WAL segment (pg_switch_wal) and resolves once the archiver has pushed it. */
  archiveCurrentWal(cluster: Cluster, ms?: number): Promise<string>;
  /** `restore --type=time --target=<target> --target-action=promote` into a new data directory, started on a new port; resolves once promoted. */
  restoreToTime(target: string, log?: (line: string) => void): Promise<{ cluster: Cluster; restoreSeconds: number; recoverySeconds: number; timeline: number }>;
  /** Stops every cluster (immediate) and anything else naming the directory, and removes it. Synchronous: safe in an exit handler. */
  cleanup(): void;
}

/** The settings of every cluster here (appended to postgresql.conf, so a restored cluster has them too). */
function serverSettings(socketDir: string): string {
  return [
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${socketDir}'`,
    'fsync = on',
    'wal_level = replica',
    'archive_mode = on',
    // pgBackRest pushes each finished segment before PostgreSQL may recycle it; %p is relative to the data directory.
    `archive_command = 'pgbackrest --stanza=${STANZA} archive-push %p'`,
    // On a lost machine what was not archived is lost: a segment is closed at least this often.
    'archive_timeout = 60',
    '',
  ].join('\n');
}

/** One cluster's pgbackrest.conf: the shared repository, and this cluster's data directory and port. */
function configText(dir: string, dataDir: string, port: number): string {
  return [
    '[global]',
    `repo1-path=${join(dir, 'repo')}`,
    'repo1-retention-full=2',
    `lock-path=${join(dir, 'pgbackrest-lock')}`,
    `log-path=${join(dir, 'pgbackrest-log')}`,
    'log-level-console=warn',
    'log-level-file=detail',
    // A checkpoint at once rather than the next scheduled one; both cores; lz4 is fast and small enough.
    'start-fast=y',
    'process-max=2',
    'compress-type=lz4',
    'archive-timeout=60',
    '',
    `[${STANZA}]`,
    `pg1-path=${dataDir}`,
    `pg1-port=${port}`,
    `pg1-socket-path=${dir}`,
    '',
  ].join('\n');
}

async function query<T>(url: string, text: string, params?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** initdb, the archiving settings, a repository and its stanza (`stanza-create`, then `check`: archiving works). */
export async function startArchivedCluster(database: string, log: (line: string) => void = () => undefined): Promise<Archive> {
  const dir = clusterDir('bismarck-restore-');
  const bin = postgresBin();
  const dataDirs: string[] = [];
  const configOf = new Map<Cluster, string>();

  const cleanup = (): void => {
    for (const dataDir of dataDirs) {
      if (!existsSync(join(dataDir, 'postmaster.pid'))) continue;
      try {
        runAsPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop'], {}, 30_000);
      } catch {
        // not running
      }
    }
    // An archive-push or a restore still at work, or a postmaster pg_ctl could not stop.
    for (const pid of processesMentioning(dir)) killTree(pid);
    rmSync(dir, { recursive: true, force: true });
  };

  /** A cluster on `dataDir` (initialized or restored), started on a free port with its own pgbackrest.conf. */
  const startCluster = async (dataDir: string, name: string): Promise<Cluster> => {
    const port = await freePort();
    const config = join(dir, `pgbackrest-${name}.conf`);
    writeFileSync(config, configText(dir, dataDir, port), { mode: 0o644 });
    const env = { PGBACKREST_CONFIG: config };
    runAsPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, `${name}.log`), '-o', `-p ${port}`, '-w', '-t', '120', 'start'], env, 150_000);
    const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
    const cluster: Cluster = {
      dataDir,
      port,
      url,
      query: (db, text, params) => query(url(db), text, params),
      lose: () => {
        runAsPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop'], {}, 30_000);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    configOf.set(cluster, config);
    return cluster;
  };

  const pgbackrest = (cluster: Cluster, command: string, args: string[] = [], timeoutMs = 300_000): string =>
    runAsPostgres('pgbackrest', [`--stanza=${STANZA}`, ...args, command], { PGBACKREST_CONFIG: configOf.get(cluster)! }, timeoutMs);

  try {
    runAsPostgres('mkdir', ['-p', join(dir, 'repo'), join(dir, 'pgbackrest-lock'), join(dir, 'pgbackrest-log')]);
    const primaryDir = join(dir, 'primary');
    dataDirs.push(primaryDir);
    runAsPostgres(join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    writeFileSync(join(primaryDir, 'postgresql.conf'), serverSettings(dir), { flag: 'a' });
    const primary = await startCluster(primaryDir, 'primary');
    await primary.query('postgres', `CREATE DATABASE ${database}`);
    pgbackrest(primary, 'stanza-create');
    // Fails at once (rather than a backup timing out) when archive_command does not work.
    pgbackrest(primary, 'check');
    log(`cluster on port ${primary.port} archiving into ${join(dir, 'repo')} (stanza ${STANZA})`);

    const archive: Archive = {
      dir,
      primary,
      pgbackrest,
      backupFull: () => {
        const started = performance.now();
        pgbackrest(primary, 'backup', ['--type=full']);
        const seconds = (performance.now() - started) / 1000;
        const [info] = JSON.parse(pgbackrest(primary, 'info', ['--output=json'])) as [{ backup: { label: string; info: { size: number; repository: { delta: number } } }[] }];
        const last = info.backup[info.backup.length - 1];
        return { seconds, label: last.label, bytes: last.info.size, repoBytes: last.info.repository.delta };
      },
      archiveCurrentWal: async (cluster, ms = 60_000) => {
        const [{ wal }] = await cluster.query<{ wal: string }>('postgres', 'SELECT pg_walfile_name(pg_switch_wal()) AS wal');
        // Segment names of one timeline sort in WAL order.
        await waitFor(`WAL ${wal} archived`, ms, async () => {
          const [s] = await cluster.query<{ last: string | null }>('postgres', 'SELECT last_archived_wal AS last FROM pg_stat_archiver');
          return s.last !== null && s.last >= wal ? true : undefined;
        });
        return wal;
      },
      restoreToTime: async (target, say = () => undefined) => {
        const started = performance.now();
        const restoredDir = join(dir, `restored-${dataDirs.length}`);
        dataDirs.push(restoredDir);
        runAsPostgres('mkdir', ['-m', '700', restoredDir]);
        // The repository alone: the base backup from before the target, then the archived WAL up to it.
        runAsPostgres(
          'pgbackrest',
          [`--stanza=${STANZA}`, `--pg1-path=${restoredDir}`, '--type=time', `--target=${target}`, '--target-action=promote', 'restore'],
          { PGBACKREST_CONFIG: configOf.get(primary)! },
          300_000,
        );
        const copied = performance.now();
        say(`restored the base backup into ${restoredDir} in ${((copied - started) / 1000).toFixed(1)} s; replaying WAL to ${target}`);
        const cluster = await startCluster(restoredDir, `restored-${dataDirs.length - 1}`);
        await waitFor('the restored cluster to reach the target and promote', 300_000, async () => {
          const [r] = await cluster.query<{ recovering: boolean }>('postgres', 'SELECT pg_is_in_recovery() AS recovering');
          return r.recovering ? undefined : true;
        }, 200);
        // The promotion's new timeline, from the WAL being written (pg_control shows it only after the next checkpoint).
        const [{ tli }] = await cluster.query<{ tli: string }>('postgres', 'SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) AS tli');
        const timeline = parseInt(tli, 16);
        const done = performance.now();
        return { cluster, restoreSeconds: (done - started) / 1000, recoverySeconds: (done - copied) / 1000, timeline };
      },
      cleanup,
    };
    return archive;
  } catch (err) {
    cleanup();
    throw err;
  }
}
