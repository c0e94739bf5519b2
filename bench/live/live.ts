// `npm run bench:live`: many live streams (SSE) on one api process while commands flow at a steady rate.
//
//   1. the api in its own process (node dist/apps/api/src/main.js, PORT=0), on a scratch database
//      (DATABASE_URL set) or an in-memory PGlite; its stream quotas and rate limits opened for the load;
//   2. `matches` seeded matches created through HTTP and folded here (the bench knows every deck);
//   3. `streams` live streams: the three seats of every match, then spectators spread over the
//      matches, held by `workers` child processes (bench/live/stream-worker.ts), each from its own
//      loopback source address (127.0.0.2, 127.0.0.3, …);
//   4. commands through HTTP at `rate` per second for `seconds` (after `warmup_seconds`): the next
//      legal command of the next match, its acknowledgement time noted per version;
//   5. every stream must then hold its match's events up to the last command, once each and in order.
//
// Sizes (env, --flag=value or --flag value): BENCH_LIVE_STREAMS (15000; 3000 embedded), BENCH_LIVE_MATCHES (1000;
// 200 embedded), BENCH_LIVE_RATE (500; 200 embedded), BENCH_LIVE_SECONDS (30), BENCH_LIVE_WARMUP_SECONDS
// (3), BENCH_LIVE_WORKERS (4, and at least one per 4,500 streams), BENCH_LIVE_CLIENTS (32 command
// connections), BENCH_LIVE_API_MAIN (another build of the api, for before/after runs),
// BENCH_LIVE_API_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_LIVE_LOG_LEVEL (warn).
// The last line of the output is one JSON object.
import { fork, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import {
  benchSettings,
  Connection,
  cpuTimes,
  embedded,
  createSeededMatch,
  loadAverage,
  logger,
  openScratchDatabase,
  percentile,
  playNext,
  processCpuSeconds,
  rssMbOf,
  round,
  runBench,
  serverUrl,
  sleep,
  startBenchApi,
  wallMs,
  type LocalMatch,
  type Server,
  type Target,
} from '../common';
import type { FromWorker, StreamSpec, ToWorker, WorkerResult } from './stream-worker';

const { setting, num } = benchSettings('BENCH_LIVE_');
const streamsWanted = Math.round(num('streams', embedded ? 3000 : 15_000));
const cfg = {
  streams: streamsWanted,
  matches: Math.max(1, Math.round(num('matches', embedded ? 200 : 1000))),
  rate: Math.max(1, num('rate', embedded ? 200 : 500)),
  seconds: num('seconds', 30),
  warmupSeconds: num('warmup_seconds', 3),
  workers: Math.max(1, Math.round(num('workers', 4)), Math.ceil(streamsWanted / 4500)),
  clients: Math.max(1, Math.round(num('clients', 32))),
  apiMain: setting('api_main'),
  apiNodeArgs: (setting('api_node_args') ?? '').split(' ').filter(Boolean),
  logLevel: setting('log_level') ?? 'warn',
  drainSeconds: num('drain_seconds', 20),
};

const root = resolve(__dirname, '..', '..', '..'); // dist/bench/live → the repository
const log = logger('bench:live');

function startApi(target: Target): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    // A load test from a few addresses, not an abuse: the quotas on streams and the per-address limits
    // are off; the per-token request limit stays on (each token sends a command every few seconds).
    STREAMS_PER_ADDRESS: '0',
    STREAMS_PER_TOKEN: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_CREATES_PER_ADDRESS: '0',
  };
  if (target.embedded) env.DB_POOL_SIZE = '1';
  return startBenchApi(root, cfg, target.url, env);
}

/** The three seats of every match, then spectators spread over the matches; dealt round robin to workers. */
function streamSpecs(matches: LocalMatch[]): StreamSpec[][] {
  const byWorker: StreamSpec[][] = Array.from({ length: cfg.workers }, () => []);
  for (let i = 0; i < cfg.streams; i++) {
    const match = i % matches.length;
    const seat = Math.floor(i / matches.length);
    const m = matches[match];
    byWorker[i % cfg.workers].push({ match, id: m.id, token: seat < 3 ? m.tokens[seat] : undefined, after: m.version });
  }
  return byWorker;
}

