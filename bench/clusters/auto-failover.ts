// A pg_auto_failover formation on this machine: a monitor and two (or more) PostgreSQL nodes, each
// kept by its own `pg_autoctl run`, on free ports and in one temp directory. The drill
// (bench/drill-failover.ts) loses whole nodes (keeper and postmaster killed with SIGKILL, as when a
// machine dies) and brings them back; the manager does the failover, never we.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { clusterDir, freePort, killTree, postgresBin, processesMentioning, runAsPostgres, sleep, spawnAsPostgres, waitFor } from './postgres-tools';

export const FORMATION_DATABASE = 'bismarck';

/**
 * How fast the monitor gives up on a node (its defaults: 5 s checks, 20 s before "unhealthy", 30 s
 * for a lost primary to demote itself: about 32 s measured here). These bring a failover to about
 * 10 s on one machine; on a real network keep a margin over its worst pause (docs/operations.md).
 */
export const FAST_FAILOVER_SETTINGS: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.node_considered_unhealthy_timeout': 4000,
  'pgautofailover.primary_demote_timeout': 5000,
};

export interface NodeState {
  readonly name: string;
  readonly port: number;
  readonly reported: string;
  readonly assigned: string;
}

export interface Formation {
  readonly dir: string;
  /** libpq-style, every node listed, read-write wanted: what `pg_autoctl show uri` prints. */
  readonly url: string;
  readonly nodes: readonly { readonly name: string; readonly port: number }[];
  state(): Promise<NodeState[]>;
  /** The node the monitor has as the writable primary (single, wait_primary or primary, reported and assigned), if any. */
  primary(): Promise<NodeState | undefined>;
  /** SIGKILL the node's keeper and postmaster together (a machine lost); returns the processes killed. */
  killNode(name: string): number;
  /** Starts the node's keeper again; it rejoins as a standby (pg_rewind when needed). */
  restartNode(name: string): void;
  /** Resolves once there is one primary and every other running node is a synchronous secondary. */
  waitHealthy(ms?: number): Promise<void>;
  stop(): void;
}

const autoctl = 'pg_autoctl';

export async function startFormation(options: { nodes?: number; log?: (line: string) => void } = {}): Promise<Formation> {
  const log = options.log ?? (() => undefined);
  const count = options.nodes ?? 2;
  const dir = clusterDir('bismarck-formation-');
  // pg_autoctl keeps its configuration and state under XDG folders: ours, not the postgres user's home.
  const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run'), PG_CONFIG: join(postgresBin(), 'pg_config') };
  runAsPostgres('mkdir', ['-p', env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_RUNTIME_DIR]);
  const monitorPort = await freePort();
  const monitorDir = join(dir, 'monitor');
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const nodes: { name: string; port: number; dataDir: string; args: string[] }[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `node${i}`;
    const dataDir = join(dir, name);
    const port = await freePort();
    nodes.push({ name, port, dataDir, args: ['create', 'postgres', '--pgdata', dataDir, '--pgport', String(port), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--name', name, '--dbname', FORMATION_DATABASE, '--monitor', monitorUri, '--run'] });
  }
  const stop = (): void => {
    for (const pid of processesMentioning(dir)) killTree(pid);
    rmSync(dir, { recursive: true, force: true });
  };
  const query = async <T>(port: number, database: string, text: string): Promise<T[]> => {
    const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const state = async (): Promise<NodeState[]> =>
    (
      await query<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
        monitorPort,
        'pg_auto_failover',
        'SELECT nodename, nodeport, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid',
      )
    ).map((r) => ({ name: r.nodename, port: r.nodeport, reported: r.reportedstate, assigned: r.goalstate }));
  // wait_primary: a primary whose standby is gone, writing alone until one is back.
  const writable = new Set(['single', 'wait_primary', 'primary']);
  const primary = async () => (await state()).find((n) => writable.has(n.reported) && n.reported === n.assigned);

  try {
    spawnAsPostgres(autoctl, ['create', 'monitor', '--pgdata', monitorDir, '--pgport', String(monitorPort), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--run'], join(dir, 'monitor.log'), env);
    await waitFor('the monitor', 60_000, async () => ((await query(monitorPort, 'pg_auto_failover', 'SELECT 1 FROM pgautofailover.formation')).length ? true : undefined), 500);
    for (const [setting, value] of Object.entries(FAST_FAILOVER_SETTINGS)) await query(monitorPort, 'pg_auto_failover', `ALTER SYSTEM SET ${setting} = ${value}`);
    await query(monitorPort, 'pg_auto_failover', 'SELECT pg_reload_conf()');
    for (const [i, node] of nodes.entries()) {
      spawnAsPostgres(autoctl, node.args, join(dir, `${node.name}.log`), env);
      if (i === 0) await waitFor('the first node to be primary', 90_000, async () => ((await state()).some((n) => n.name === node.name && n.reported === 'single') ? true : undefined), 500);
      else {
        // pg_basebackup waits for a checkpoint that may be minutes away: ask for one now.
        await waitFor(`${node.name} to be a secondary`, 120_000, async () => {
          const p = await primary().catch(() => undefined);
          const ready = (await state()).find((n) => n.name === node.name);
          if (ready?.reported === 'secondary') return true;
          if (!p) return undefined;
          await query((await state()).find((n) => n.name === p.name)!.port, 'postgres', 'CHECKPOINT').catch(() => undefined);
          return undefined;
        }, 1000);
      }
      log(`formation: ${node.name} up on port ${node.port}`);
    }
  } catch (err) {
    stop();
    throw err;
  }

  const formation: Formation = {
    dir,
    url: `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${FORMATION_DATABASE}?target_session_attrs=read-write`,
    nodes: nodes.map(({ name, port }) => ({ name, port })),
    state,
    primary,
    killNode: (name) => {
      const node = nodes.find((n) => n.name === name);
      if (!node) throw new Error(`no node ${name}`);
      // The keeper's helpers and the postmaster all name the data directory, or descend from one that does.
      let killed = 0;
      for (const pid of processesMentioning(node.dataDir)) killed += killTree(pid);
      return killed;
    },
    restartNode: (name) => {
      const node = nodes.find((n) => n.name === name);
      if (!node) throw new Error(`no node ${name}`);
      spawnAsPostgres(autoctl, ['run', '--pgdata', node.dataDir], join(dir, `${node.name}.log`), env);
    },
    waitHealthy: async (ms = 180_000) => {
      await waitFor('one primary and synchronous secondaries', ms, async () => {
        const all = await state();
        const p = all.filter((n) => n.reported === 'primary' && n.assigned === 'primary');
        const others = all.filter((n) => n.reported !== 'primary');
        if (p.length !== 1 || !others.every((n) => n.reported === 'secondary' && n.assigned === 'secondary')) {
          // A rejoining node may wait on a checkpoint too.
          if (p.length === 1) await query(p[0].port, 'postgres', 'CHECKPOINT').catch(() => undefined);
          return undefined;
        }
        const sync = await query<{ n: number }>(p[0].port, 'postgres', `SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')`);
        return sync[0].n >= others.length ? true : undefined;
      }, 1000);
    },
    stop,
  };
  await sleep(0);
  return formation;
}
