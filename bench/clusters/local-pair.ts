// A primary and a synchronous streaming standby on this machine, without a failover manager: the
// failover test crashes the primary and promotes the standby itself, to test what the service does
// (test/failover.e2e-spec.ts). The drill uses the real manager instead (auto-failover.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { clusterDir, freePort, postgresBin, runAsPostgres, waitFor } from './postgres-tools';

export interface ReplicatedPair {
  /** libpq-style: the standby listed first, so following the primary is not luck. */
  readonly url: string;
  readonly primaryUrl: string;
  readonly standbyUrl: string;
  /** The primary's postmaster stopped at once (`pg_ctl stop -m immediate`: no shutdown checkpoint). */
  crashPrimary(): void;
  /** `pg_ctl promote` on the standby; resolves once it accepts writes. */
  promoteStandby(): Promise<void>;
  stop(): void;
}

const DATABASE = 'bismarck';

function startCluster(dataDir: string, port: number, socketDir: string, settings: string[]): void {
  const options = ['-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', ...settings.flatMap((s) => ['-c', s])];
  runAsPostgres(join(postgresBin(), 'pg_ctl'), ['-D', dataDir, '-l', `${dataDir}.log`, '-o', options.join(' '), '-w', '-t', '60', 'start']);
}

async function sql(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startReplicatedPair(): Promise<ReplicatedPair> {
  const dir = clusterDir('bismarck-pair-');
  const bin = postgresBin();
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
  const stopAll = () => {
    for (const d of [primaryDir, standbyDir]) {
      try {
        runAsPostgres(join(bin, 'pg_ctl'), ['-D', d, '-m', 'immediate', 'stop'], {}, 30_000);
      } catch {
        // not running
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runAsPostgres(join(bin, 'initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    startCluster(primaryDir, primaryPort, dir, []);
    await sql(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, `CREATE DATABASE ${DATABASE}`);
    runAsPostgres(join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '--checkpoint=fast']);
    // Promoted, it has no standby of its own: it must not wait for one.
    startCluster(standbyDir, standbyPort, dir, ["synchronous_standby_names=''"]);
    // From now on an acknowledged commit is on both nodes: the standby confirms the flush before the
    // commit returns (set only now: with no standby yet, CREATE DATABASE would wait for ever).
    await sql(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, `ALTER SYSTEM SET synchronous_standby_names = '*'`);
    await sql(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, 'SELECT pg_reload_conf()');
    await waitFor('the standby to stream', 30_000, async () => {
      const rows = await sql(url(primaryPort), `SELECT 1 FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'sync'`);
      return rows.length === 1 ? true : undefined;
    });
  } catch (err) {
    stopAll();
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${standbyPort},127.0.0.1:${primaryPort}/${DATABASE}?target_session_attrs=read-write`,
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    crashPrimary: () => runAsPostgres(join(bin, 'pg_ctl'), ['-D', primaryDir, '-m', 'immediate', 'stop'], {}, 30_000) && undefined,
    promoteStandby: async () => {
      runAsPostgres(join(bin, 'pg_ctl'), ['-D', standbyDir, '-w', 'promote']);
      await waitFor('the standby to accept writes', 30_000, async () => ((await sql(url(standbyPort), 'SELECT pg_is_in_recovery() AS r'))[0].r === false ? true : undefined));
    },
    stop: stopAll,
  };
}
