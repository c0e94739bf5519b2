// What the benches share: settings from flags or env, /proc readings, a scratch database, the api in
// its own process, a lean HTTP/1.1 client, and seeded matches folded locally with the rules engine.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import {
  decide,
  deckKey,
  evolve,
  initialState,
  mulberry32,
  randomCommand,
  seatToAct,
  shuffleDeck,
  type Command,
  type MatchOptions,
  type MatchState,
  type Seat,
} from '@bismarck/rules';
import { startEmbeddedPostgres } from '@bismarck/database';

// ---------------------------------------------------------------- settings
/** `--name=value` or `--name value` (npm run bench -- --instances 2). */
function parseFlags(args: string[]): Map<string, string> {
  const parsed = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) continue;
    const value = m[2] ?? (args[i + 1]?.startsWith('--') === false ? args[++i] : undefined);
    if (value === undefined) throw new Error(`--${m[1]} needs a value (--${m[1]}=value)`);
    parsed.set(m[1].toLowerCase().replace(/-/g, '_'), value);
  }
  return parsed;
}

/** Flags, then `<envPrefix>NAME` env: numbers ≥ 0 with a default. */
export function benchSettings(envPrefix = 'BENCH_', argv: string[] = process.argv.slice(2)): { setting(name: string): string | undefined; num(name: string, fallback: number): number } {
  const flags = parseFlags(argv);
  const setting = (name: string): string | undefined => flags.get(name.toLowerCase()) ?? process.env[`${envPrefix}${name.toUpperCase()}`];
  const num = (name: string, fallback: number): number => {
    const raw = setting(name);
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${envPrefix}${name.toUpperCase()} must be a number >= 0, got ${raw}`);
    return value;
  };
  return { setting, num };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Milliseconds on a clock that every process on this machine shares (for latencies across processes). */
export const wallMs = (): number => performance.timeOrigin + performance.now();
export const round = (x: number, digits = 0): number => Number(x.toFixed(digits));

/** The whole frames of the SSE text read so far (a blank line ends one), and what is left of the next. */
export function sseFrames(buffer: string): { frames: string[]; rest: string } {
  const parts = buffer.split('\n\n');
  return { frames: parts.slice(0, -1), rest: parts[parts.length - 1] };
}
export const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
export const logger =
  (name: string) =>
  (line: string): void =>
    console.error(`[${name} ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---------------------------------------------------------------- /proc
/** CPU seconds used by a process so far, in user space and in the kernel (its socket writes). */
export function processCpu(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) / 100, system: Number(f[12]) / 100 }; // clock ticks (USER_HZ = 100)
  } catch {
    return { user: NaN, system: NaN };
  }
}
/** CPU seconds (user + system) used by a process so far. */
export function processCpuSeconds(pid: number): number {
  const { user, system } = processCpu(pid);
  return user + system;
}
export function rssMbOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
export function cpuTimes(): { busy: number; total: number } {
  const [line] = readFileSync('/proc/stat', 'utf8').split('\n');
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}
export const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * CPU seconds so far of the database, per process: the `postgres` backends connected to the scratch
 * database (other databases' sessions are not ours) and the server's background processes (WAL
 * writer, checkpointer, …), or the embedded PGlite's process.
 */
export function databaseCpu(target: Pick<Target, 'embedded' | 'database'>): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      let mine: boolean;
      if (target.embedded) mine = comm === 'node' && Number(f[1]) === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('pglite');
      else if (comm !== 'postgres') mine = false;
      else {
        const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
        // A backend's title is "postgres: user database host(port) state"; a background process has no client.
        mine = !/\(\d+\)|\[local\]/.test(title) || title.includes(` ${target.database} `);
      }
      if (mine) cpu.set(Number(entry), (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      /* gone */
    }
  }
  return cpu;
}
/** CPU seconds the database used since `before` (processes that ended meanwhile are not counted). */
export function databaseCpuSince(target: Pick<Target, 'embedded' | 'database'>, before: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of databaseCpu(target)) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

