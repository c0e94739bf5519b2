// `npm run drill:failover`: losing the database's primary under load, drilled (issue 33, item 3).
// A pg_auto_failover formation (monitor + two nodes, bench/clusters/auto-failover.ts), two api
// instances on its multi-host URL behind the project's nginx (hashed by match id), and MATCHES
// players, each playing seeded matches of three seats through nginx one command at a time: every
// command with its own Idempotency-Key, sent again with the same key on a 503, a broken connection or
// a timeout until it is answered (Retry-After honoured, capped at 1 s). One live stream per match,
// through nginx, comes back with Last-Event-ID whenever it ends or fails (as EventSource does); 2 s
// after each kill the drill cuts every stream, so that each resumes while the database is away.
//   load LOAD_SECONDS → kill the primary (round 1) → load LOAD_SECONDS → restart the lost node and wait
//   for the pair to be whole (rejoinSeconds) → load LOAD_SECONDS → kill the new primary (round 2) →
//   load LOAD_SECONDS → stop the players (each finishes its command) → streams catch up → checks.
// failoverSeconds: from the kill to the first write answered 2xx that was sent after it.
// Checks on the log as it stands afterwards: every acknowledged (version, type) is there
// (lostAcknowledged), nothing past what the clients were answered (duplicated, with failed audits),
// every stream is 1..n (gaps); every live stream saw exactly 1..n once each in order (streamsComplete);
// GET …/audit ok for every match; `bismarck rebuild --compare-only` finds no row differing.
// The last line of stdout is one JSON object; progress goes to stderr. Exit 1 when a target is missed.
//
//   npm run drill:failover
//   DRILL_MATCHES=16 DRILL_LOAD_SECONDS=15 DRILL_DEADLINE_SECONDS=570 npm run drill:failover   (the defaults)
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { benchSettings, Connection, createSeededMatch, logger, playNext, round, sleep, sseFrames, startBenchApi, wallMs, type LocalMatch, type Reply, type Server } from './common';
import { startFormation, FORMATION_DATABASE, type Formation } from './clusters/auto-failover';
import { startLoadBalancer, type LoadBalancer } from './load-balancer';

const { num } = benchSettings('DRILL_');
/** Players at once, each with one match in play (a finished match is followed by a new one). */
const MATCHES = Math.max(1, num('MATCHES', 16));
/** Seconds of load before each kill, after it, and after the rejoin. */
const LOAD_SECONDS = num('LOAD_SECONDS', 15);
const DEADLINE_SECONDS = num('DEADLINE_SECONDS', 570);
const FAILOVER_TARGET_SECONDS = 30;
/** One attempt's limit: a request held by a dying primary is sent again (same key) rather than awaited. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A command still unanswered after this is a problem (the drill does not wait forever). */
const COMMAND_GIVE_UP_MS = 120_000;
const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist/apps/cli/src/main.js');
const log = logger('failover');
const exec = promisify(execFile);

// The drill plays from one address far faster than people: no rate limits.
const API_ENV = { RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_CREATES_PER_ADDRESS: '0', RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS: '0' };

const counts = { accepted: 0, serviceUnavailable: 0, fiveHundreds: 0, connectionErrors: 0, timeouts: 0, resent: 0, streamOpens: 0, streamDrops: 0 };
const problems: string[] = [];
const problem = (line: string): void => {
  if (problems.length < 50) problems.push(line);
  log(`PROBLEM ${line}`);
};

/** A kill, and when the first write sent after it was accepted. */
interface Round {
  node: string;
  killedAt: number;
  acceptedAt?: number;
}
const rounds: Round[] = [];

interface Tracked {
  id: string;
  local: LocalMatch;
  /** Every event an accepted answer reported: version → type. */
  acks: Map<number, string>;
  /** Its player stopped on an error: the log may hold what it never saw answered. */
  broken: boolean;
  stream: Follower;
}
const matches = new Map<string, Tracked>();

