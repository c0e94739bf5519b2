// `npm run bench`: the service beside raw PostgreSQL, in one run, on one machine.
//
//   1. raw appends   single-row INSERT transactions with pg, 16 clients, into a scratch table shaped
//                    like `events` (same columns and indexes, no trigger): one durable commit each.
//   2. commands      `play` (and the deal/contract/discard between deals) through HTTP, 16 clients,
//                    against the api in its own process (node dist/apps/api/src/main.js, PORT=0),
//                    over many seeded matches. The client folds every match locally with the rules
//                    engine (it knows each deck: shuffleDeck(seed, version + 1)), so it needs no GET.
//   2b. instances    with --instances N (N >= 2, DATABASE_URL required): N apis on the same database
//                    behind nginx (docker/nginx/bismarck.conf, bench/load-balancer.ts; installed by
//                    scripts/ensure.sh), and phase 2 through it: routed by match id (hash),
//                    round robin, to one instance only, and to one instance with 1/N of the clients
//                    (the load each instance gets), for the database's CPU and commits per command of
//                    each. First it checks that a live stream on one instance (and one through nginx)
//                    receives what is appended through another, and fails otherwise.
//   3. memory        the api's resident set (/proc/<pid>/status VmRSS) with all those matches in progress.
//      floor         an empty Nest + Express POST route with a class-validator DTO (bench/floor-app.ts)
//                    under the same clients: the highest rate the HTTP layer alone allows here.
//   4. log           simulated whole matches appended in a few big EventStore.append calls, then the
//                    whole log read in commit order with pg, then ProjectionRebuilder.rebuild() of it.
//   5. rules         libs/rules/bench (in its own process).
//
// With DATABASE_URL the bench creates a scratch database on that server and drops it at the end: the
// target database is never written. Without it, an in-memory embedded PGlite (smaller default sizes).
// Traffic goes to 127.0.0.1 only. The last line of the output is one JSON object.
//
// Sizes (env, --flag=value or --flag value): BENCH_INSTANCES (0: none), BENCH_SECONDS (commands phase, 20), BENCH_WARMUP_SECONDS (3),
// BENCH_CLIENTS (16), BENCH_MATCHES (1000), BENCH_RAW_SECONDS (8), BENCH_FLOOR_SECONDS (5; 0 skips), BENCH_EVENTS (500000; 100000
// embedded), BENCH_RULES_SECONDS (3), BENCH_LOG_LEVEL (the api's LOG_LEVEL; default: LOG_LEVEL or info),
// BENCH_POOL_SIZE (the api's DB_POOL_SIZE), BENCH_API_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"),
// BENCH_API_MAIN (another build of the api, for before/after runs),
// BENCH_TIMEOUT_SECONDS (900: the bench gives up).
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { decide, evolve, initialState, mulberry32, randomCommand, shuffleDeck, type BismarckEvent, type Seat } from '@bismarck/rules';
import { postgresDataSourceOptions, runMigrationsLocked } from '@bismarck/database';
import { EventStore, eventStoreMigrations } from '@bismarck/event-store';
import { streamMatchEvents } from '@bismarck/client';
import { foldOnto, UNBORN } from '@bismarck/match';
import { projectMatch, projectionMigrations, ProjectionRebuilder, scorecardChangedAt } from '@bismarck/projections';
import {
  benchSettings,
  Connection,
  cpuTimes,
  createSeededMatch,
  databaseCpu,
  databaseCpuSince,
  embedded,
  loadAverage,
  logger,
  openScratchDatabase,
  percentile,
  PLAYERS,
  playNext,
  processCpu,
  processCpuSeconds,
  rssMbOf,
  round,
  runBench,
  running,
  serverUrl,
  sleep,
  startBenchApi,
  startServer,
  type LocalMatch,
  type Server,
  type Target,
} from './common';
import { startLoadBalancer, type LoadBalancer, type Routing } from './load-balancer';

// ---------------------------------------------------------------- configuration
const { setting, num } = benchSettings('BENCH_');

const cfg = {
  seconds: num('seconds', 20),
  warmupSeconds: num('warmup_seconds', 3),
  clients: Math.max(1, Math.round(num('clients', 16))),
  matches: Math.max(1, Math.round(num('matches', 1000))),
  rawSeconds: num('raw_seconds', 8),
  events: Math.round(num('events', embedded ? 100_000 : 500_000)),
  rulesSeconds: num('rules_seconds', 3),
  /** The empty Nest route (bench/floor-app.ts); 0 skips it. */
  floorSeconds: num('floor_seconds', 5),
  logLevel: setting('log_level') ?? process.env.LOG_LEVEL ?? 'info',
  poolSize: setting('pool_size'),
  /** Extra node flags for the api process, e.g. --cpu-prof (space-separated). */
  apiNodeArgs: (setting('api_node_args') ?? '').split(' ').filter(Boolean),
  /** Another build of the api to measure (e.g. an older commit's dist/apps/api/src/main.js), for A/B runs. */
  apiMain: setting('api_main'),
  timeoutSeconds: num('timeout_seconds', 900),
  /** Api processes behind nginx for the routing comparison (2b); 0 runs none. */
  instances: Math.round(num('instances', 0)),
};
function refuse(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(1);
}
if (cfg.instances === 1) refuse('--instances needs 2 or more (the bench measures one instance anyway)');
if (cfg.instances > 1 && embedded) {
  refuse('--instances needs DATABASE_URL: the embedded database serves one process only (docs/operations.md), e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres');
}

