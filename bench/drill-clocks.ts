// `npm run drill:clocks`: the clock target of issue 43, as a drill. Many clocked matches of three persons
// are brought to the same position (forehand has laid away and is to lead), and nobody moves after that:
// every match must get its stand-in's move. Their deadlines pass together: the lay-aways go in waves of
// DRILL_WAVE a second, and a match of wave g was created with a turn one second shorter than wave g-1's,
// so however slowly a loaded machine takes them, the deadlines fall within about a second (the spread of
// one wave's answers; measured, `deadlineSpreadMs`).
// Among them, DRILL_FROZEN "freezers" lay away with an Idempotency-Key chosen to collide with the key the
// service's stand-in would use for its next move (`stand-in-{v+2}` for DRILL_KEY_SHARE of them, the
// others `bot-{v+2}` and other guesses in turn; v the version before the lay-away), the attack that froze
// a match for good. Their deadlines are a second older than the others', so that a sweep that reads the
// oldest overdue rows first meets them first.
// Measured, from the log: each stand-in move's `at` minus its TurnTimedOut's `deadline`.
// Target (issue 43): stand-in moves p99 ≤ deadline + 1 s, max ≤ 2 s; 0 frozen matches (a match whose
// stand-in has not moved DRILL_GRACE_SECONDS after its deadline is frozen). The last line of the output
// is one JSON object, whatever the figures (exit 1 only when the drill itself fails); progress on stderr.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432 npm run drill:clocks
//   DRILL_MATCHES=100 DRILL_FROZEN=20 DRILL_INSTANCES=2 DATABASE_URL=… npm run drill:clocks      (a quick run)
//   DRILL_TURN_SECONDS (the first wave's turn; default from the sizes: the set-up must fit in it),
//   DRILL_WAVE (40 lay-aways a second), DRILL_KEY_SHARE (0.5), DRILL_CONCURRENCY (16 set-up connections),
//   DRILL_BURST_CONCURRENCY (32 lay-away connections), DRILL_GRACE_SECONDS (30), DRILL_TAIL_SECONDS (30:
//   how much longer to look whether a match counted frozen moves at all: `frozenForGood`),
//   DRILL_API_MAIN=<another build's dist/apps/api/src/main.js>, DRILL_API_NODE_ARGS="--cpu-prof …".
// The api runs with its own defaults (CLOCK_SWEEP_MS, STAND_IN_BOT, BOT_THREADS; set them in the env to
// change them) and no rate limits, in its own process(es): with DATABASE_URL on a scratch database of that
// server (dropped at the end; DRILL_INSTANCES=2 runs two on it), else on the embedded database in memory.
// The drill talks to it over HTTP only, as a client would: its key scheme is the service's own business.
import { availableParallelism } from 'node:os';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { chooseAction, requestOf, type BotView } from '@bismarck/bots';
import {
  benchSettings,
  Connection,
  embedded,
  loadAverage,
  logger,
  openScratchDatabase,
  percentile,
  PLAYERS,
  processCpuSeconds,
  round,
  serverUrl,
  sleep,
  startBenchApi,
  type Reply,
  type Server,
  type Target,
} from './common';