// ---------------------------------------------------------------- database
export interface Target {
  url: string;
  embedded: boolean;
  /** The scratch database's name ('' embedded). */
  database: string;
  /** What the output says about where it ran. */
  where: string;
  drop(): Promise<void>;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** DATABASE_URL: the server the benches make their scratch databases on; unset, an in-memory PGlite (`embedded`). */
export const serverUrl = process.env.DATABASE_URL?.trim() || undefined;
export const embedded = serverUrl === undefined;

/** A scratch database on the server of `serverUrl` (never the target itself), or an in-memory PGlite. */
export async function openScratchDatabase(serverUrl: string | undefined, prefix: string): Promise<Target> {
  if (serverUrl) {
    const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      embedded: false,
      database: name,
      where: `PostgreSQL at ${url.hostname}:${url.port || 5432}, scratch database ${name} (dropped at the end)`,
      drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const pg = await startEmbeddedPostgres({ dataDir: 'memory' });
  return { url: pg.url, embedded: true, database: '', where: 'embedded PGlite (in memory; smaller default sizes)', drop: () => pg.stop() };
}

// ---------------------------------------------------------------- a server in its own process
export interface Server {
  child: ChildProcess;
  port: number;
  /** Bytes the server wrote to stdout and stderr (its logs). */
  logBytes: number;
  stop(): Promise<void>;
}

/**
 * The bench's servers still running, with the signal that stops them at once: a watchdog sends it
 * before it gives up (an api is killed; nginx is told to stop, so that its master stops its workers).
 */
export const running = new Map<number, NodeJS.Signals>();
// Even when a bench dies of an error it did not expect, it leaves no server behind.
process.on('exit', () => {
  for (const [pid, signal] of running) {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
});

/** How a bench runs the api: which build (dist's, or another one's main.js for before/after runs), with which node flags and LOG_LEVEL. */
export interface ApiSettings {
  apiMain?: string;
  apiNodeArgs: string[];
  logLevel: string;
}

/** The api in its own process on `databaseUrl`, on a free loopback port in production mode; `env` is the bench's own on top. */
export function startBenchApi(root: string, settings: ApiSettings, databaseUrl: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const main = settings.apiMain ? resolve(settings.apiMain) : join(root, 'dist/apps/api/src/main.js');
  const base = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: settings.logLevel, NODE_ENV: 'production' };
  return startServer(main, { ...base, ...env }, settings.apiNodeArgs, root);
}

/** A node server in its own process, once it printed `listening on http://localhost:<port>`. */
export async function startServer(main: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = [], cwd = process.cwd()): Promise<Server> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build`);
  // Its logs go into a pipe, as under a container runtime; the bench counts and drops them.
  const child = spawn(process.execPath, [...nodeArgs, main], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.set(child.pid!, 'SIGKILL');
  child.once('exit', () => running.delete(child.pid!));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const server: Server = {
    child,
    port: 0,
    logBytes: 0,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  let head = '';
  let tail = '';
  // An api that dies under the load says why on the bench's stderr.
  void exited.then(() => {
    if (child.exitCode || child.signalCode === 'SIGSEGV' || child.signalCode === 'SIGABRT') process.stderr.write(`${main} exited (${child.exitCode ?? child.signalCode}):\n${tail}\n`);
  });
  const listening = new Promise<number>((done, fail) => {
    const onData = (chunk: Buffer): void => {
      server.logBytes += chunk.length;
      tail = (tail + chunk.toString('utf8')).slice(-4000);
      if (server.port === 0 && head.length < 100_000) {
        head += chunk.toString('utf8');
        const m = /listening on http:\/\/localhost:(\d+)/.exec(head);
        if (m) done(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => fail(new Error(`${main} exited before listening:\n${head.slice(-4000)}`)));
    setTimeout(() => fail(new Error(`${main} did not start within 60 s:\n${head.slice(-4000)}`)), 60_000).unref();
  });
  try {
    server.port = await listening;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return server;
}

// ---------------------------------------------------------------- a lean HTTP client
export interface Reply {
  status: number;
  body: unknown;
}

/**
 * A lean HTTP/1.1 keep-alive client: one socket, one request at a time, answers read by
 * Content-Length. node:http costs the bench ~0.2 ms of CPU per request on this machine, CPU that
 * the service under test then lacks; this costs a fraction of it.
 */
export class Connection {
  private socket: Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { done: (r: Reply) => void; fail: (e: unknown) => void; timer?: NodeJS.Timeout } | undefined;
  /** When the socket last answered. */
  private idleSince = 0;

  /**
   * `localAddress`: the loopback address it comes from (127.0.0.0/8), so that the api counts clients apart.
   * `lasting`: for a long drill: a request unanswered after `timeoutMs` fails, a socket idle for `idleMs`
   * (near the server's keep-alive timeout, so perhaps closing) is opened again, and a request on a reused
   * socket that the server closed meanwhile (ECONNRESET, EPIPE) is sent once more on a new one.
   */
  constructor(
    private readonly port: number,
    private readonly localAddress?: string,
    private readonly lasting?: { timeoutMs: number; idleMs: number },
  ) {}

  private connect(): Promise<Socket> {
    return new Promise((done, fail) => {
      const socket = createConnection({ host: '127.0.0.1', port: this.port, noDelay: true, localAddress: this.localAddress }, () => done(socket));
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('error', (e) => {
        fail(e);
        if (this.socket === socket) this.drop(e);
      });
      socket.on('close', () => {
        // A socket we let go after its `Connection: close` answer fails nothing.
        if (this.socket === socket) this.drop(new Error('the api closed the connection'));
      });
    });
  }

  /** Lets the socket go and fails the request waiting on it. */
  private drop(error: unknown): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    const waiting = this.waiting;
    this.waiting = undefined;
    clearTimeout(waiting?.timer);
    waiting?.fail(error);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.toString('latin1', 0, end);
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!m) return this.drop(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
    const total = end + 4 + Number(m[1]);
    if (this.buffer.length < total) return;
    const body = this.buffer.toString('utf8', end + 4, total);
    this.buffer = this.buffer.subarray(total);
    // nginx closes a client's connection after keepalive_requests (1,000) answers: the next request opens another.
    if (/\r\nconnection: *close/i.test(head)) {
      this.socket?.end();
      this.socket = undefined;
      this.buffer = Buffer.alloc(0);
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    clearTimeout(waiting.timer);
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      /* not JSON */
    }
    this.idleSince = Date.now();
    waiting.done({ status: Number(head.slice(9, 12)), body: parsed });
  }

  async request(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    if (!this.lasting) return this.send(method, path, token, body, headers);
    if (this.socket && Date.now() - this.idleSince > this.lasting.idleMs) this.close();
    const reused = this.socket !== undefined;
    try {
      return await this.send(method, path, token, body, headers);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!reused || (code !== 'ECONNRESET' && code !== 'EPIPE' && !String(error).includes('closed the connection'))) throw error;
      return this.send(method, path, token, body, headers);
    }
  }

  private async send(method: string, path: string, token: string | undefined, body: unknown, headers: Record<string, string>): Promise<Reply> {
    this.socket ??= await this.connect();
    const payload = body === undefined ? '' : JSON.stringify(body);
    let text = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n`;
    if (token) text += `authorization: Bearer ${token}\r\n`;
    for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
    if (payload) text += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`;
    text += `\r\n${payload}`;
    return new Promise((done, fail) => {
      const timeoutMs = this.lasting?.timeoutMs;
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.drop(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)), timeoutMs);
      this.waiting = { done, fail, timer };
      this.socket!.write(text);
    });
  }

  close(): void {
    this.socket?.end();
    this.socket = undefined;
  }
}

// ---------------------------------------------------------------- seeded matches, folded here
export interface LocalMatch {
  id: string;
  seed: string;
  tokens: string[];
  state: MatchState;
  version: number;
  random: () => number;
}

interface CreatedReply {
  id: string;
  version: number;
  options: MatchOptions;
  firstDealer: Seat;
  seats: { seat: Seat; token: string }[];
}

export const PLAYERS: [string, string, string] = ['Astrid', 'Bjørn', 'Cecilia'];

/** A seeded match created through HTTP and folded locally: the bench knows every deck it will deal. */
export async function createSeededMatch(c: Connection, n: number, tag: string): Promise<LocalMatch> {
  const seed = `${tag}-${process.pid}-${n}-${randomBytes(6).toString('hex')}`;
  const reply = await c.request('POST', '/api/matches', undefined, { players: PLAYERS, seed });
  if (reply.status !== 201) throw new Error(`create answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  const created = reply.body as CreatedReply;
  const events = decide(
    { type: 'createMatch', matchId: created.id, players: PLAYERS, options: created.options, firstDealer: created.firstDealer, seeded: true },
    initialState(),
  );
  const state = events.reduce(evolve, initialState());
  if (events.length !== created.version) throw new Error(`local fold of the creation is at ${events.length}, the service at ${created.version}`);
  return { id: created.id, seed, tokens: created.seats.map((s) => s.token), state, version: events.length, random: mulberry32(n + 1) };
}

const ROUTE: Partial<Record<Command['type'], string>> = { deal: 'deal', chooseContract: 'contract', discard: 'discard', playCard: 'play' };

function bodyOf(command: Command): unknown {
  switch (command.type) {
    case 'chooseContract':
      return command.contract === 'trump' ? { contract: 'trump', trump: command.trump } : { contract: command.contract };
    case 'discard':
      return { cards: command.cards };
    case 'playCard':
      return { card: command.card };
    default:
      return undefined;
  }
}

/**
 * The next legal command of a match, decided locally and sent through HTTP; the local fold moves on
 * once the answer's version is the one expected. Answers when the answer came (`ackAt`, `wallMs`)
 * and how long it took (`ms`).
 */
export async function playNext(c: Connection, m: LocalMatch): Promise<{ type: Command['type']; from: number; to: number; ackAt: number; ms: number }> {
  // The service deals a seeded match shuffleDeck(deckKey(seed, cut), stream version + 1) (docs/fairness.md).
  const index = m.version + 1;
  const cut = m.state.status === 'awaitingDeal' ? m.state.cut : null;
  const command = randomCommand(m.state, { random: m.random, deck: () => shuffleDeck(deckKey(m.seed, cut), index) }, 0);
  if (command === null) throw new Error(`match ${m.id} has nothing to do`);
  const route = ROUTE[command.type];
  if (route === undefined) throw new Error(`the bench cannot send ${command.type}`);
  const events = decide(command, m.state);
  const seat = seatToAct(m.state)!;
  const body = bodyOf(command);
  const sentAt = wallMs();
  const reply = await c.request('POST', `/api/matches/${m.id}/${route}`, m.tokens[seat], body);
  const ackAt = wallMs();
  const expected = m.version + events.length;
  if (reply.status !== 200 || (reply.body as { version: number }).version !== expected) {
    throw new Error(`${command.type} on ${m.id} at ${m.version}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 500)} (expected version ${expected})`);
  }
  const from = m.version + 1;
  m.state = events.reduce(evolve, m.state);
  m.version = expected;
  return { type: command.type, from, to: expected, ackAt, ms: ackAt - sentAt };
}

/** Runs a bench's main and exits: 0 once it printed its JSON line, 1 (with the error) otherwise. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
