// `npm run drill:compare`: `bismarck rebuild --compare-only` as a periodic check while people play
// (issue 43 item 7). The api runs in its own process; 16 clients play for 60 s: matches of named seats
// played to their end and begun again, lobby tables filled and played, rated matches of three new
// players, accounts registered, renamed and deleted, and a table of three bots. Five times, spread over
// the load, the command line compares the live tables with the log's replay; then one row of a table
// nobody plays is changed and it compares once more, the load still going.
// Targets (issue 43): exit 0 in 5 of 5 (0 differing rows) during the load; with the planted row: exit 1.
// The last line of the output is one JSON object; progress goes to stderr.
//
//   npm run drill:compare
//   DRILL_CLIENTS=16 DRILL_SECONDS=60 DRILL_RUNS=5 npm run drill:compare
//   DRILL_CLI=<another build's dist/apps/cli/src/main.js> compares with that build's command line (before/after).
// Without DATABASE_URL on an in-memory embedded PGlite (the api and the command line both connect to
// it); with DATABASE_URL on a scratch database of that server (dropped at the end).
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { chooseAction, requestOf, type BotView } from '@bismarck/bots';
import { benchSettings, Connection, embedded, loadAverage, logger, openScratchDatabase, round, serverUrl, sleep, startBenchApi, wallMs, type Reply } from './common';

const { num, setting } = benchSettings('DRILL_');
const CLIENTS = num('CLIENTS', 16);
const SECONDS = num('SECONDS', 60);
const RUNS = num('RUNS', 5);
const log = logger('drill');
const run = promisify(execFile);

interface Difference {
  table: string;
  onlyLive: number;
  onlyRebuilt: number;
}
interface Report {
  events: number;
  matches: number;
  ms: number;
  snapshotMs: number;
  differences: Difference[];
}
interface Run {
  exit: number;
  differing: number;
  events: number;
  /** The command's wall time, from spawn to exit. */
  seconds: number;
  /** Reading the live tables at the snapshot, and the replay (the command's own report). */
  snapshotMs: number;
  replayMs: number;
  /** Writes the clients had answered while it ran. */
  writesDuring: number;
  differingTables?: Difference[];
}

/** The answer's body, or the drill stops with the request and its answer. */
function ok<T>(reply: Reply, what: string): T {
  if (reply.status >= 400) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as T;
}

/** The clients: each kind of write the compared tables take, until told to stop. */
class Load {
  writes = 0;
  finishedMatches = 0;
  readonly errors: string[] = [];
  private stopping = false;
  private readonly clients: Promise<void>[] = [];

  constructor(private readonly port: number) {}