const { num, setting } = benchSettings('DRILL_');
const MATCHES = Math.floor(num('MATCHES', 1000));
const FROZEN = Math.floor(num('FROZEN', 105));
const INSTANCES = Math.max(1, Math.floor(num('INSTANCES', 1)));
const CONCURRENCY = Math.max(1, Math.floor(num('CONCURRENCY', 16)));
const BURST_CONCURRENCY = Math.max(1, Math.floor(num('BURST_CONCURRENCY', 32)));
const GRACE_SECONDS = num('GRACE_SECONDS', 30);
/** After the grace, how much longer to look whether the matches counted frozen move at all (slow, or stuck for good). */
const TAIL_SECONDS = num('TAIL_SECONDS', 30);
const WAVE = Math.max(1, Math.floor(num('WAVE', 40)));
const KEY_SHARE = Math.min(1, num('KEY_SHARE', 0.5));
/** Waves of lay-aways, one a second: the freezers' first, then the honest matches'. */
const WAVES = Math.ceil(FROZEN / WAVE) + Math.ceil(MATCHES / WAVE);
// Every match waits for its lay-away from its contract on: the set-up (about 10 matches a second on two
// busy cores) must fit in the first wave's turn, and the last wave's turn must outlast the grace, so
// that the turn after the stand-in's lead does not run out before the drill has looked.
const TURN_SECONDS = Math.ceil(num('TURN_SECONDS', GRACE_SECONDS + TAIL_SECONDS + 15 + WAVES + (MATCHES + FROZEN) / 8));
// The next person's turn (after the stand-in's lead) must not run out while the drill looks.
if (TURN_SECONDS > 3600 || TURN_SECONDS - WAVES - 1 < Math.max(5, GRACE_SECONDS + TAIL_SECONDS + 5)) {
  throw new Error(`DRILL_TURN_SECONDS ${TURN_SECONDS} with ${WAVES} waves: every turn must be ${GRACE_SECONDS + TAIL_SECONDS + 5} to 3600 s (raise DRILL_WAVE or DRILL_TURN_SECONDS)`);
}
const REQUEST_TIMEOUT_MS = 30_000;
/** A keep-alive socket idle this long is closed and opened again (Node's servers close theirs after 5 s). */
const IDLE_MS = 3_000;
const log = logger('drill:clocks');

// ---------------------------------------------------------------- the drill's client
/** common.ts's Connection, lasting (a time limit, idle sockets opened again, one resend after a reset), with the drill's options. */
class Http extends Connection {
  constructor(port: number) {
    super(port, undefined, { timeoutMs: REQUEST_TIMEOUT_MS, idleMs: IDLE_MS });
  }

  ask(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
    return this.request(method, path, options.token, options.body, options.headers);
  }
}

// ---------------------------------------------------------------- the drill's own calls, counted
/** Non-2xx answers (and failed requests) to the drill's own calls, by what and why. */
const refusals = new Map<string, number>();
/** The same for the freezers' lay-aways with their colliding keys: not the drill's own legit calls. */
const keyRefusals = new Map<string, number>();
function refused(what: string, why: string, counted = refusals): void {
  const key = `${what} ${why}`;
  counted.set(key, (counted.get(key) ?? 0) + 1);
}

/** The answer's body when it is 2xx; else null, counted as a refusal. */
async function call<T>(http: Http, what: string, method: string, path: string, options?: Parameters<Http['ask']>[2]): Promise<T | null> {
  let reply: Reply;
  try {
    reply = await http.ask(method, path, options);
  } catch (error) {
    refused(what, error instanceof Error ? error.message.slice(0, 80) : String(error));
    return null;
  }
  if (reply.status >= 200 && reply.status < 300) return reply.body as T;
  refused(what, `${reply.status} ${(reply.body as { code?: string } | null)?.code ?? ''}`.trim());
  return null;
}

/** `width` workers, each with a keep-alive connection to every instance, kept from one `each` to the next. */
class Pool {
  private readonly workers: Http[][];

  constructor(ports: readonly number[], width: number) {
    this.workers = Array.from({ length: width }, () => ports.map((port) => new Http(port)));
  }

  /** Runs `work` over `items`, at most `width` at once; `http(instance)` is the worker's connection to that instance. */
  async each<T>(items: readonly T[], work: (item: T, http: (instance: number) => Http) => Promise<void>): Promise<void> {
    let next = 0;
    await Promise.all(
      this.workers.slice(0, items.length).map(async (connections) => {
        while (next < items.length) await work(items[next++], (instance) => connections[instance]);
      }),
    );
  }

  close(): void {
    for (const connections of this.workers) for (const c of connections) c.close();
  }
}

// ---------------------------------------------------------------- the matches
/** Keys a freezer lays away with, v being the match's version before the lay-away (the stand-in's timeout is v+2). */
const KEY_GUESSES: { scheme: string; key: (v: number) => string }[] = [
  { scheme: 'stand-in-{v+2}', key: (v) => `stand-in-${v + 2}` },
  { scheme: 'bot-{v+2}', key: (v) => `bot-${v + 2}` },
  { scheme: 'stand-in-{v+1}', key: (v) => `stand-in-${v + 1}` },
  { scheme: 'stand-in-{v+3}', key: (v) => `stand-in-${v + 3}` },
  { scheme: 'v{v+2}', key: (v) => `v${v + 2}` },
  { scheme: 'service-{v+2}', key: (v) => `service-${v + 2}` },
  { scheme: 'standIn-{v+2}', key: (v) => `standIn-${v + 2}` },
  { scheme: '{v+2}', key: (v) => `${v + 2}` },
];
/** KEY_SHARE of the freezers try the key that froze matches (issue 43), spread among them; the others the other guesses in turn. */
function schemes(freezers: number): number[] {
  let others = 0;
  return Array.from({ length: freezers }, (_, i) => (Math.floor((i + 1) * KEY_SHARE) > Math.floor(i * KEY_SHARE) ? 0 : 1 + (others++ % (KEY_GUESSES.length - 1))));
}