const root = resolve(__dirname, '..', '..'); // dist/bench → the repository
const log = logger('bench');
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

// ---------------------------------------------------------------- database
function openDataSource(url: string, poolSize: number): Promise<DataSource> {
  return new DataSource(
    postgresDataSourceOptions({ url, embedded, poolSize, migrations: [...eventStoreMigrations, ...projectionMigrations], applicationName: 'bismarck-bench' }),
  ).initialize();
}

// ---------------------------------------------------------------- 1. raw appends
const RAW_DATA = JSON.stringify({ seat: 1, card: 'QH', deal: 3, trick: 7 });

async function rawAppends(target: Target): Promise<{ perSecond: number; p50Ms: number; p99Ms: number; count: number; dbCpuPerInsertMs: number; clientCpuPerInsertMs: number }> {
  const setup = new Client({ connectionString: target.url });
  await setup.connect();
  // Shaped like `events` (migrated before this runs): its columns, defaults, keys and indexes, and so
  // always in step with it; LIKE copies no trigger, so no append-only check and no function.
  await setup.query(`DROP TABLE IF EXISTS bench_raw_events`);
  await setup.query(`CREATE TABLE bench_raw_events (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)`);
  const clients = await Promise.all(
    Array.from({ length: cfg.clients }, async () => {
      const c = new Client({ connectionString: target.url });
      await c.connect();
      return c;
    }),
  );
  const latencies: number[] = [];
  let count = 0;
  const insert = async (c: Client, stream: string, version: number, record: boolean): Promise<void> => {
    const hash = createHash('sha256').update(`${stream}:${version}`).digest();
    const at = new Date().toISOString();
    const t = now();
    if (embedded) {
      // PGlite is one session behind pglite-socket, which interleaves the extended protocol of
      // concurrent connections: one simple-protocol message per statement instead.
      await c.query(
        `INSERT INTO bench_raw_events (stream_id, version, type, data, metadata, recorded_at, hash)
         VALUES ('${stream}', ${version}, 'CardPlayed', '${RAW_DATA}', '{"at":"${at}"}', '${at}', '\\x${hash.toString('hex')}')`,
      );
    } else {
      await c.query({
        name: 'bench_raw_insert',
        text: `INSERT INTO bench_raw_events (stream_id, version, type, data, metadata, recorded_at, hash)
               VALUES ($1, $2, 'CardPlayed', $3, $4, $5, $6)`,
        values: [stream, version, RAW_DATA, `{"at":"${at}"}`, at, hash],
      });
    }
    if (record) {
      latencies.push(now() - t);
      count++;
    }
  };
  let stop = false;
  let measuring = false;
  const workers = clients.map(async (c, i) => {
    const stream = `raw-${i}-${randomUUID()}`;
    for (let v = 1; !stop; v++) await insert(c, stream, v, measuring);
  });
  await sleep(Math.min(2000, cfg.rawSeconds * 250));
  const db0 = databaseCpu(target);
  const me0 = process.cpuUsage();
  measuring = true;
  const started = now();
  await sleep(cfg.rawSeconds * 1000);
  measuring = false;
  const elapsed = (now() - started) / 1000;
  const dbCpu = databaseCpuSince(target, db0);
  const me = process.cpuUsage(me0);
  stop = true;
  await Promise.all(workers);
  await Promise.all(clients.map((c) => c.end()));
  await setup.query(`DROP TABLE bench_raw_events`);
  await setup.end();
  const sorted = Float64Array.from(latencies).sort();
  return {
    perSecond: count / elapsed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    count,
    dbCpuPerInsertMs: (dbCpu * 1000) / count,
    clientCpuPerInsertMs: (me.user + me.system) / 1e3 / count,
  };
}

// ---------------------------------------------------------------- 2. the api in its own process
function startApi(databaseUrl: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    // Sixteen clients from one address are a load test, not an abuse: the per-address limit
    // (120,000 a minute) would answer 429 above 2,000 requests/s. The per-token limit stays on.
    RATE_LIMIT_PER_ADDRESS: '0',
    // The bench creates its 1,000 matches from one address too.
    RATE_LIMIT_CREATES_PER_ADDRESS: '0',
    STREAMS_PER_ADDRESS: '0',
  };
  // On PGlite the api gets the same single connection it uses when it starts PGlite itself; on a
  // server, BENCH_POOL_SIZE or the api's default (undefined: not passed on from this process's env).
  env.DB_POOL_SIZE = embedded ? '1' : cfg.poolSize || undefined;
  return startBenchApi(root, cfg, databaseUrl, env);
}