// ---------------------------------------------------------------- a careful client
const agent = new Agent({ keepAlive: true, maxSockets: MATCHES * 2 });

interface Answer extends Reply {
  retryAfter: number;
}

function send(port: number, method: string, path: string, token: string | undefined, body: unknown, key: string | undefined): Promise<Answer> {
  return new Promise((done, fail) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    if (token) headers.authorization = `Bearer ${token}`;
    if (key) headers['idempotency-key'] = key;
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent, timeout: ATTEMPT_TIMEOUT_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', fail);
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        done({ status: res.statusCode ?? 0, body: parsed, retryAfter: Number(res.headers['retry-after'] ?? 0) });
      });
    });
    req.on('timeout', () => {
      counts.timeouts++;
      req.destroy(new Error('attempt timed out'));
    });
    req.on('error', fail);
    req.end(payload);
  });
}

/** Counts a status that is not an answer to the request: 503 is expected during a failover, any other 5xx is a fault. */
function unanswered(status: number, what: string, body: unknown): boolean {
  if (status === 503) counts.serviceUnavailable++;
  else if (status >= 500) {
    counts.fiveHundreds++;
    problem(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  } else return false;
  return true;
}

/**
 * What common.ts's playNext and createSeededMatch talk to: the same request(), through nginx, sent
 * again with the same Idempotency-Key until answered. An accepted command's events are recorded.
 */
class CarefulConnection extends Connection {
  constructor(private readonly target: number) {
    super(target);
  }

  override async request(method: string, path: string, token?: string, body?: unknown): Promise<Reply> {
    const key = method === 'POST' ? randomUUID() : undefined;
    const giveUp = Date.now() + COMMAND_GIVE_UP_MS;
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > giveUp) throw new Error(`${method} ${path}: no answer in ${COMMAND_GIVE_UP_MS / 1000} s`);
      if (attempt > 0) counts.resent++;
      const sentAt = wallMs();
      let answer: Answer;
      try {
        answer = await send(this.target, method, path, token, body, key);
      } catch {
        counts.connectionErrors++;
        await sleep(200);
        continue;
      }
      if (unanswered(answer.status, `${method} ${path}`, answer.body)) {
        await sleep(Math.min(1000, Math.max(100, answer.retryAfter * 1000)));
        continue;
      }
      if (method === 'POST' && answer.status < 300) {
        counts.accepted++;
        const now = wallMs();
        for (const r of rounds) if (r.acceptedAt === undefined && sentAt >= r.killedAt) r.acceptedAt = now;
        this.record(path, answer.body);
      }
      return answer;
    }
  }

  private record(path: string, body: unknown): void {
    const t = matches.get(/^\/api\/matches\/([^/]+)\//.exec(path)?.[1] ?? '');
    const events = (body as { events?: { version: number; type: string }[] }).events;
    if (!t || !events) return;
    for (const e of events) {
      const known = t.acks.get(e.version);
      if (known !== undefined && known !== e.type) problem(`${t.id}: version ${e.version} acknowledged as ${known} and as ${e.type}`);
      t.acks.set(e.version, e.type);
    }
  }
}

// ---------------------------------------------------------------- a live stream that comes back
/** GET …/events/stream through nginx, reopened with Last-Event-ID after every end or error; every id kept. */
class Follower {
  readonly ids: number[] = [];
  /** 204: the match is over and the stream has nothing more to send. */
  private over = false;
  private closed = false;
  /** drop() cut the connection: not a fault. */
  private dropping = false;
  private current: ReturnType<typeof request> | undefined;
  readonly running: Promise<void>;

  constructor(
    private readonly port: number,
    private readonly matchId: string,
  ) {
    this.running = this.loop();
  }

  get last(): number {
    return this.ids.at(-1) ?? 0;
  }

  close(): void {
    this.closed = true;
    this.current?.destroy();
  }

  /** Cuts the connection as a flaky network would; the loop comes back with Last-Event-ID. */
  drop(): void {
    if (this.closed || this.over) return;
    counts.streamDrops++;
    this.dropping = true;
    this.current?.destroy();
  }