class Worker {
  private readonly waiting = new Map<string, (m: FromWorker) => void>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (m: FromWorker) => {
      this.waiting.get(m.kind)?.(m);
      this.waiting.delete(m.kind);
    });
  }

  private ask<T extends FromWorker>(message: ToWorker, key: FromWorker['kind']): Promise<T> {
    return new Promise((done, fail) => {
      this.waiting.set(key, (m) => done(m as T));
      this.child.once('exit', (code) => fail(new Error(`stream worker ${this.child.pid} exited (${code}) before it answered ${key}`)));
      this.child.send(message);
    });
  }

  open(port: number, localAddress: string, streams: StreamSpec[]): Promise<Extract<FromWorker, { kind: 'opened' }>> {
    return this.ask({ kind: 'open', port, localAddress, streams }, 'opened');
  }

  async finish(message: Extract<ToWorker, { kind: 'finish' }>): Promise<WorkerResult> {
    return (await this.ask<Extract<FromWorker, { kind: 'result' }>>(message, 'result')).result;
  }
}

/** The api's V8 heap (used, and reserved) and memory outside it, from its /metrics. */
async function heapMb(port: number): Promise<{ used: number; total: number; external: number }> {
  const c = new Connection(port);
  const text = String((await c.request('GET', '/metrics')).body);
  c.close();
  const mb = (name: string): number => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  return { used: mb('nodejs_heap_size_used_bytes'), total: mb('nodejs_heap_size_total_bytes'), external: mb('nodejs_external_memory_bytes') };
}

const workersCpu = (workers: Worker[]): number => workers.reduce((s, w) => s + processCpuSeconds(w.child.pid!), 0);