interface CommandsResult {
  commands: number;
  plays: number;
  seconds: number;
  commandsPerSecond: number;
  playsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  rssMb: number;
  heapUsedMb: number;
  inProgress: number;
  apiCpuPerCommandMs: number;
  apiCpuPercent: number;
  apiSystemCpuShare: number;
  dbCpuPerCommandMs: number;
  /** nginx's CPU (master and worker) per command; NaN without it. */
  nginxCpuPerCommandMs: number;
  /** Transactions committed per command: below 1 when appends are batched, above when commands need reads. */
  dbCommitsPerCommand: number;
  benchCpuPerCommandMs: number;
  machineBusyPercent: number;
  benchCpuPercent: number;
  logBytesPerCommand: number;
}

/** Where the commands phase sends its requests, and the processes whose CPU and memory it counts. */
interface Served {
  /** An api's port, or nginx's in front of `apis`. */
  port: number;
  apis: Server[];
  balancer?: LoadBalancer;
  /** The scratch database, for its transaction counts and its CPU. */
  database: Target;
  /** Clients sending commands at once (default BENCH_CLIENTS). */
  clients?: number;
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const apisCpu = (apis: Server[]): number => sum(apis.map((a) => processCpuSeconds(a.child.pid!)));
const apisSystemCpu = (apis: Server[]): number => sum(apis.map((a) => processCpu(a.child.pid!).system));
const balancerCpu = (lb: LoadBalancer | undefined): number => (lb ? sum(lb.pids().map(processCpuSeconds)) : NaN);

/** The api's heap in use (from its /metrics), asked of the instance itself rather than through nginx. */
async function heapUsedMbOf(api: Server): Promise<number> {
  const c = new Connection(api.port);
  try {
    const metrics = await c.request('GET', '/metrics');
    const heapUsed = /^nodejs_heap_size_used_bytes (\d+)/m.exec(String(metrics.body));
    return heapUsed ? Number(heapUsed[1]) / 1048576 : NaN;
  } finally {
    c.close();
  }
}

/**
 * Transactions the database has committed so far (a batch of appends is one; so is a read).
 * PostgreSQL's counters lag by up to a second; the lag is the same at both ends of a steady window,
 * so their difference still counts one window's worth.
 */
async function databaseCommits(c: Client): Promise<number> {
  const { rows } = await c.query<{ commits: string }>(`SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()`);
  return Number(rows[0]?.commits);
}

async function commandsPhase({ port, apis, balancer, database, clients = cfg.clients }: Served): Promise<CommandsResult> {
  const connections = Array.from({ length: clients }, () => new Connection(port));
  // Create the matches, 16 at a time.
  const matches: LocalMatch[] = [];
  let next = 0;
  const t0 = now();
  await Promise.all(
    connections.map(async (c) => {
      while (next < cfg.matches) matches.push(await createSeededMatch(c, next++, 'bench'));
    }),
  );
  log(`created ${matches.length} matches in ${round((now() - t0) / 1000, 1)} s`);

  const ready = [...matches];
  let created = matches.length;
  let stop = false;
  let measuring = false;
  let commands = 0;
  const playMs: number[] = [];
  /** Matches where a card has been played (past their first lay-away). */
  const playing = new WeakSet<LocalMatch>();
  const workers = connections.map(async (c) => {
    while (!stop) {
      const m = ready.shift();
      if (!m) {
        await sleep(1);
        continue;
      }
      const r = await playNext(c, m);
      if (r.type === 'playCard') playing.add(m);
      if (measuring) {
        commands++;
        if (r.type === 'playCard') playMs.push(r.ms);
      }
      // Keep the number of matches in progress: a finished match is replaced by a new one.
      ready.push(m.state.status === 'finished' ? await createSeededMatch(c, created++, 'bench') : m);
    }
  });
  // Warm-up: at least this long, and until every match has reached its first trick, so that the
  // measured traffic is plays but for the deal, contract and lay-away between two deals.
  const warmupEnds = now() + cfg.warmupSeconds * 1000;
  while (now() < warmupEnds || matches.some((m) => !playing.has(m))) await sleep(100);
  const logBytes0 = sum(apis.map((a) => a.logBytes));
  const apiCpu0 = apisCpu(apis);
  const apiSystem0 = apisSystemCpu(apis);
  const balancerCpu0 = balancerCpu(balancer);
  const benchCpu0 = process.cpuUsage();
  const machine0 = cpuTimes();
  const stats = new Client({ connectionString: database.url });
  await stats.connect();
  const commits0 = await databaseCommits(stats);
  const dbCpu0 = databaseCpu(database);
  measuring = true;
  const started = now();
  await sleep(cfg.seconds * 1000);
  measuring = false;
  const elapsed = (now() - started) / 1000;
  const apiCpu = apisCpu(apis) - apiCpu0;
  const apiSystem = apisSystemCpu(apis) - apiSystem0;
  const nginxCpu = balancerCpu(balancer) - balancerCpu0;
  const benchCpuUsed = process.cpuUsage(benchCpu0);
  const machine1 = cpuTimes();
  const dbCpu = databaseCpuSince(database, dbCpu0);
  const commits1 = await databaseCommits(stats);
  await stats.end();
  const logBytes = sum(apis.map((a) => a.logBytes)) - logBytes0;
  stop = true;
  await Promise.all(workers);
  for (const c of connections) c.close();
  const rssMb = sum(apis.map((a) => rssMbOf(a.child.pid!)));
  const heapUsedMb = sum(await Promise.all(apis.map(heapUsedMbOf)));
  const inProgress = ready.filter((m) => m.state.status !== 'finished').length;
  const sorted = Float64Array.from(playMs).sort();
  return {
    commands,
    plays: playMs.length,
    seconds: elapsed,
    commandsPerSecond: commands / elapsed,
    playsPerSecond: playMs.length / elapsed,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1],
    rssMb,
    heapUsedMb,
    inProgress,
    apiCpuPerCommandMs: (apiCpu * 1000) / commands,
    apiCpuPercent: (apiCpu / elapsed) * 100,
    apiSystemCpuShare: apiSystem / apiCpu,
    dbCpuPerCommandMs: (dbCpu * 1000) / commands,
    nginxCpuPerCommandMs: (nginxCpu * 1000) / commands,
    dbCommitsPerCommand: (commits1 - commits0) / commands,
    benchCpuPerCommandMs: ((benchCpuUsed.user + benchCpuUsed.system) / 1e3) / commands,
    machineBusyPercent: ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100,
    benchCpuPercent: ((benchCpuUsed.user + benchCpuUsed.system) / 1e6 / elapsed) * 100,
    logBytesPerCommand: logBytes / commands,
  };
}

