// `npm run test:chaos`: two api processes on one PostgreSQL database, many matches played at once by
// simple bots through both, with client retries (same Idempotency-Key), duplicate and parallel sends,
// one api process killed with SIGKILL mid-run and restarted, and the database connections cut once.
// Some of the matches are lobby tables whose open seats the bots join. Afterwards it checks that
// nothing was lost, duplicated or reordered. Then a second phase runs CHAOS_JOURNEYS property-based
// journeys (test/support/journey.ts: in-process apps on a database of their own, every promise checked
// after each). It prints a JSON summary last. Bounded: it gives up (and fails) after CHAOS_DEADLINE_MS
// (the journeys after CHAOS_JOURNEYS_MS more). Traffic goes to 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { auditMatch, exportOf } from '@bismarck/audit';
import { openDataSource, postgresDataSourceOptions } from '@bismarck/database';
import { EventStore } from '@bismarck/event-store';
import { ProjectionRebuilder } from '@bismarck/projections';
import { fold, scorecard, type BismarckEvent } from '@bismarck/rules';
import { formatReport, runJourneys, type JourneyReport } from '../support/journey';

const MAIN = join(__dirname, '..', '..', 'apps', 'api', 'src', 'main.js');
const MATCHES = Number(process.env.CHAOS_MATCHES ?? 54);
const MODERN_EVERY = Number(process.env.CHAOS_MODERN_EVERY ?? 9); // every 9th match is a 12-deal match, the rest quick
const DEADLINE_MS = Number(process.env.CHAOS_DEADLINE_MS ?? 300_000);
const REQUEST_TIMEOUT_MS = 30_000;
const LOBBY_EVERY = Number(process.env.CHAOS_LOBBY_EVERY ?? 4); // every 4th match is a lobby table the bots join
const JOURNEYS = Number(process.env.CHAOS_JOURNEYS ?? 30);
const JOURNEYS_MS = Number(process.env.CHAOS_JOURNEYS_MS ?? 300_000);
const JOURNEY_SEED = process.env.CHAOS_JOURNEY_SEED ? Number(process.env.CHAOS_JOURNEY_SEED) : undefined;

const counts = {
  commandsSent: 0,
  retried: 0,
  duplicatesSent: 0,
  accepted: 0,
  replayedAnswers: 0,
  refused: 0,
  failedRequests: 0,
  eventsAppended: 0,
  matchesFinished: 0,
  eventsLost: 0,
  eventsDuplicated: 0,
  gaps: 0,
  kills: 0,
  restarts: 0,
  dbCuts: 0,
  /** An api process that died without being killed: a crash, reported as a problem (and restarted). */
  unexpectedExits: 0,
  lobbyMatches: 0,
  seatsJoined: 0,
};

// ---- the database and the two api processes -------------------------------------------------

async function freshDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bismarck_chaos_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

class Api {
  proc: ChildProcess | null = null;
  url = '';
  constructor(
    readonly name: string,
    private readonly databaseUrl: string,
  ) {}