/** Sends the next command of the next idle match at `rate` per second until `stop`; notes acknowledgements when `acks` is set. */
function drive(port: number, matches: LocalMatch[], state: { stop: boolean; acks?: Record<number, number[]>; commands: number; late: number }): Promise<void> {
  const ready = matches.map((_, i) => i);
  const interval = 1000 / cfg.rate;
  let slot = wallMs();
  const connections = Array.from({ length: cfg.clients }, () => new Connection(port));
  return Promise.all(
    connections.map(async (c) => {
      while (!state.stop) {
        const at = (slot += interval);
        const wait = at - wallMs();
        if (wait > 0) await sleep(wait);
        else if (wait < -1000) {
          // Far behind: do not send a burst to catch up, keep the steady rate from now.
          state.late++;
          slot = wallMs();
        }
        const index = ready.shift();
        if (index === undefined || state.stop) continue;
        const m = matches[index];
        const acks = state.acks;
        const r = await playNext(c, m);
        if (acks) {
          const list = (acks[index] ??= []);
          for (let v = r.from; v <= r.to; v++) list[v] = r.ackAt;
          state.commands++;
        }
        if (m.state.status !== 'finished') ready.push(index);
      }
      c.close();
    }),
  ).then(() => undefined);
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const load0 = loadAverage();
  log(`config ${JSON.stringify(cfg)}; load average ${load0}`);
  const target = await openScratchDatabase(serverUrl, 'bismarck_bench_live');
  let api: Server | undefined;
  const children: ChildProcess[] = [];
  try {
    log(`database: ${target.where}`);
    api = await startApi(target);
    const pid = api.child.pid!;
    await sleep(500);
    const rssStartMb = rssMbOf(pid);

    const connections = Array.from({ length: 16 }, () => new Connection(api!.port));
    const matches: LocalMatch[] = [];
    let next = 0;
    await Promise.all(connections.map(async (c) => {
      while (next < cfg.matches) matches.push(await createSeededMatch(c, next++, 'live'));
    }));
    connections.forEach((c) => c.close());
    await sleep(1000);
    const rssIdleMb = rssMbOf(pid);
    log(`api pid ${pid} on port ${api.port}: ${matches.length} matches; rss ${round(rssStartMb)} MB at start, ${round(rssIdleMb)} MB with the matches`);

    const t0 = wallMs();
    const workers = streamSpecs(matches).map((specs, i) => {
      const child = fork(join(__dirname, 'stream-worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
      children.push(child);
      return { worker: new Worker(child), specs, localAddress: `127.0.0.${i + 2}` };
    });
    const opened = await Promise.all(workers.map(({ worker, specs, localAddress }) => worker.open(api!.port, localAddress, specs)));
    const failures = opened.reduce((n, o) => n + o.failures, 0);
    log(`opened ${cfg.streams} streams in ${round((wallMs() - t0) / 1000, 1)} s over ${workers.length} workers (${failures} failed)`);
    const ws = workers.map((w) => w.worker);
    await sleep(3000);
    const rssStreamsIdleMb = rssMbOf(pid);
    const heapIdle = await heapMb(api.port);

    const traffic: { stop: boolean; acks?: Record<number, number[]>; commands: number; late: number } = { stop: false, commands: 0, late: 0 };
    const driving = drive(api.port, matches, traffic);
    await sleep(cfg.warmupSeconds * 1000);
    traffic.acks = {};
    const cpu0 = processCpuSeconds(pid);
    const clients0 = workersCpu(ws);
    const machine0 = cpuTimes();
    const from = wallMs();
    let rssMb = 0;
    for (let s = 0; s < cfg.seconds; s++) {
      await sleep(1000);
      rssMb = Math.max(rssMb, rssMbOf(pid));
    }
    const heapLoaded = await heapMb(api.port);
    const acks = traffic.acks;
    traffic.acks = undefined;
    const to = wallMs();
    const apiCpu = processCpuSeconds(pid) - cpu0;
    const clientsCpu = workersCpu(ws) - clients0;
    const machine1 = cpuTimes();
    const commands = traffic.commands;
    traffic.stop = true;
    await driving;
    log(`${commands} commands in ${round((to - from) / 1000, 1)} s; waiting for every stream to catch up`);

    const finals = matches.map((m) => m.version);
    const results = await Promise.all(ws.map((w) => w.finish({ kind: 'finish', finals, acks, window: [from, to], drainMs: cfg.drainSeconds * 1000 })));
    const sum = (key: keyof Omit<WorkerResult, 'latencies' | 'errorKinds'>): number => results.reduce((n, r) => n + r[key], 0);
    const latencies = Float64Array.from(results.flatMap((r) => [...r.latencies])).sort();
    const delivered = sum('deliveredInWindow');
    const seconds = (to - from) / 1000;
    const result = {
      database: target.embedded ? 'embedded' : 'postgresql',
      where: target.where,
      node: process.version,
      api: cfg.apiMain ?? 'dist/apps/api/src/main.js',
      streams: cfg.streams,
      matches: cfg.matches,
      workers: ws.length,
      rate: cfg.rate,
      commandsPerSecond: round(commands / seconds),
      deliveriesPerSecond: round(delivered / seconds),
      deliveryP50Ms: round(percentile(latencies, 50), 1),
      deliveryP90Ms: round(percentile(latencies, 90), 1),
      deliveryP99Ms: round(percentile(latencies, 99), 1),
      deliveryMaxMs: round(latencies[latencies.length - 1] ?? NaN, 1),
      rssMb: round(rssMb, 1),
      rssIdleMb: round(rssIdleMb, 1),
      rssStartMb: round(rssStartMb, 1),
      rssStreamsIdleMb: round(rssStreamsIdleMb, 1),
      heapUsedStreamsIdleMb: round(heapIdle.used, 1),
      heapUsedMb: round(heapLoaded.used, 1),
      heapTotalMb: round(heapLoaded.total, 1),
      externalMb: round(heapLoaded.external, 1),
      kbPerStream: round(((rssStreamsIdleMb - rssIdleMb) * 1024) / cfg.streams, 1),
      apiCpuPerDeliveredEventMs: round((apiCpu * 1000) / delivered, 4),
      apiCpuPerCommandMs: round((apiCpu * 1000) / commands, 3),
      apiCpuPercent: round((apiCpu / seconds) * 100),
      clientsCpuPercent: round((clientsCpu / seconds) * 100),
      machineBusyPercent: round(((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100),
      complete: sum('complete') === cfg.streams && sum('outOfTurn') === 0 && sum('behind') === 0,
      completeStreams: sum('complete'),
      outOfTurn: sum('outOfTurn'),
      behind: sum('behind'),
      reconnects: sum('reconnects'),
      // Failed opens included: a stream refused or cut before its answer tries again, as an EventSource does.
      streamErrors: sum('errors'),
      streamErrorKinds: mergeCounts(results.map((r) => r.errorKinds)),
      lateTicks: traffic.late,
      seconds: round(seconds, 1),
      loadAverageBefore: load0,
      loadAverageAfter: loadAverage(),
      totalSeconds: round((Date.now() - startedAt) / 1000),
    };
    console.log(
      `${result.streams} streams, ${result.commandsPerSecond} commands/s: delivery p50 ${result.deliveryP50Ms} ms, p99 ${result.deliveryP99Ms} ms; ` +
        `rss ${result.rssMb} MB (${result.rssIdleMb} idle, ${result.kbPerStream} kB per stream); complete ${result.complete}`,
    );
    console.log(JSON.stringify(result));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (api) await api.stop().catch(() => undefined);
    await target.drop().catch((e: unknown) => log(`could not drop the scratch database: ${String(e)}`));
  }
}

runBench(main);

function mergeCounts(counts: Record<string, number>[]): Record<string, number> {
  const all: Record<string, number> = {};
  for (const one of counts) for (const [kind, n] of Object.entries(one)) all[kind] = (all[kind] ?? 0) + n;
  return all;
}