// ---------------------------------------------------------------- 2b. several instances behind nginx
/** The phases of 2b, named as the JSON line's suffixes (dbCpuPerCommandMsHashed, …). */
type PhaseName = 'Hashed' | 'RoundRobin' | 'OneInstance' | 'OneInstanceEqualLoad';
interface RoutedPhase {
  name: PhaseName;
  routing: Routing;
  clients: number;
}
/**
 * Each process batches the appends that arrive while its statement runs (APPENDS_IN_FLIGHT): N
 * instances under the same clients see 1/N of them each and make smaller batches. The last phase
 * gives one instance the clients one of N gets, to tell that apart from what routing costs.
 */
const routedPhases = (): RoutedPhase[] => [
  { name: 'Hashed', routing: 'hashed', clients: cfg.clients },
  { name: 'RoundRobin', routing: 'roundRobin', clients: cfg.clients },
  { name: 'OneInstance', routing: 'oneInstance', clients: cfg.clients },
  { name: 'OneInstanceEqualLoad', routing: 'oneInstance', clients: Math.max(1, Math.round(cfg.clients / cfg.instances)) },
];

interface InstancesResult {
  phases: Record<PhaseName, CommandsResult>;
  /** The slowest delivery, from a command's answer by one instance to a stream on another (ms). */
  liveAcrossInstancesMaxMs: number;
}

/**
 * `--instances N`: N apis on the bench's database behind nginx (docker/nginx/bismarck.conf), and the
 * commands phase through it: routed by match id, round robin, to one instance only, and to one
 * instance with 1/N of the clients. Each phase starts its own matches; the database's CPU per
 * command tells what routing costs it.
 */
async function instancesPhase(database: Target): Promise<InstancesResult> {
  // (When it cannot install nginx, it says so, and startLoadBalancer fails with nginx's error.)
  spawnSync('bash', [join(root, 'scripts/ensure.sh'), 'nginx'], { stdio: ['ignore', 2, 2] });
  const apis = await Promise.all(Array.from({ length: cfg.instances }, () => startApi(database.url)));
  try {
    log(`instances: ${apis.map((a) => `pid ${a.child.pid} port ${a.port}`).join(', ')}`);
    const phases = {} as Record<PhaseName, CommandsResult>;
    for (const { name, routing, clients } of routedPhases()) {
      phases[name] = await behindBalancer(routing, apis, async (balancer) => {
        const r = await commandsPhase({ port: balancer.port, apis, balancer, database, clients });
        log(
          `commands through nginx, ${name} (${clients} clients): ${Math.round(r.commandsPerSecond)}/s, play p99 ${round(r.p99Ms, 2)} ms, ` +
            `database ${round(r.dbCpuPerCommandMs, 3)} ms of CPU and ${round(r.dbCommitsPerCommand, 3)} commits per command, ` +
            `nginx ${round(r.nginxCpuPerCommandMs, 3)} ms of CPU`,
        );
        return r;
      });
    }
    // Last: an instance keeps reading the log for a while after its last stream closes
    // (FEED_IDLE_STOP_MS), which a phase after this check would count as its database's CPU.
    const liveAcrossInstancesMaxMs = await behindBalancer('hashed', apis, (balancer) => liveAcrossInstances(apis, balancer.port));
    log(`live across instances: every event appended through one instance reached a stream on another and one through nginx, the slowest in ${round(liveAcrossInstancesMaxMs, 1)} ms`);
    return { phases, liveAcrossInstancesMaxMs };
  } finally {
    await Promise.all(apis.map((a) => a.stop()));
  }
}