interface EventDto {
  version: number;
  type: string;
  at: string;
  data: Record<string, unknown> | null;
  standIn?: boolean;
}
interface CommandAnswer {
  version: number;
  events: EventDto[];
}

interface Clocked {
  n: number;
  instance: number;
  /** Its lay-away goes `wave` seconds into the burst; its turns are this long, so that its deadline is the others'. */
  wave: number;
  turnSeconds: number;
  /** The index of KEY_GUESSES it lays away with; null: an honest match (no key). */
  scheme: number | null;
  id?: string;
  tokens?: string[];
  forehand?: number;
  /** The lay-away it will make, at `version`, decided at `since` (ms; its contract was accepted just before). */
  laidAway?: { cards: string[]; version: number; since: number };
  /** After the lay-away: its version and the deadline of the lead (ms), from the log's time. */
  discardVersion?: number;
  deadline?: number;
  /** From the log, once seen: the TurnTimedOut and the stand-in's move. */
  timedOutAt?: number;
  loggedDeadline?: number;
  standInAt?: number;
  moving?: boolean;
  /** The api refused the freezer's key (it then laid away without one). */
  keyRefused?: boolean;
}

/** Creates a clocked match of three persons and brings it to forehand's lay-away; false when the api refused a step. */
async function setUp(m: Clocked, http: Http): Promise<boolean> {
  const created = await call<{ id: string; firstDealer: number; seats: { seat: number; token: string }[] }>(http, 'create', 'POST', '/api/matches', {
    body: { players: PLAYERS, options: { clock: { turnSeconds: m.turnSeconds } } },
  });
  if (!created) return false;
  m.id = created.id;
  m.tokens = [0, 1, 2].map((seat) => created.seats.find((s) => s.seat === seat)!.token);
  const dealt = await call<CommandAnswer>(http, 'deal', 'POST', `/api/matches/${m.id}/deal`, { token: m.tokens[created.firstDealer] });
  if (!dealt) return false;
  const started = dealt.events.find((e) => e.type === 'DealStarted');
  m.forehand = typeof started?.data?.forehand === 'number' ? started.data.forehand : (created.firstDealer + 1) % 3;
  const token = m.tokens[m.forehand];
  // Forehand's moves as the greedy bot would make them, from its own view: contract, then the lay-away.
  for (const route of ['contract', 'discard'] as const) {
    const view = await call<BotView & { version: number }>(http, 'view', 'GET', `/api/matches/${m.id}/view`, { token });
    if (!view) return false;
    const action = view.legal ? requestOf(chooseAction(view, 'greedy')) : null;
    if (action?.route !== route) {
      refused('view', `expected ${route}, the view offers ${action?.route ?? 'nothing'}`);
      return false;
    }
    if (route === 'discard') {
      m.laidAway = { cards: (action.body as { cards: string[] }).cards, version: view.version, since: Date.now() };
      return true;
    }
    if (!(await call<CommandAnswer>(http, 'contract', 'POST', `/api/matches/${m.id}/contract`, { token, body: action.body }))) return false;
  }
  return false;
}

/**
 * The lay-away: a freezer's with its colliding key. Records the deadline the lead's clock runs to. A
 * service that refuses the key (4xx) has still to play the match: the freezer then lays away without one.
 */
