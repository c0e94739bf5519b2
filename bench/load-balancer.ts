// nginx in front of api instances on 127.0.0.1, as the reference deployment runs it (docker/nginx/):
// the same http-context text (docker/nginx/bismarck.conf), a generated upstream list, and a main
// config of our own in a temporary directory (pid, logs, temp files): nothing system-wide is read or
// written. nginx runs as a child process (`daemon off`) and is stopped with it.
// Debian's nginx is installed by `scripts/ensure.sh nginx`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './clusters/postgres-tools';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How nginx spreads the requests: by match id (the deployment's), round robin, or all to one instance. */
export type Routing = 'hashed' | 'roundRobin' | 'oneInstance';

export interface LoadBalancer {
  port: number;
  /** nginx's master and worker processes (for their CPU). */
  pids(): number[];
  stop(): Promise<void>;
}

/** The shared http-context config: docker/nginx/bismarck.conf, from the source tree or from dist/. */
const SHARED = ['../docker/nginx/bismarck.conf', '../../docker/nginx/bismarck.conf'].map((p) => join(__dirname, p));
const LISTEN = /^(\s*)listen 8080;$/m;

/** The upstream block's contents (bismarck-upstream.conf): the balancing method and the instances' ports. */
export function upstreamConf(routing: Routing, ports: readonly number[]): string {
  const servers = routing === 'oneInstance' ? ports.slice(0, 1) : ports;
  // Without a balancing directive nginx goes round robin.
  const method = routing === 'hashed' ? 'hash $match_id consistent;\n' : '';
  return method + servers.map((p) => `server 127.0.0.1:${p};\n`).join('');
}

/** The main config: one worker, every path inside `dir`, and the shared text listening on 127.0.0.1:port. */
function mainConf(dir: string, port: number): string {
  const shared = SHARED.find((p) => existsSync(p));
  if (!shared) throw new Error(`docker/nginx/bismarck.conf is missing (looked in ${SHARED.join(', ')})`);
  const text = readFileSync(shared, 'utf8');
  if (!LISTEN.test(text)) throw new Error(`${shared} has no "listen 8080;" line for the bench to point at 127.0.0.1`);
  writeFileSync(join(dir, 'bismarck.conf'), text.replace(LISTEN, `$1listen 127.0.0.1:${port};`));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path ${join(dir, k)};`).join('\n');
  return `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 8192; }
http {
  access_log off;
${temp}
  include bismarck.conf;
}
`;
}

const nginxBinary = (): string => process.env.NGINX ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');


const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

/** Children of a process (nginx's workers), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return children;
}

/** nginx on a free port of 127.0.0.1 in front of the instances listening on `ports`; resolves once it accepts. */
export async function startLoadBalancer(routing: Routing, ports: readonly number[]): Promise<LoadBalancer> {
  const dir = mkdtempSync(join(tmpdir(), 'bismarck-nginx-'));
  // Run as root, nginx's workers drop to `nobody`: they must reach the temp paths below.
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'bismarck-upstream.conf'), upstreamConf(routing, ports));
  writeFileSync(join(dir, 'nginx.conf'), mainConf(dir, port));
  const child: ChildProcess = spawn(nginxBinary(), ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let spawnFailed = false;
  // A binary that is not there emits 'error' and never 'exit'.
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done());
    child.once('error', (e) => {
      stderr += String(e);
      spawnFailed = true;
      done();
    });
  });
  const errorLog = (): string => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const stop = async (): Promise<void> => {
    if (!spawnFailed && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (spawnFailed || child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const why = `nginx did not start (${nginxBinary()}; run bash scripts/ensure.sh nginx):\n${stderr}${errorLog()}`;
      await stop();
      throw new Error(why);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { port, pids: () => [child.pid!, ...childrenOf(child.pid!)], stop };
}