  start(n: number): void {
    // Of every eight clients: one lobby, one rated, one accounts, one bots-only, four named-seat matches
    // (the commands most of a log is made of).
    const kinds: Record<number, (c: Connection) => Promise<void>> = {
      1: (c) => this.lobby(c),
      2: (c) => this.ratedPlayers(c),
      3: (c) => this.accounts(c),
      4: (c) => this.botsOnly(c),
    };
    for (let i = 0; i < n; i++) this.clients.push(this.loop(kinds[i % 8] ?? ((c) => this.namedSeats(c))));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.clients);
  }

  private async loop(round: (c: Connection) => Promise<void>): Promise<void> {
    const c = new Connection(this.port);
    try {
      while (!this.stopping) await round(c);
    } catch (error) {
      this.errors.push(String(error));
    } finally {
      c.close();
    }
  }

  private async request<T>(c: Connection, method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const reply = ok<T>(await c.request(method, path, token, body), `${method} ${path}`);
    if (method !== 'GET') this.writes++;
    return reply;
  }

  /** Plays every seat from its view (random legal moves) until the match ends or the drill stops. */
  private async playToEnd(c: Connection, id: string, tokens: string[]): Promise<void> {
    while (!this.stopping) {
      const state = ok<{ status: string; turn: number | null }>(await c.request('GET', `/api/matches/${id}`), 'state');
      if (state.status === 'finished') {
        this.finishedMatches++;
        return;
      }
      if (state.turn === null) {
        await sleep(20);
        continue;
      }
      const token = tokens[state.turn];
      const view = ok<BotView>(await c.request('GET', `/api/matches/${id}/view`, token), 'view');
      const action = requestOf(chooseAction(view, 'random'));
      if (!action) continue;
      const reply = await c.request('POST', `/api/matches/${id}/${action.route}`, token, 'body' in action ? action.body : undefined);
      if (reply.status === 409) continue; // the turn moved meanwhile
      ok(reply, action.route);
      this.writes++;
    }
  }

  private async namedSeats(c: Connection): Promise<void> {
    const m = await this.request<{ id: string; seats: { token: string }[] }>(c, 'POST', '/api/matches', undefined, { players: ['Astrid', 'Bjørn', 'Cecilia'], options: { schedule: 'quick' } });
    await this.playToEnd(c, m.id, m.seats.map((s) => s.token));
  }

  private async lobby(c: Connection): Promise<void> {
    const m = await this.request<{ id: string; seats: { token: string }[] }>(c, 'POST', '/api/matches', undefined, { players: ['Host', null, null], options: { schedule: 'quick' } });
    const tokens = [m.seats[0].token];
    for (const seat of [1, 2]) tokens.push((await this.request<{ token: string }>(c, 'POST', `/api/matches/${m.id}/seats/${seat}/join`, undefined, { name: `Guest ${seat}` })).token);
    await this.playToEnd(c, m.id, tokens);
  }

  /** Three new players at one table, their seats bound to their accounts: a rated match. */
  private async ratedPlayers(c: Connection): Promise<void> {
    const ps: { id: string; token: string }[] = [];
    for (const name of ['Ann', 'Bo', 'Cyd']) ps.push(await this.request(c, 'POST', '/api/players', undefined, { name }));
    const m = await this.request<{ id: string }>(c, 'POST', '/api/matches', ps[0].token, { players: [{ player: ps[0].id }, null, null], options: { schedule: 'quick' } });
    for (const seat of [1, 2]) await this.request(c, 'POST', `/api/matches/${m.id}/seats/${seat}/join`, ps[seat].token, {});
    await this.playToEnd(c, m.id, ps.map((p) => p.token));
  }

  private async accounts(c: Connection): Promise<void> {
    const p = await this.request<{ id: string; token: string }>(c, 'POST', '/api/players', undefined, { name: 'Astrid' });
    await this.request(c, 'PATCH', '/api/players/me', p.token, { name: 'Åsa' });
    // A 204 has no Content-Length, which the lean client reads by: fetch.
    const deleted = await fetch(`http://127.0.0.1:${this.port}/api/players/me`, { method: 'DELETE', headers: { authorization: `Bearer ${p.token}` } });
    if (deleted.status !== 204) throw new Error(`DELETE /api/players/me: ${deleted.status} ${await deleted.text()}`);
    this.writes++;
    await sleep(100);
  }

  private async botsOnly(c: Connection): Promise<void> {
    const bot = { bot: 'random' };
    const m = await this.request<{ id: string }>(c, 'POST', '/api/matches', undefined, { players: [bot, bot, bot], options: { schedule: 'quick' } });
    while (!this.stopping && ok<{ status: string }>(await c.request('GET', `/api/matches/${m.id}`), 'state').status !== 'finished') await sleep(500);
  }
}