/** Runs `work` with nginx in front of `apis` (stopped after, and by the watchdog). */
async function behindBalancer<T>(routing: Routing, apis: Server[], work: (balancer: LoadBalancer) => Promise<T>): Promise<T> {
  const balancer = await startLoadBalancer(routing, apis.map((a) => a.port));
  const [nginx] = balancer.pids();
  running.set(nginx, 'SIGTERM');
  try {
    return await work(balancer);
  } finally {
    await balancer.stop();
    running.delete(nginx);
  }
}

/**
 * A live stream opened on one instance, and one opened through nginx, receive every event appended
 * through another instance, in order, once each (LISTEN/NOTIFY on a real server): the bench fails
 * otherwise. Returns the slowest delivery after the command's answer.
 */
async function liveAcrossInstances(apis: Server[], balancerPort: number): Promise<number> {
  const [writer, reader] = apis;
  const connection = new Connection(writer.port);
  const match = await createSeededMatch(connection, -1, 'bench');
  const controller = new AbortController();
  const streams = [
    { name: `a stream on instance 2 (port ${reader.port})`, base: `http://127.0.0.1:${reader.port}` },
    { name: 'a stream through nginx', base: `http://127.0.0.1:${balancerPort}` },
  ].map((s) => ({ ...s, received: [] as { version: number; at: number }[] }));
  const reading = streams.map(async (s) => {
    try {
      for await (const e of streamMatchEvents(s.base, match.id, { signal: controller.signal, reconnect: false })) s.received.push({ version: e.version, at: now() });
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  });
  let slowest = 0;
  try {
    for (let i = 0; i < 12; i++) {
      await playNext(connection, match);
      const answered = now();
      for (const s of streams) {
        while (s.received.at(-1)?.version !== match.version) {
          if (now() - answered > 5000) {
            throw new Error(`${s.name} did not receive version ${match.version} of ${match.id}, appended through instance 1, within 5 s (it has ${s.received.length} events)`);
          }
          await sleep(2);
        }
        slowest = Math.max(slowest, s.received.at(-1)!.at - answered);
      }
    }
  } finally {
    controller.abort();
    await Promise.allSettled(reading);
    connection.close();
  }
  for (const s of streams) {
    const versions = s.received.map((r) => r.version);
    if (versions.some((v, i) => v !== i + 1)) throw new Error(`${s.name} received versions ${versions.join(',')}: not 1…${match.version} once each, in order`);
  }
  return slowest;
}

// ---------------------------------------------------------------- 3. the HTTP layer's own floor
/**
 * bench/floor-app.ts (an empty Nest + Express POST route with a class-validator DTO) under the same 16
 * lean clients: what the HTTP layer alone costs, and so the highest commands/s any Nest api could
 * reach on this machine while doing nothing else.
 */
async function floorPhase(): Promise<{ perSecond: number; cpuPerRequestMs: number; cpuPercent: number }> {
  const server = await startServer(join(root, 'dist/bench/floor-app.js'), { ...process.env, NODE_ENV: 'production' }, [], root);
  try {
    const connections = Array.from({ length: cfg.clients }, () => new Connection(server.port));
    let stop = false;
    let measuring = false;
    let count = 0;
    const workers = connections.map(async (c, i) => {
      while (!stop) {
        const r = await c.request('POST', `/floor/m${i}/play`, undefined, { card: 'AS' });
        if (r.status !== 200) throw new Error(`the floor app answered ${r.status}: ${JSON.stringify(r.body)}`);
        if (measuring) count++;
      }
    });
    await sleep(1000);
    const cpu0 = processCpuSeconds(server.child.pid!);
    measuring = true;
    const started = now();
    await sleep(cfg.floorSeconds * 1000);
    measuring = false;
    const elapsed = (now() - started) / 1000;
    const cpu = processCpuSeconds(server.child.pid!) - cpu0;
    stop = true;
    await Promise.all(workers);
    for (const c of connections) c.close();
    return { perSecond: count / elapsed, cpuPerRequestMs: (cpu * 1000) / count, cpuPercent: (cpu / elapsed) * 100 };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------- 4. a big log, read and rebuilt
/** Simulated whole modern matches, each appended in a few big appends with its inline projection. */
async function generateLog(store: EventStore, target: number, already: number): Promise<{ events: number; matches: number; seconds: number }> {
  const CHUNK = 250;
  const random = mulberry32(7);
  let written = 0;
  let matches = 0;
  const t0 = now();
  const base = Date.parse('2025-01-01T00:00:00Z');
  const one = async (n: number): Promise<void> => {
    const id = randomUUID();
    const seed = `bench-log-${n}`;
    const events = decide(
      { type: 'createMatch', matchId: id, players: PLAYERS, options: { schedule: 'modern' }, firstDealer: (n % 3) as Seat, seeded: true },
      initialState(),
    );
    let state = events.reduce(evolve, initialState());
    for (;;) {
      const index = events.length + 1;
      const command = randomCommand(state, { random, deck: () => shuffleDeck(seed, index) }, 0);
      if (command === null) break;
      for (const e of decide(command, state)) {
        state = evolve(state, e);
        events.push(e);
      }
    }
    const at = (i: number): string => new Date(base + n * 10_000_000 + i * 1000).toISOString();
    let folded = UNBORN;
    for (let from = 0; from < events.length; from += CHUNK) {
      const chunk: BismarckEvent[] = events.slice(from, from + CHUNK);
      folded = foldOnto(folded, chunk);
      const { version } = folded;
      await store.append(
        id,
        from,
        chunk.map((e, i) => ({ type: e.type, data: e.data, metadata: { at: at(from + i) } })),
        { inline: { fn: 'bismarck_project', arg: projectMatch(id, folded, { createdAt: at(0), updatedAt: at(version - 1) }, scorecardChangedAt(chunk, from + 1)) } },
      );
    }
    written += events.length;
  };
  const lanes = embedded ? 1 : 3;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (already + written < target) await one(matches++);
    }),
  );
  return { events: written, matches, seconds: (now() - t0) / 1000 };
}