async function layAway(m: Clocked, http: Http): Promise<void> {
  const path = `/api/matches/${m.id}/discard`;
  const options = { token: m.tokens![m.forehand!], body: { cards: m.laidAway!.cards } };
  let answer: CommandAnswer | null = null;
  if (m.scheme === null) answer = await call<CommandAnswer>(http, 'discard', 'POST', path, options);
  else {
    const key = KEY_GUESSES[m.scheme].key(m.laidAway!.version);
    const reply = await http.ask('POST', path, { ...options, headers: { 'idempotency-key': key } }).catch((error: unknown) => error as Error);
    if (!(reply instanceof Error) && reply.status >= 200 && reply.status < 300) answer = reply.body as CommandAnswer;
    else if (!(reply instanceof Error) && reply.status >= 400 && reply.status < 500) {
      refused('discard with a colliding key', `${reply.status} ${(reply.body as { code?: string } | null)?.code ?? ''}`.trim(), keyRefusals);
      m.keyRefused = true;
      answer = await call<CommandAnswer>(http, 'discard', 'POST', path, options);
    } else refused('discard with a colliding key', reply instanceof Error ? reply.message.slice(0, 80) : String(reply.status));
  }
  if (!answer || answer.events.length === 0) return;
  m.discardVersion = answer.version;
  // The lead's turn began with the lay-away's event: its clock runs from that event's time.
  m.deadline = Date.parse(answer.events[answer.events.length - 1].at) + m.turnSeconds * 1000;
}

/** Reads the match's log past its lay-away: the timeout of forehand's lead and the stand-in's move after it. */
async function look(m: Clocked, http: Http): Promise<void> {
  const page = await call<{ events: EventDto[] }>(http, 'events', 'GET', `/api/matches/${m.id}/events?after=${m.discardVersion}&limit=20`, { token: m.tokens![m.forehand!] });
  if (!page) return;
  const timeout = page.events.find((e) => e.type === 'TurnTimedOut' && e.data?.seat === m.forehand);
  if (!timeout) return;
  m.timedOutAt = Date.parse(timeout.at);
  m.loggedDeadline = Date.parse(String(timeout.data!.deadline));
  const move = page.events.find((e) => e.version > timeout.version && e.standIn === true);
  if (move) m.standInAt = Date.parse(move.at);
}

// ---------------------------------------------------------------- the api's own counters
/** bismarck_commands_total by `type outcome`, summed over the instances (null when /metrics does not answer them). */
async function commandCounts(servers: Http[]): Promise<Map<string, number> | null> {
  const counts = new Map<string, number>();
  for (const http of servers) {
    let reply: Reply;
    try {
      reply = await http.ask('GET', '/metrics');
    } catch {
      return null;
    }
    if (reply.status !== 200 || typeof reply.body !== 'string') return null;
    for (const m of reply.body.matchAll(/^bismarck_commands_total\{type="(\w+)",outcome="(\w+)"\} (\d+)/gm)) {
      const key = `${m[1]} ${m[2]}`;
      counts.set(key, (counts.get(key) ?? 0) + Number(m[3]));
    }
  }
  return counts;
}
const delta = (now: Map<string, number>, before: Map<string, number>, key: string): number => (now.get(key) ?? 0) - (before.get(key) ?? 0);

function summary(xs: number[]): { n: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = Float64Array.from(xs).sort();
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p90: round(percentile(sorted, 90)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN) };
}
const spread = (xs: number[]): number => (xs.length === 0 ? NaN : Math.max(...xs) - Math.min(...xs));
const median = (xs: number[]): number => percentile(Float64Array.from(xs).sort(), 50);

