// Local PostgreSQL clusters for the drills and the failover test: Debian's server binaries run on
// their own ports and data directories, as the `postgres` user when we are root (the server refuses
// to run as root). Nothing here is used by the service itself.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const asRoot = process.getuid?.() === 0;

/** Debian's newest server binaries (/usr/lib/postgresql/<major>/bin), or PG_BIN. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))) : [];
  if (majors.length === 0) throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql (run bash scripts/ensure.sh postgres)');
  return join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** The uid/gid the clusters run as: `postgres` when we are root, else ourselves. */
function owner(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run the clusters as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A fresh directory the cluster user owns. */
export function clusterDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const who = owner();
  if (who) chownSync(dir, who.uid, who.gid);
  chmodSync(dir, 0o700);
  return dir;
}

/** Environment and identity for a command run as the cluster user. */
function spawnOptions(env: NodeJS.ProcessEnv = {}): { uid?: number; gid?: number; env: NodeJS.ProcessEnv } {
  const who = owner();
  const home = who ? '/var/lib/postgresql' : process.env.HOME;
  const merged: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${postgresBin()}:${process.env.PATH ?? ''}` };
  // The caller's libpq settings (an empty PGPORT is an error) are not the cluster's.
  for (const name of ['PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE', 'PGDATA', 'DATABASE_URL']) delete merged[name];
  return { ...(who ?? {}), env: { ...merged, ...env } };
}

/** Runs a command as the cluster user and returns its stdout; throws with its stderr. */
export function runAsPostgres(command: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): string {
  try {
    return execFileSync(command, args, { ...spawnOptions(env), cwd: '/', encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/** Starts a long-running command as the cluster user, in a process group of its own (killTree). */
export function spawnAsPostgres(command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn('sh', ['-c', `exec "$0" "$@" >>'${logFile}' 2>&1`, command, ...args], { ...spawnOptions(env), cwd: '/', detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

/** Every descendant of a process, from /proc (children first). */
export function descendants(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.flatMap((c) => [...descendants(c), c]);
}

/** SIGKILL a process and everything under it at once: a machine lost, not a shutdown. */
export function killTree(pid: number): number {
  const all = [...descendants(pid), pid];
  for (const p of all) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return all.length;
}

/** The processes whose command line mentions `needle` (e.g. a data directory). */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(needle))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value (not undefined) or `ms` pass. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined> | T | undefined, everyMs = 250): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(everyMs);
  }
}