  private async loop(): Promise<void> {
    while (!this.closed && !this.over) {
      const status = await this.once().catch(() => 0);
      if (status === 0 && !this.dropping) counts.connectionErrors++;
      this.dropping = false;
      // EventSource waits the stream's `retry:` (2 s); a shorter pause tells a slow resume apart from a lost one.
      if (!this.closed && !this.over) await sleep(status === 200 ? 250 : 500);
    }
  }

  private once(): Promise<number> {
    counts.streamOpens++;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.ids.length) headers['last-event-id'] = String(this.last);
    return new Promise((done, fail) => {
      const req = request({ host: '127.0.0.1', port: this.port, path: `/api/matches/${this.matchId}/events/stream`, headers, agent: false });
      this.current = req;
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        let buffer = '';
        let text = '';
        res.on('data', (chunk: string) => {
          if (status !== 200) return void (text += chunk);
          const { frames, rest } = sseFrames(buffer + chunk);
          buffer = rest;
          for (const frame of frames) {
            const m = /^id: (\d+)$/m.exec(frame);
            if (m) this.ids.push(Number(m[1]));
          }
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          if (status === 204) this.over = true;
          else if (status !== 200 && !unanswered(status, `stream of ${this.matchId}`, text)) problem(`stream of ${this.matchId}: ${status} ${text.slice(0, 300)}`);
          done(status);
        });
      });
      req.end();
    });
  }
}

// ---------------------------------------------------------------- the players
const control = { stopping: false };
let created = 0;

async function player(port: number): Promise<void> {
  const c = new CarefulConnection(port);
  while (!control.stopping) {
    const local = await createSeededMatch(c, created++, 'failover');
    // MatchCreated is version 1 of every match (the creation has no Idempotency-Key: a resent one may leave an unused match).
    const t: Tracked = { id: local.id, local, acks: new Map([[1, 'MatchCreated']]), broken: false, stream: new Follower(port, local.id) };
    matches.set(t.id, t);
    try {
      while (!control.stopping && local.state.status !== 'finished') await playNext(c, local);
    } catch (err) {
      t.broken = true;
      problem(`player of ${t.id} stopped: ${String(err).slice(0, 500)}`);
    }
  }
}

// ---------------------------------------------------------------- checks
async function readLog(formation: Formation): Promise<Map<string, { version: number; type: string }[]>> {
  const p = await formation.primary();
  if (!p) throw new Error('no primary to read the log from');
  const client = new Client({ host: '127.0.0.1', port: p.port, user: 'postgres', database: FORMATION_DATABASE });
  await client.connect();
  try {
    const { rows } = await client.query<{ stream_id: string; version: number; type: string }>('SELECT stream_id::text, version, type FROM events ORDER BY stream_id, version');
    const byStream = new Map<string, { version: number; type: string }[]>();
    for (const { stream_id, version, type } of rows) byStream.set(stream_id, [...(byStream.get(stream_id) ?? []), { version, type }]);
    return byStream;
  } finally {
    await client.end();
  }
}

/** `bismarck rebuild --compare-only` on the formation: its last line is the report, also when it exits 1 (a row differs). */
async function rebuildEqualsLive(url: string): Promise<boolean> {
  const out = await exec(process.execPath, [CLI, 'rebuild', '--compare-only'], { env: { ...process.env, DATABASE_URL: url }, maxBuffer: 1 << 24 }).catch((err: { stdout?: string; stderr?: string }) => {
    log(`bismarck rebuild --compare-only: ${err.stderr ?? ''}`);
    return { stdout: err.stdout ?? '' };
  });
  try {
    const report = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as { differences: { table: string; onlyLive: number; onlyRebuilt: number }[] };
    for (const d of report.differences) if (d.onlyLive || d.onlyRebuilt) problem(`rebuild: ${d.table} differs (${d.onlyLive} live-only, ${d.onlyRebuilt} rebuilt-only rows)`);
    return report.differences.every((d) => d.onlyLive === 0 && d.onlyRebuilt === 0);
  } catch {
    problem(`bismarck rebuild --compare-only printed no report: ${out.stdout.slice(-500)}`);
    return false;
  }
}