// ---------------------------------------------------------------- the drill
async function main(): Promise<void> {
  if (embedded && INSTANCES > 1) throw new Error('DRILL_INSTANCES > 1 needs DATABASE_URL (the embedded database serves one process)');
  const root = join(__dirname, '..', '..');
  const apiMain = setting('API_MAIN');
  const apiNodeArgs = (setting('API_NODE_ARGS') ?? '').split(' ').filter(Boolean);
  // The drill's own client is one address with thousands of requests and creations: no limits for it.
  const unlimited = {
    RATE_LIMIT_PER_TOKEN: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_CREATES_PER_ADDRESS: '0',
    RATE_LIMIT_PER_PLAYER: '0',
    RATE_LIMIT_CREATES_PER_PLAYER: '0',
    BISMARCK_DATA_DIR: 'memory',
  };
  let target: Target | null = null;
  const servers: Server[] = [];
  let cleaning: Promise<void> | undefined;
  // Whatever happens (an error, Ctrl-C), the api processes are stopped and the scratch database dropped.
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await target?.drop().catch((error: unknown) => log(`dropping the scratch database: ${String(error)}`));
    })());
  const interrupted = (): void => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    target = serverUrl ? await openScratchDatabase(serverUrl, 'drill_clocks') : null;
    for (let i = 0; i < INSTANCES; i++) servers.push(await startBenchApi(root, { apiMain, apiNodeArgs, logLevel: 'warn' }, target?.url ?? '', unlimited));
    log(`${INSTANCES} api process(es) on port(s) ${servers.map((s) => s.port).join(', ')} (${target?.where ?? 'embedded database in memory'})`);
    const ports = servers.map((s) => s.port);
    const watch = ports.map((p) => new Http(p));
    const pool = new Pool(ports, CONCURRENCY);
    const burstPool = new Pool(ports, BURST_CONCURRENCY);

    // Freezers first, a second ahead of the others: theirs are the oldest deadlines. The set-up goes in
    // the order of the waves, so a match set up late is one whose lay-away comes late too.
    const all: Clocked[] = [];
    const freezerWaves = Math.ceil(FROZEN / WAVE);
    schemes(FROZEN).forEach((scheme, i) => {
      const wave = Math.floor(i / WAVE);
      all.push({ n: i, instance: i % INSTANCES, wave, turnSeconds: TURN_SECONDS - wave - 1, scheme });
    });
    for (let i = 0; i < MATCHES; i++) {
      const wave = freezerWaves + Math.floor(i / WAVE);
      all.push({ n: FROZEN + i, instance: (FROZEN + i) % INSTANCES, wave, turnSeconds: TURN_SECONDS - wave, scheme: null });
    }
    log(`setting up ${MATCHES} honest and ${FROZEN} freezing matches, turns of ${TURN_SECONDS} s down to ${Math.min(...all.map((m) => m.turnSeconds))} s, ${CONCURRENCY} connections`);

    const setUpStarted = Date.now();
    let ready = 0;
    let failed = 0;
    const setUpTicker = setInterval(() => log(`set up ${ready}/${all.length}${failed ? ` (${failed} refused)` : ''}, ${round(ready / ((Date.now() - setUpStarted) / 1000), 1)} a second`), 5000);
    try {
      await pool.each(all, async (m, http) => {
        // The first match's clock runs out TURN_SECONDS after its contract: leave the time for the waves.
        if (Date.now() - setUpStarted > (TURN_SECONDS - WAVES - 10) * 1000) return void failed++;
        if (await setUp(m, http(m.instance))) ready++;
        else failed++;
      });
    } finally {
      clearInterval(setUpTicker);
    }
    const setUpSeconds = (Date.now() - setUpStarted) / 1000;
    const waiting = all.filter((m) => m.laidAway !== undefined);
    log(`set up ${waiting.length}/${all.length} in ${round(setUpSeconds, 1)} s`);
    if (waiting.length < all.length * 0.99) {
      throw new Error(`only ${waiting.length} of ${all.length} matches were set up in ${round(setUpSeconds, 1)} s (refusals: ${JSON.stringify(Object.fromEntries(refusals))}); raise DRILL_TURN_SECONDS or lower the sizes`);
    }

    // The waves: one a second, each as fast as the api takes it; one that overruns delays the next.
    const burstStarted = Date.now();
    let overruns = 0;
    for (let wave = 0; wave < WAVES; wave++) {
      const startAt = burstStarted + wave * 1000;
      if (Date.now() < startAt) await sleep(startAt - Date.now());
      else if (wave > 0) overruns++;
      const these = waiting.filter((m) => m.wave === wave);
      // Its contract's clock (as long as its lead's) must still run when its lay-away arrives.
      const late = these.filter((m) => Date.now() > m.laidAway!.since + (m.turnSeconds - 2) * 1000);
      if (late.length > 0) throw new Error(`wave ${wave}: ${late.length} matches' turns run out before their lay-away; raise DRILL_TURN_SECONDS`);
      await burstPool.each(these, (m, http) => layAway(m, http(m.instance)));
    }
    const burstSeconds = (Date.now() - burstStarted) / 1000;
    pool.close();
    burstPool.close();
    const clocked = waiting.filter((m) => m.deadline !== undefined);
    if (clocked.length === 0) throw new Error(`no lay-away was accepted (refusals: ${JSON.stringify(Object.fromEntries(refusals))})`);
    const deadlines = clocked.map((m) => m.deadline!);
    const firstDeadline = Math.min(...deadlines);
    const lastDeadline = Math.max(...deadlines);
    const honestDeadlines = clocked.filter((m) => m.scheme === null).map((m) => m.deadline!);
    const freezerDeadlines = clocked.filter((m) => m.scheme !== null).map((m) => m.deadline!);
    log(
      `${clocked.length} lay-aways in ${WAVES} waves over ${round(burstSeconds, 1)} s (${overruns} waves late): honest deadlines within ${round(spread(honestDeadlines))} ms, ` +
        `all within ${round(spread(deadlines))} ms, the first in ${round((firstDeadline - Date.now()) / 1000, 1)} s`,
    );

    // Nothing moves until the deadlines: the drill waits without a request.
    for (let i = 0; i < 3600 && Date.now() < firstDeadline - 1500; i++) {
      await sleep(Math.min(10_000, firstDeadline - 1500 - Date.now()));
      if (Date.now() < firstDeadline - 1500) log(`the first deadline in ${round((firstDeadline - Date.now()) / 1000)} s`);
    }
    const before = (await commandCounts(watch)) ?? new Map<string, number>();
    const cpuBefore = servers.map((s) => processCpuSeconds(s.child.pid!));
    const windowStarted = Date.now();
    const bound = lastDeadline + GRACE_SECONDS * 1000;
    const end = bound + TAIL_SECONDS * 1000;

    // The deadlines pass. The log has the last word (each match's events past its lay-away), but reading
    // every match's log again and again would take the api's CPU from the stand-ins: the api's own
    // counters (one cheap read a second) tell when enough stand-in moves were made since the last look
    // for every match not seen yet to have had its own (with two instances a move may count twice: a
    // look that finds some still waiting waits for as many moves again), and without new moves for a
    // few seconds the drill looks at the rest. It stops when every match had its stand-in's move, at
    // the latest at the end of the tail (those without one by the bound are frozen).
    const reader = new Pool(ports, CONCURRENCY);
    let pending = clocked;
    let lastLog = 0;
    let lastLook = 0;
    let movesAtLook = 0;
    let lastMoves = -1;
    let movedAt = Date.now();
    const lookAtPending = async (): Promise<void> => {
      await reader.each(pending, (m, http) => look(m, http(m.instance)));
      pending = pending.filter((m) => m.standInAt === undefined);
      lastLook = Date.now();
    };
    for (let i = 0; i < 36_000 && pending.length > 0 && Date.now() < end; i++) {
      await sleep(1000);
      const now = await commandCounts(watch);
      const moves = now === null ? NaN : delta(now, before, 'playCard accepted');
      if (now !== null && Date.now() - lastLog >= 2000) {
        lastLog = Date.now();
        const timeOuts = delta(now, before, 'timeOut accepted');
        const refusedMoves = delta(now, before, 'playCard refused');
        log(`${round((Date.now() - firstDeadline) / 1000, 1)} s past the first deadline: ${timeOuts} timeouts, ${moves} stand-in leads, ${refusedMoves} refused stand-in moves; ${pending.length} matches not seen moved yet`);
      }
      if (moves !== lastMoves) {
        lastMoves = moves;
        movedAt = Date.now();
      }
      const past = Date.now() > lastDeadline + 1000;
      const enough = moves >= movesAtLook + pending.length;
      const stalled = Date.now() - movedAt >= 3000 && Date.now() - lastLook >= 10_000;
      if (past && (Number.isNaN(moves) ? Date.now() - lastLook >= 5000 : enough || stalled)) {
        await lookAtPending();
        movesAtLook = Number.isNaN(moves) ? 0 : moves;
        if (pending.length > 0) log(`looked: ${pending.length} matches without their stand-in's move yet`);
      }
    }
    const cpuAtEnd = servers.map((s) => processCpuSeconds(s.child.pid!));
    const windowSeconds = (Date.now() - windowStarted) / 1000;
    const apiCpuSeconds = cpuAtEnd.reduce((sum, cpu, i) => sum + cpu - cpuBefore[i], 0);
    if (pending.length > 0) await lookAtPending();
    // A freezer keeps moving: after its stand-in's lead the next person's clock runs.
    const freezers = clocked.filter((m) => m.scheme !== null);
    await reader.each(freezers, async (m, http) => {
      const state = await call<{ clock: { seat: number } | null }>(http(m.instance), 'state', 'GET', `/api/matches/${m.id}`);
      m.moving = m.standInAt !== undefined && state?.clock?.seat === (m.forehand! + 1) % 3;
    });
    reader.close();
    for (const c of watch) c.close();

    const lookedAt = Date.now();
    const moved = clocked.filter((m) => m.standInAt !== undefined && m.standInAt <= m.loggedDeadline! + GRACE_SECONDS * 1000);
    const movedSet = new Set(moved);
    const isFrozen = (m: Clocked): boolean => !movedSet.has(m);
    // Every match counts: one whose stand-in never moved, at the time the drill last looked (a lower bound),
    // so that matches left behind never flatter the percentiles.
    const unmoved = clocked.filter((m) => m.standInAt === undefined);
    const late = summary(clocked.map((m) => (m.standInAt ?? lookedAt) - (m.loggedDeadline ?? m.deadline!)));
    const frozen = clocked.filter(isFrozen);
    // Per key tried: refused at the lay-away, frozen (no stand-in move within the grace), and of those never moved.
    const byKey: Record<string, { tried: number; keyRefused: number; frozen: number; forGood: number }> = {};
    for (const m of freezers) {
      const entry = (byKey[KEY_GUESSES[m.scheme!].scheme] ??= { tried: 0, keyRefused: 0, frozen: 0, forGood: 0 });
      entry.tried++;
      if (m.keyRefused) entry.keyRefused++;
      if (isFrozen(m)) entry.frozen++;
      if (m.standInAt === undefined) entry.forGood++;
    }
    const result = {
      matches: clocked.filter((m) => m.scheme === null).length,
      frozenTried: freezers.length,
      instances: INSTANCES,
      database: embedded ? 'embedded' : 'postgres',
      // The first wave's turn; each later wave's one second shorter (the freezers' one more).
      turnSeconds: TURN_SECONDS,
      waves: WAVES,
      waveOverruns: overruns,
      setUpSeconds: round(setUpSeconds, 1),
      burstSeconds: round(burstSeconds, 1),
      // The honest matches' deadlines; with the freezers' (a second earlier by design) in `allDeadlineSpreadMs`.
      deadlineSpreadMs: round(spread(honestDeadlines)),
      allDeadlineSpreadMs: round(spread(deadlines)),
      freezersAheadMs: round(median(honestDeadlines) - median(freezerDeadlines)),
      lateMs: late,
      lateMsCensored: unmoved.length,
      // The sweep's part of the lateness: the TurnTimedOut's time minus its deadline.
      timeoutLagMs: summary(clocked.filter((m) => m.timedOutAt !== undefined).map((m) => m.timedOutAt! - m.loggedDeadline!)),
      lateOver1s: clocked.filter((m) => m.standInAt === undefined || m.standInAt - m.loggedDeadline! > 1000).length,
      frozen: frozen.length,
      frozenHonest: frozen.filter((m) => m.scheme === null).length,
      frozenFreezers: frozen.filter((m) => m.scheme !== null).length,
      // Counted frozen, then: moved within the tail (slow), or not at all (stuck for good).
      frozenMovedLater: frozen.length - unmoved.length,
      frozenForGood: unmoved.length,
      tailSeconds: TAIL_SECONDS,
      neverTimedOut: clocked.filter((m) => m.timedOutAt === undefined).length,
      freezersMoving: freezers.filter((m) => m.moving).length,
      byKey,
      refusals: [...refusals.values()].reduce((a, b) => a + b, 0),
      refusalKinds: Object.fromEntries(refusals),
      keyRefusalKinds: Object.fromEntries(keyRefusals),
      apiCpuSeconds: round(apiCpuSeconds, 1),
      windowSeconds: round(windowSeconds, 1),
      api: apiMain ?? 'dist/apps/api/src/main.js',
      cpus: availableParallelism(),
      loadAverage: loadAverage(),
      ok: late.p99 <= 1000 && late.max <= 2000 && frozen.length === 0,
    };
    console.log(JSON.stringify(result));
  } finally {
    await cleanUp();
  }
}

void main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