/** The whole log in commit order with pg, keyset-paged like readAll (same query, no mapping). */
async function rawRead(url: string): Promise<{ events: number; seconds: number; perSecond: number }> {
  const c = new Client({ connectionString: url });
  await c.connect();
  const t0 = now();
  let after = { tx: '0', pos: '0' };
  let events = 0;
  for (;;) {
    const { rows } = await c.query({
      name: 'bench_read_all',
      text: `SELECT stream_id, version, type, data, metadata, recorded_at, position::text AS position, tx_id::text AS tx_id
               FROM events
              WHERE (events.tx_id, events.position) > ($1::xid8, $2::bigint)
                AND events.tx_id < pg_snapshot_xmin(pg_current_snapshot())
              ORDER BY events.tx_id, events.position LIMIT $3`,
      values: [after.tx, after.pos, 5000],
    });
    if (rows.length === 0) break;
    events += rows.length;
    const last = rows[rows.length - 1] as { tx_id: string; position: string };
    after = { tx: last.tx_id, pos: last.position };
  }
  const seconds = (now() - t0) / 1000;
  await c.end();
  return { events, seconds, perSecond: events / seconds };
}

// ---------------------------------------------------------------- 5. rules
function rulesBench(): { matchesPerSecond: number; matchesPerCpuSecond: number } {
  const script = join(root, 'dist/libs/rules/bench/rules.bench.js');
  const r = spawnSync(process.execPath, [script], { env: { ...process.env, BENCH_SECONDS: String(cfg.rulesSeconds) }, encoding: 'utf8', timeout: 120_000 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  const parsed = JSON.parse(last) as { matchesPerSecond: number; matchesPerCpuSecond: number };
  return { matchesPerSecond: parsed.matchesPerSecond, matchesPerCpuSecond: parsed.matchesPerCpuSecond };
}

// ---------------------------------------------------------------- main
/** The JSON line's fields of 2b: per routing, e.g. dbCpuPerCommandMsHashed. */
function instancesFields({ phases, liveAcrossInstancesMaxMs }: InstancesResult): Record<string, number> {
  const fields: Record<string, number> = { instances: cfg.instances };
  for (const { name: x } of routedPhases()) {
    const r = phases[x];
    fields[`dbCpuPerCommandMs${x}`] = round(r.dbCpuPerCommandMs, 3);
    fields[`commandsPerSecond${x}`] = Math.round(r.commandsPerSecond);
    fields[`p99Ms${x}`] = round(r.p99Ms, 2);
    fields[`apiCpuPerCommandMs${x}`] = round(r.apiCpuPerCommandMs, 3);
    fields[`nginxCpuPerCommandMs${x}`] = round(r.nginxCpuPerCommandMs, 3);
    fields[`dbCommitsPerCommand${x}`] = round(r.dbCommitsPerCommand, 3);
  }
  // The target: hash routing costs the database within 10 % of one instance.
  const toOne = (name: PhaseName, one: PhaseName = 'OneInstance'): number => round(phases[name].dbCpuPerCommandMs / phases[one].dbCpuPerCommandMs, 3);
  fields.dbCpuHashedToOneInstance = toOne('Hashed');
  fields.dbCpuRoundRobinToOneInstance = toOne('RoundRobin');
  fields.dbCpuHashedToOneInstanceEqualLoad = toOne('Hashed', 'OneInstanceEqualLoad');
  fields.liveAcrossInstancesMaxMs = round(liveAcrossInstancesMaxMs, 1);
  return fields;
}

function instancesTable({ phases }: InstancesResult, rawPerSecond: number): Record<string, Record<string, number | string>> {
  const rows: Record<string, Record<string, number | string>> = {};
  for (const { name, clients } of routedPhases()) {
    const r = phases[name];
    rows[`commands through nginx, ${cfg.instances} instances, ${name}, ${clients} clients`] = {
      perSecond: Math.round(r.commandsPerSecond),
      p50Ms: round(r.p50Ms, 2),
      p99Ms: round(r.p99Ms, 2),
      ratio: round(r.commandsPerSecond / rawPerSecond, 3),
    };
  }
  return rows;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const load0 = loadAverage();
  log(`config ${JSON.stringify(cfg)}; load average ${load0}`);
  const target = await openScratchDatabase(serverUrl, 'bismarck_bench');
  let api: Server | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  const watchdog = setTimeout(() => {
    log(`gave up after ${cfg.timeoutSeconds} s`);
    for (const [pid, signal] of running) process.kill(pid, signal);
    void target.drop().finally(() => process.exit(2));
  }, cfg.timeoutSeconds * 1000);
  watchdog.unref();
  try {
    log(`database: ${target.where}`);
    const ds = await openDataSource(target.url, embedded ? 1 : 4);
    cleanups.push(() => ds.destroy());
    await runMigrationsLocked(ds);

    log(`raw appends: ${cfg.clients} clients, ${cfg.rawSeconds} s`);
    const raw = await rawAppends(target);
    log(`raw appends: ${Math.round(raw.perSecond)}/s, p50 ${round(raw.p50Ms, 2)} ms, p99 ${round(raw.p99Ms, 2)} ms`);

    log(`api: starting (LOG_LEVEL=${cfg.logLevel})`);
    api = await startApi(target.url);
    await sleep(500);
    const rssIdleMb = rssMbOf(api.child.pid!);
    log(`api: pid ${api.child.pid}, port ${api.port}; commands for ${cfg.seconds} s after ${cfg.warmupSeconds} s warm-up`);
    const cmd = await commandsPhase({ port: api.port, apis: [api], database: target });
    log(`commands: ${Math.round(cmd.commandsPerSecond)}/s, play p50 ${round(cmd.p50Ms, 2)} ms, p99 ${round(cmd.p99Ms, 2)} ms, rss ${round(cmd.rssMb)} MB`);
    await api.stop();
    api = undefined;

    const instances = cfg.instances > 1 ? await instancesPhase(target) : undefined;

    const floor = cfg.floorSeconds > 0 ? await floorPhase() : undefined;
    if (floor) log(`an empty Nest POST route: ${Math.round(floor.perSecond)}/s, ${round(floor.cpuPerRequestMs, 3)} ms of CPU per request (${round(floor.cpuPercent)}% of a core)`);

    const store = new EventStore(ds, { notifications: 'none' });
    const [{ n: before }] = (await ds.query(`SELECT count(*)::int AS n FROM events`)) as { n: number }[];
    log(`log: ${before} events from the commands phase; generating up to ${cfg.events}`);
    const gen = await generateLog(store, cfg.events, before);
    log(`log: appended ${gen.events} events of ${gen.matches} simulated matches in ${round(gen.seconds, 1)} s (${Math.round(gen.events / gen.seconds)}/s)`);
    await ds.query(`VACUUM ANALYZE events`);

    const read = await rawRead(target.url);
    log(`raw read: ${read.events} events in ${round(read.seconds, 2)} s (${Math.round(read.perSecond)}/s)`);
    const rebuilder = new ProjectionRebuilder(store, ds, (work) => ds.transaction((m) => work(m)));
    const stats = await rebuilder.rebuild();
    const rebuildPerSecond = stats.events / (stats.ms / 1000);
    log(`rebuild: ${stats.events} events of ${stats.matches} matches in ${stats.ms} ms (${Math.round(rebuildPerSecond)}/s)`);
    const differences = await rebuilder.compare();
    const differing = differences.reduce((a, d) => a + d.onlyLive + d.onlyRebuilt, 0);
    await rebuilder.dropRebuildTables();
    // (Another build of the api may project differently: then the difference is only reported.)
    if (differing > 0 && !cfg.apiMain) throw new Error(`the rebuild differs from the live projections: ${JSON.stringify(differences)}`);
    if (stats.events !== read.events) throw new Error(`the rebuild read ${stats.events} events, the raw read ${read.events}`);
    await store.close();

    log(`rules bench: ${cfg.rulesSeconds} s`);
    const rules = rulesBench();

    const result = {
      database: embedded ? 'embedded' : 'postgresql',
      where: target.where,
      node: process.version,
      clients: cfg.clients,
      logLevel: cfg.logLevel,
      api: cfg.apiMain ?? 'dist/apps/api/src/main.js',
      rawAppendPerSecond: Math.round(raw.perSecond),
      rawAppendP50Ms: round(raw.p50Ms, 2),
      rawAppendP99Ms: round(raw.p99Ms, 2),
      rawDbCpuPerInsertMs: round(raw.dbCpuPerInsertMs, 3),
      rawClientCpuPerInsertMs: round(raw.clientCpuPerInsertMs, 3),
      commandsPerSecond: Math.round(cmd.commandsPerSecond),
      playsPerSecond: Math.round(cmd.playsPerSecond),
      p50Ms: round(cmd.p50Ms, 2),
      p90Ms: round(cmd.p90Ms, 2),
      p99Ms: round(cmd.p99Ms, 2),
      maxMs: round(cmd.maxMs, 1),
      ratio: round(cmd.commandsPerSecond / raw.perSecond, 3),
      nestFloorPerSecond: floor ? Math.round(floor.perSecond) : null,
      nestFloorCpuPerRequestMs: floor ? round(floor.cpuPerRequestMs, 3) : null,
      nestFloorCpuPercent: floor ? round(floor.cpuPercent) : null,
      nestFloorRatio: floor ? round(floor.perSecond / raw.perSecond, 3) : null,
      floorShare: floor ? round(cmd.commandsPerSecond / floor.perSecond, 3) : null,
      commands: cmd.commands,
      commandSeconds: round(cmd.seconds, 1),
      apiCpuPerCommandMs: round(cmd.apiCpuPerCommandMs, 3),
      apiCpuPercent: round(cmd.apiCpuPercent),
      apiSystemCpuShare: round(cmd.apiSystemCpuShare, 2),
      dbCpuPerCommandMs: round(cmd.dbCpuPerCommandMs, 3),
      dbCommitsPerCommand: round(cmd.dbCommitsPerCommand, 3),
      benchCpuPerCommandMs: round(cmd.benchCpuPerCommandMs, 3),
      benchClientCpuPercent: round(cmd.benchCpuPercent),
      machineBusyPercent: round(cmd.machineBusyPercent),
      logBytesPerCommand: round(cmd.logBytesPerCommand),
      ...(instances ? instancesFields(instances) : {}),
      rssMb: round(cmd.rssMb, 1),
      rssIdleMb: round(rssIdleMb, 1),
      heapUsedMb: round(cmd.heapUsedMb, 1),
      matchesInProgress: cmd.inProgress,
      logEvents: read.events,
      generatedEvents: gen.events,
      generatedEventsPerSecond: Math.round(gen.events / gen.seconds),
      rawReadPerSecond: Math.round(read.perSecond),
      rebuildEventsPerSecond: Math.round(rebuildPerSecond),
      rebuildRatio: round(rebuildPerSecond / read.perSecond, 3),
      rebuildMatches: stats.matches,
      rebuildEqualsLive: differing === 0,
      rulesMatchesPerSecond: rules.matchesPerSecond,
      rulesMatchesPerCpuSecond: rules.matchesPerCpuSecond,
      loadAverageBefore: load0,
      loadAverageAfter: loadAverage(),
      totalSeconds: round((Date.now() - startedAt) / 1000),
      commandsNote: 'commandsPerSecond counts every command (plays, and the deal/contract/discard between deals); latencies are of plays',
    };
    console.log(`bismarck bench on ${result.where}`);
    console.table({
      'raw INSERT transactions (pg)': { perSecond: result.rawAppendPerSecond, p50Ms: result.rawAppendP50Ms, p99Ms: result.rawAppendP99Ms, ratio: 1 },
      'commands through HTTP': { perSecond: result.commandsPerSecond, p50Ms: result.p50Ms, p99Ms: result.p99Ms, ratio: result.ratio },
      'empty Nest POST route (no game, no database)': { perSecond: result.nestFloorPerSecond ?? '', p50Ms: '', p99Ms: '', ratio: result.nestFloorRatio ?? '' },
      'read the log in commit order (pg)': { perSecond: result.rawReadPerSecond, p50Ms: '', p99Ms: '', ratio: 1 },
      'rebuild every projection': { perSecond: result.rebuildEventsPerSecond, p50Ms: '', p99Ms: '', ratio: result.rebuildRatio },
      'rules: random matches': { perSecond: result.rulesMatchesPerSecond, p50Ms: '', p99Ms: '', ratio: '' },
      ...(instances ? instancesTable(instances, raw.perSecond) : {}),
    });
    console.log(
      `api rss ${result.rssMb} MB with ${result.matchesInProgress} matches in progress; api cpu ${result.apiCpuPerCommandMs} ms/command ` +
        `(${result.apiCpuPercent}% of a core), machine busy ${result.machineBusyPercent}%, load average ${load0} → ${result.loadAverageAfter}`,
    );
    console.log(JSON.stringify(result));
  } finally {
    clearTimeout(watchdog);
    if (api) await api.stop().catch(() => undefined);
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await target.drop().catch((e: unknown) => log(`could not drop the scratch database: ${String(e)}`));
  }
}

runBench(main);