// ---------------------------------------------------------------- the drill
async function main(): Promise<boolean> {
  const drillStarted = wallMs();
  let formation: Formation | undefined;
  let balancer: LoadBalancer | undefined;
  const apis: Server[] = [];
  // Whatever way the drill ends, no node, api, nginx or temp directory stays (common.ts kills the apis on exit).
  const cleanup = async (): Promise<void> => {
    for (const t of matches.values()) t.stream.close();
    agent.destroy();
    await Promise.all(apis.map((a) => a.stop()));
    await balancer?.stop();
    formation?.stop();
    formation = balancer = undefined;
  };
  process.on('exit', () => {
    for (const pid of balancer?.pids() ?? []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    formation?.stop();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  setTimeout(() => {
    log(`the drill passed ${DEADLINE_SECONDS} s: giving up`);
    process.exit(1);
  }, DEADLINE_SECONDS * 1000).unref();

  try {
    formation = await startFormation({ nodes: 2, log });
    const url = formation.url;
    log(`formation up in ${round((wallMs() - drillStarted) / 1000, 1)} s: ${url}`);
    // Both at once: the migrations take an advisory lock.
    apis.push(...(await Promise.all([0, 1].map(() => startBenchApi(ROOT, { apiNodeArgs: [], logLevel: 'warn' }, url, API_ENV)))));
    balancer = await startLoadBalancer('hashed', apis.map((a) => a.port));
    log(`apis on ports ${apis.map((a) => a.port).join(', ')}, nginx on ${balancer.port}; ${MATCHES} players`);

    const loadStarted = wallMs();
    const players = Array.from({ length: MATCHES }, () => player(balancer!.port));
    const load = async (what: string): Promise<void> => {
      log(`${what}: load for ${LOAD_SECONDS} s (${counts.accepted} writes accepted so far, ${counts.serviceUnavailable} 503s)`);
      await sleep(LOAD_SECONDS * 1000);
    };
    const kill = async (): Promise<Round> => {
      const primary = await formation!.primary();
      if (!primary) throw new Error(`no primary to kill: ${JSON.stringify(await formation!.state())}`);
      const r: Round = { node: primary.name, killedAt: wallMs() };
      rounds.push(r);
      log(`round ${rounds.length}: killing ${primary.name} (${formation!.killNode(primary.name)} processes)`);
      // Every stream is cut in the outage too: it must resume from its Last-Event-ID while the database is away.
      setTimeout(() => {
        for (const t of matches.values()) t.stream.drop();
      }, 2000);
      return r;
    };
    await load('warm-up');
    const first = await kill();
    await load('after the first kill');
    const rejoinStarted = wallMs();
    formation.restartNode(first.node);
    await formation.waitHealthy();
    const rejoinSeconds = (wallMs() - rejoinStarted) / 1000;
    log(`${first.node} rejoined and the pair is whole in ${round(rejoinSeconds, 1)} s: ${JSON.stringify(await formation.state())}`);
    await load('with the pair whole again');
    await kill();
    await load('after the second kill');

    control.stopping = true;
    log('stopping the players: each finishes its command');
    await Promise.all(players);
    const loadSeconds = (wallMs() - loadStarted) / 1000;

    const logged = await readLog(formation);
    const tracked = [...matches.values()];
    // The streams catch up to each match's log.
    const finalOf = (t: Tracked): number => logged.get(t.id)?.length ?? 0;
    const caughtUp = (): boolean => tracked.every((t) => t.stream.last >= finalOf(t));
    for (const deadline = Date.now() + 60_000; !caughtUp() && Date.now() < deadline; ) await sleep(200);
    for (const t of tracked) t.stream.close();
    await Promise.all(tracked.map((t) => t.stream.running));

    let lostAcknowledged = 0;
    let duplicated = 0;
    let streamsComplete = 0;
    for (const t of tracked) {
      const events = logged.get(t.id) ?? [];
      for (const [version, type] of t.acks) {
        if (events[version - 1]?.type === type) continue;
        lostAcknowledged++;
        problem(`${t.id}: acknowledged ${type} at version ${version} is not in the log (${events[version - 1]?.type ?? 'nothing'} there)`);
      }
      // Every player ended with its command answered: anything past the last answer was applied unasked.
      const extra = events.length - t.local.version;
      if (!t.broken && extra > 0) {
        duplicated += extra;
        problem(`${t.id}: ${extra} events past the last answer (${t.local.version}): ${events.slice(t.local.version).map((e) => e.type).join(', ')}`);
      }
      if (t.stream.ids.length === events.length && t.stream.ids.every((id, i) => id === i + 1)) streamsComplete++;
      else problem(`${t.id}: the stream saw ${t.stream.ids.length} ids (${t.stream.ids.slice(0, 5).join(',')}…${t.stream.ids.slice(-5).join(',')}), the log has ${events.length}`);
    }
    const gaps = [...logged.values()].filter((events) => events.some((e, i) => e.version !== i + 1)).length;
    const unusedMatches = [...logged.keys()].filter((id) => !matches.has(id)).length;

    const c = new CarefulConnection(balancer.port);
    let auditsFailed = 0;
    for (const t of tracked) {
      const audit = (await c.request('GET', `/api/matches/${t.id}/audit`)).body as { ok?: boolean; firstFailure?: number | null };
      if (audit.ok === true) continue;
      auditsFailed++;
      problem(`audit of ${t.id}: ${JSON.stringify(audit).slice(0, 300)}`);
    }
    duplicated += auditsFailed;
    const rebuildOk = await rebuildEqualsLive(url);

    const failoverSeconds = rounds.map((r) => (r.acceptedAt === undefined ? null : round((r.acceptedAt - r.killedAt) / 1000, 1)));
    const failoverMax = failoverSeconds.some((s) => s === null) ? null : Math.max(...(failoverSeconds as number[]));
    const drillSeconds = (wallMs() - drillStarted) / 1000;
    const passed =
      lostAcknowledged === 0 &&
      duplicated === 0 &&
      gaps === 0 &&
      counts.fiveHundreds === 0 &&
      rounds.length === 2 &&
      failoverMax !== null &&
      failoverMax <= FAILOVER_TARGET_SECONDS &&
      streamsComplete === tracked.length &&
      auditsFailed === 0 &&
      rebuildOk &&
      problems.length === 0 &&
      drillSeconds < 600;
    console.log(
      JSON.stringify({
        acknowledged: counts.accepted,
        lostAcknowledged,
        duplicated,
        gaps,
        failoverSeconds,
        failoverSecondsMax: failoverMax,
        rejoinSeconds: round(rejoinSeconds, 1),
        fiveHundreds: counts.fiveHundreds,
        serviceUnavailable: counts.serviceUnavailable,
        streamsComplete: streamsComplete === tracked.length,
        streams: { complete: streamsComplete, of: tracked.length, opens: counts.streamOpens, dropped: counts.streamDrops },
        auditsOk: auditsFailed === 0,
        rebuildEqualsLive: rebuildOk,
        matches: tracked.length,
        finished: tracked.filter((t) => t.local.state.status === 'finished').length,
        unusedMatches,
        eventsInLog: [...logged.values()].reduce((n, l) => n + l.length, 0),
        commandsPerSecond: round(counts.accepted / loadSeconds, 1),
        resent: counts.resent,
        connectionErrors: counts.connectionErrors,
        timeouts: counts.timeouts,
        killed: rounds.map((r) => r.node),
        problems: problems.slice(0, 10),
        drillSeconds: round(drillSeconds, 1),
        ok: passed,
      }),
    );
    return passed;
  } finally {
    await cleanup();
  }
}

void main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