/** `bismarck rebuild --compare-only` on the drill's database: its exit code and its report (the last line). */
async function compareOnly(cli: string, url: string, load: Load): Promise<Run> {
  const started = wallMs();
  const before = load.writes;
  const { code, stdout, stderr } = await run(process.execPath, [cli, 'rebuild', '--compare-only'], { env: { ...process.env, DATABASE_URL: url }, maxBuffer: 1 << 24 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout?: string; stderr?: string }) => ({ code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
  const last = stdout.trim().split('\n').pop() ?? '';
  if (!last.startsWith('{')) throw new Error(`bismarck rebuild --compare-only printed no report (exit ${code}): ${(stdout + stderr).slice(-2000)}`);
  const report = JSON.parse(last) as Report;
  const differing = report.differences.filter((d) => d.onlyLive || d.onlyRebuilt);
  return {
    exit: code,
    differing: differing.reduce((n, d) => n + d.onlyLive + d.onlyRebuilt, 0),
    events: report.events,
    seconds: round((wallMs() - started) / 1000, 2),
    snapshotMs: report.snapshotMs,
    replayMs: report.ms,
    writesDuring: load.writes - before,
    ...(differing.length > 0 ? { differingTables: differing } : {}),
  };
}

async function sql(url: string, text: string, params: unknown[] = []): Promise<void> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await c.query(text, params);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const cli = setting('CLI') ?? join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
  const target = await openScratchDatabase(serverUrl, 'drill_compare');
  // Sixteen clients from one address are a load test, not an abuse.
  const env: NodeJS.ProcessEnv = { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_CREATES_PER_ADDRESS: '0', STREAMS_PER_ADDRESS: '0' };
  // On PGlite the api gets the single connection it uses when it starts PGlite itself.
  if (embedded) env.DB_POOL_SIZE = '1';
  const server = await startBenchApi(root, { apiNodeArgs: [], logLevel: 'warn' }, target.url, env);
  const load = new Load(server.port);
  try {
    log(`api on port ${server.port} (${target.where})`);
    // A table nobody plays: the planted row, which no later command rewrites.
    const setup = new Connection(server.port);
    const idle = ok<{ id: string }>(await setup.request('POST', '/api/matches', undefined, { players: ['Idle', 'Table', 'Row'] }), 'create the idle match');
    setup.close();

    log(`${CLIENTS} clients for ${SECONDS} s; bismarck rebuild --compare-only ${RUNS} times meanwhile`);
    const started = wallMs();
    load.start(CLIENTS);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const due = started + ((i + 1) * SECONDS * 1000) / (RUNS + 1);
      await sleep(Math.max(0, due - wallMs()));
      const r = await compareOnly(cli, target.url, load);
      log(`compare ${i + 1}: exit ${r.exit}, ${r.differing} differing rows, ${r.events} events, ${r.seconds} s, ${r.writesDuring} writes meanwhile`);
      runs.push(r);
    }
    await sleep(Math.max(0, started + SECONDS * 1000 - wallMs()));
    log('one row planted (match_list.totals of a table nobody plays); the load goes on');
    await sql(target.url, `UPDATE match_list SET totals = '[1,2,3]' WHERE id = $1`, [idle.id]);
    const planted = await compareOnly(cli, target.url, load);
    log(`planted: exit ${planted.exit}, ${JSON.stringify(planted.differingTables ?? [])}`);
    const seconds = (wallMs() - started) / 1000;
    await load.stop();
    if (load.errors.length > 0) throw new Error(`a client failed: ${load.errors.slice(0, 3).join('; ')}`);

    const exitZero = runs.filter((r) => r.exit === 0 && r.differing === 0).length;
    console.log(
      JSON.stringify({
        database: embedded ? 'embedded' : 'postgres',
        cli: setting('CLI') ?? 'dist/apps/cli/src/main.js',
        clients: CLIENTS,
        seconds: round(seconds, 1),
        writes: load.writes,
        writesPerSecond: round(load.writes / seconds, 1),
        finishedMatches: load.finishedMatches,
        runs,
        exitZero: `${exitZero} of ${runs.length}`,
        planted,
        targets: {
          exit0InEveryRunDuringLoad: exitZero === runs.length && runs.length >= 5,
          plantedRowExit1: planted.exit === 1 && planted.differing === 2,
          loadDuringEveryRun: runs.every((r) => r.writesDuring > 0),
        },
        cpus: availableParallelism(),
        loadAverage: loadAverage(),
      }),
    );
  } finally {
    await load.stop().catch(() => undefined);
    await server.stop();
    await target.drop();
  }
}

void main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