  start(): Promise<void> {
    const env = {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '8',
      // The bots come from one address, far faster than people: no rate limits here.
      RATE_LIMIT_PER_TOKEN: '0',
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_CREATES_PER_ADDRESS: '0',
      RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS: '0',
      STREAMS_PER_ADDRESS: '0',
    };
    const proc = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start: ${out}`)), 60_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on (http:\/\/localhost:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          this.url = m[1].replace('localhost', '127.0.0.1');
          resolve();
        }
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', (c: Buffer) => {
        out += c.toString();
        if (process.env.CHAOS_VERBOSE) process.stderr.write(`[${this.name}] ${c}`);
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        if (this.proc === proc) {
          // Not killed by us: a crash. Count it, keep its last words, and restart it as a supervisor would.
          this.proc = null;
          this.url = '';
          counts.unexpectedExits++;
          crashes.push(`${this.name} exited with ${code}: ${out.slice(-1500)}`);
          void this.start().catch(() => undefined);
        }
        reject(new Error(`${this.name} exited with ${code}: ${out.slice(-2000)}`));
      });
    });
  }

  kill(): Promise<void> {
    const proc = this.proc;
    if (!proc) return Promise.resolve();
    this.proc = null;
    this.url = '';
    return new Promise((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }
}

// ---- HTTP -------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: any;
}

let apis: Api[] = [];
const crashes: string[] = [];
const pickApi = (): Api => {
  const up = apis.filter((a) => a.url);
  return up[Math.floor(Math.random() * up.length)] ?? apis[0];
};

async function request(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const api = pickApi();
  if (!api.url) throw new Error('no api is up');
  const res = await fetch(api.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Retries a request on network errors and 5xx (another api, after a pause): what a careful client does. */
async function withRetries(send: () => Promise<Answer>, deadline: number, onRetry = () => {}): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    if (Date.now() > deadline) throw new Error('deadline passed');
    try {
      const answer = await send();
      if (answer.status < 500) return answer;
      counts.failedRequests++;
      if (process.env.CHAOS_VERBOSE) console.error('5xx', answer.status, JSON.stringify(answer.body));
    } catch (error) {
      counts.failedRequests++;
      if (process.env.CHAOS_VERBOSE) console.error('request failed', String(error));
    }
    onRetry();
    await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** Math.min(attempt, 4))));
  }
}

// ---- the bots ---------------------------------------------------------------------------------

interface Match {
  id: string;
  tokens: string[];
  /** Every event an accepted answer reported: version → type. */
  acknowledged: Map<number, string>;
}

const random = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)];

async function playMatch(match: Match, deadline: number): Promise<void> {
  for (;;) {
    const state = (await withRetries(() => request('GET', `/api/matches/${match.id}`), deadline)).body;
    if (state.status === 'finished') return;
    // The cutter cuts before about half of the deals.
    if (state.phase === 'deal' && state.fairness?.cut === null && Math.random() < 0.5) {
      await sendCommand(match, match.tokens[(state.dealer + 2) % 3], 'cut', { cut: `c${state.version}` }, deadline);
    }
    const seat = state.turn as number;
    const view = (await withRetries(() => request('GET', `/api/matches/${match.id}/view`, match.tokens[seat]), deadline)).body;
    const legal = view.legal;
    if (!legal) continue; // the state moved on between the two reads
    let path: string;
    let body: unknown;
    switch (legal.action) {
      case 'deal':
        path = 'deal';
        break;
      case 'chooseContract': {
        const contract = random(legal.contracts as string[]);
        path = 'contract';
        body = contract === 'trump' ? { contract, trump: random(legal.trumps as string[]) } : { contract };
        break;
      }
      case 'discard':
        path = 'discard';
        body = { cards: (view.hand as string[]).slice(0, 4) };
        break;
      case 'play':
        path = 'play';
        body = { card: random(legal.cards as string[]) };
        break;
      default:
        continue;
    }
    await sendCommand(match, match.tokens[seat], path, body, deadline);
  }
}

/**
 * Sends one command as an unreliable network and an impatient client would: sometimes twice in
 * parallel with the same key, sometimes again after the answer, sometimes in parallel with no key.
 */
async function sendCommand(match: Match, token: string, path: string, body: unknown, deadline: number): Promise<void> {
  const key = `k-${randomBytes(8).toString('hex')}`;
  const send = () => request('POST', `/api/matches/${match.id}/${path}`, token, body, { 'Idempotency-Key': key });
  const roll = Math.random();
  const copies = roll < 0.15 ? 3 : roll < 0.3 ? 2 : 1;
  counts.commandsSent += copies;
  counts.duplicatesSent += copies - 1;
  const answers = await Promise.all(Array.from({ length: copies }, () => withRetries(send, deadline, () => counts.retried++)));
  if (Math.random() < 0.1) {
    counts.retried++;
    counts.commandsSent++;
    answers.push(await withRetries(send, deadline, () => counts.retried++));
  }
  if (Math.random() < 0.05) {
    // A careless client: the same command again in parallel with no key. The rules refuse the extra ones.
    const bare = () => request('POST', `/api/matches/${match.id}/${path}`, token, body);
    counts.commandsSent += 2;
    counts.duplicatesSent += 2;
    for (const a of await Promise.all([withRetries(bare, deadline), withRetries(bare, deadline)])) record(match, a);
  }
  const ok = answers.filter((a) => a.status === 200);
  // Every answer for one key must be the first answer.
  const first = JSON.stringify(sortKeys(ok[0]?.body));
  for (const a of ok) if (JSON.stringify(sortKeys(a.body)) !== first) throw new Error(`two different answers for key ${key}`);
  for (const a of answers) record(match, a);
}

function record(match: Match, answer: Answer): void {
  if (answer.status === 200) {
    counts.accepted++;
    for (const e of answer.body.events as { version: number; type: string }[]) {
      const known = match.acknowledged.get(e.version);
      if (known !== undefined) {
        counts.replayedAnswers++;
        if (known !== e.type) throw new Error(`match ${match.id}: version ${e.version} acknowledged as ${known} and as ${e.type}`);
      }
      match.acknowledged.set(e.version, e.type);
    }
  } else if (answer.status >= 400 && answer.status < 500) counts.refused++;
}

// ---- creating the matches ---------------------------------------------------------------------

/** Which seats of match i are open: none for most, else one of a few lobby tables. */
function openSeatsOf(i: number): boolean[] {
  if (LOBBY_EVERY <= 0 || i % LOBBY_EVERY !== 1) return [false, false, false];
  return [
    [false, true, true],
    [true, false, true],
    [true, true, true],
    [true, false, false],
  ][Math.floor(i / LOBBY_EVERY) % 4];
}

async function createMatch(i: number, deadline: number): Promise<Match> {
  const open = openSeatsOf(i);
  const names = [`bot-${i}-a`, `bot-${i}-b`, `bot-${i}-c`];
  const created = await withRetries(
    () =>
      request('POST', '/api/matches', undefined, {
        players: names.map((name, seat) => (open[seat] ? null : name)),
        options: { schedule: i % MODERN_EVERY === 0 ? 'modern' : 'quick', leadBeforeDiscard: i % 2 ? 'reject' : 'redeal' },
      }),
    deadline,
  );
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const tokens: string[] = [];
  for (const s of created.body.seats as { seat: number; token: string }[]) tokens[s.seat] = s.token;
  const match: Match = { id: created.body.id, tokens, acknowledged: new Map([[1, 'MatchCreated']]) };
  if (open.some(Boolean)) {
    counts.lobbyMatches++;
    // The bots take the open seats in a random order.
    const seats = [0, 1, 2].filter((s) => open[s]).sort(() => Math.random() - 0.5);
    for (const seat of seats) match.tokens[seat] = await joinSeat(match.id, seat, names[seat], deadline);
  }
  return match;
}

/** A join is not idempotent: a retry after a join that went through finds the seat taken, and its token is gone. */
async function joinSeat(id: string, seat: number, name: string, deadline: number): Promise<string> {
  const joined = await withRetries(() => request('POST', `/api/matches/${id}/seats/${seat}/join`, undefined, { name }), deadline);
  if (joined.status !== 201) throw new Error(`join of seat ${seat} of ${id}: ${joined.status} ${JSON.stringify(joined.body)}`);
  counts.seatsJoined++;
  return joined.body.token;
}

// ---- faults -----------------------------------------------------------------------------------

async function cutDatabaseConnections(serverUrl: string, database: string): Promise<number> {
  const c = new Client({ connectionString: serverUrl });
  await c.connect();
  try {
    const r = await c.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return r.rows[0].n;
  } finally {
    await c.end();
  }
}

// ---- checks -----------------------------------------------------------------------------------

async function verify(databaseUrl: string, matches: Match[]): Promise<string[]> {
  const problems: string[] = [];
  const ds = await openDataSource(postgresDataSourceOptions({ url: databaseUrl, poolSize: 4 }));
  const store = new EventStore(ds, { notifications: 'none' });
  try {
    const gaps: { stream_id: string; n: number; max: number }[] = await ds.query(
      `SELECT stream_id, count(*)::int AS n, max(version) AS max FROM events GROUP BY stream_id HAVING count(*) <> max(version) OR min(version) <> 1`,
    );
    counts.gaps = gaps.length;
    if (gaps.length) problems.push(`${gaps.length} streams with gaps`);
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM events');
    counts.eventsAppended = n;
    for (const m of matches) {
      const rows = await store.readProvenStream(m.id);
      const log = new Map(rows.map((r) => [r.version, r.type]));
      for (const [version, type] of m.acknowledged) {
        if (log.get(version) !== type) {
          counts.eventsLost++;
          problems.push(`match ${m.id}: acknowledged ${type} at version ${version} is not in the log`);
        }
      }
      const events = rows.map((r) => ({ type: r.type, data: r.data }) as BismarckEvent);
      if (events.at(-1)?.type === 'MatchFinished') counts.matchesFinished++;
      else problems.push(`match ${m.id} did not finish`);
      // Nothing twice, nothing out of order: the whole log replays through the rules.
      const doc = exportOf(m.id, rows);
      const audit = auditMatch(doc);
      if (!audit.ok) {
        counts.eventsDuplicated++;
        problems.push(`match ${m.id}: audit fails at version ${audit.firstFailure}: ${audit.checks.filter((c) => !c.ok).map((c) => c.detail).join('; ')}`);
      }
      const [{ doc: served }] = await ds.query('SELECT doc FROM scorecards WHERE match_id = $1', [m.id]);
      if (JSON.stringify(sortKeys(served)) !== JSON.stringify(sortKeys(JSON.parse(JSON.stringify(scorecard(fold(events))))))) {
        problems.push(`match ${m.id}: the scorecard served is not the one recomputed from the log`);
      }
    }
    const rebuilder = new ProjectionRebuilder(store, ds, (work) => ds.transaction((q) => work(q)));
    await rebuilder.rebuild();
    const differences = await rebuilder.compare();
    await rebuilder.dropRebuildTables();
    for (const d of differences) if (d.onlyLive || d.onlyRebuilt) problems.push(`${d.table}: live and rebuilt differ (${d.onlyLive}/${d.onlyRebuilt} rows)`);
    await store.close();
  } finally {
    await ds.destroy();
  }
  return problems;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

// ---- the journeys ------------------------------------------------------------------------------

/**
 * Property-based journeys (test/support/journey.ts), more and longer than the jest spec runs: a
 * broken promise is a problem. Their own database on the same server; the apps run in this process.
 */
async function journeysPhase(problems: string[]): Promise<(Omit<JourneyReport, 'counterexample'> & { counterexample: string | null }) | null> {
  if (JOURNEYS <= 0) return null;
  try {
    const report = await runJourneys({
      numRuns: JOURNEYS,
      seed: JOURNEY_SEED,
      timeLimitMs: JOURNEYS_MS,
      // Some traditional and modern matches too, played to the end.
      longSchedules: 1,
      longMatchActions: null,
      log: process.env.CHAOS_VERBOSE ? (line) => console.error(line) : undefined,
    });
    if (!report.ok) problems.push(`journeys: ${formatReport(report)}`);
    return { ...report, counterexample: report.counterexample?.described ?? null };
  } catch (error) {
    problems.push(`journeys could not run: ${(error as Error).stack ?? error}`);
    return null;
  }
}

// ---- the run ----------------------------------------------------------------------------------

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  if (!serverUrl) {
    console.error('test:chaos needs a real PostgreSQL server in DATABASE_URL (two api processes cannot share the embedded one).');
    process.exit(2);
  }
  const started = Date.now();
  const deadline = started + DEADLINE_MS;
  const db = await freshDatabase(serverUrl);
  const dbName = new URL(db.url).pathname.slice(1);
  apis = [new Api('api-a', db.url), new Api('api-b', db.url)];
  let problems: string[] = [];
  try {
    await apis[0].start(); // migrates
    await apis[1].start();
    const matches: Match[] = [];
    for (let i = 0; i < MATCHES; i++) matches.push(await createMatch(i, deadline));
    const total = () => matches.reduce((n, m) => n + m.acknowledged.size, 0);
    // About 170 events make a quick match and 660 a modern one: faults strike at 25% and 55% of the run.
    const modern = matches.filter((_, i) => i % MODERN_EVERY === 0).length;
    const expected = modern * 660 + (matches.length - modern) * 170;
    let playing = true;
    const play = Promise.all(matches.map((m) => playMatch(m, deadline))).finally(() => (playing = false));
    // Faults, while the bots play: kill one api mid-run and bring it back; cut the database connections once.
    const faults = (async () => {
      while (playing && total() < expected * 0.25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await apis[0].kill();
      counts.kills++;
      await new Promise((r) => setTimeout(r, 1500));
      await apis[0].start();
      counts.restarts++;
      while (playing && total() < expected * 0.55 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      counts.dbCuts++;
      await cutDatabaseConnections(serverUrl, dbName);
    })();
    await Promise.all([play, faults]);
    await Promise.all(apis.map((a) => a.kill()));
    problems = [...crashes, ...(await verify(db.url, matches))];
  } catch (error) {
    problems.push(String((error as Error).stack ?? error));
  } finally {
    await Promise.all(apis.map((a) => a.kill()));
    // CHAOS_KEEP_DB=1 keeps a failed run's database for a look.
    if (problems.length && process.env.CHAOS_KEEP_DB) console.error(`kept database ${dbName}`);
    else await db.drop().catch(() => undefined);
  }
  const journeys = await journeysPhase(problems);
  const summary = {
    ok: problems.length === 0,
    durationMs: Date.now() - started,
    matches: MATCHES,
    ...counts,
    journeys,
    problems: problems.slice(0, 20),
  };
  console.log(`chaos: ${MATCHES} matches (${counts.lobbyMatches} lobby tables) through 2 api processes; ${counts.commandsSent} commands sent (${counts.retried} retries, ${counts.duplicatesSent} duplicates), ${counts.refused} refused, ${counts.eventsAppended} events, ${counts.matchesFinished} finished, ${counts.eventsLost} lost`);
  if (journeys) console.log(`chaos: ${journeys.counts.journeys} journeys (${journeys.counts.failedJourneys} broke a promise), ${journeys.counts.matches} matches, ${journeys.counts.actions} actions`);
  for (const p of problems.slice(0, 20)) console.log(`  problem: ${p}`);
  console.log(JSON.stringify(summary));
  process.exit(summary.ok ? 0 : 1);
}

void main();
