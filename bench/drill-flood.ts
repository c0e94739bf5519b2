// `npm run drill:flood`: the hostile trial of issues 30 and 43 (item 2b), as a drill. A flooder plays
// 40 matches of a person against two strong bots, the person played as fast as the service lets it (each
// move sent the moment its view shows one), and 10 matches of three strong bots (they play themselves).
// A victim plays a person against two strong bots: first alone, then under the flood. Where they come from
// (`DRILL_FLOOD_FROM`):
//   - `one` (the default): the flood from 127.0.0.2, the victim, anonymous, from 127.0.0.3;
//   - `shared`: the victim at the flooder's own address (a club's wifi, a NAT), signed in with an account
//     of its own (its seat bound to it): the address's own places under STRONG_BOT_MATCHES_PER_CALLER are
//     the flood's, and a person behind a shared address gets places of their own by signing in;
//   - `many`: each flood match from its own address, 127.0.0.10…127.0.0.49 (the bot-only ones from
//     127.0.0.50…), anonymous; the victim, anonymous, from 127.0.0.3.
// From one address the cap refuses most anonymous matches against strong bots, so the flooder first tries
// all its person matches anonymously (counted: `floodCreations.anonymousAccepted`/`anonymousRefused`), plays
// those accepted, and creates the rest with player accounts of its own (POST /api/players; 4 matches per
// account, the bot-only ones with further accounts), the person's seat left unbound (each match a person of
// its own in the fair queue, the harder case) or, with `DRILL_FLOOD_SEATS=bound`, bound to the account.
// A creation refused RATE_LIMITED (RATE_LIMIT_CREATES_PER_ADDRESS counts accounts, matches and refused
// tries alike) waits its Retry-After and goes on, as a patient attacker would (`floodCreations.rateLimited`).
// Measured:
//   - the victim's bot replies: from its move's answer to its next turn in sight, whenever a bot moved in
//     between; a reply in which a bot forehand laid away waited BOT_TABLE_CARDS_PAUSE_MS on purpose (so the
//     person sees the table cards, docs/bots.md) and is counted without that pause (`replyUnderFloodMs`;
//     with it: `replyWithPauseUnderFloodMs`);
//     between (p50, p90, max), alone and under the flood;
//   - the victim's bot moves, read from its match's log afterwards: the time from the event before a
//     service move to the move's own (`at`): the bot's notification, queue wait, decision and append;
//   - a person's command: the victim's under the flood, and every POST of the victim and the flood's persons.
// Targets (issues 30, 43): under the flood, reply p90 ≤ 5 × p90 alone and ≤ 1 s, max ≤ 2 s; the victim's
// command p99 ≤ 100 ms (every person's is shown too: the flood's forty persons, always in flight, wait
// behind each other). The last line of the output is one JSON object; progress goes to stderr.
//
//   npm run drill:flood
//   DRILL_FLOOD_FROM=shared npm run drill:flood          (or many; DRILL_FLOOD_SEATS=bound)
//   DRILL_FLOOD=40 DRILL_BOT_ONLY=10 DRILL_ANONYMOUS_TRIES=40 DRILL_VICTIM_SCHEDULE=traditional DRILL_WARMUP_SECONDS=5 npm run drill:flood
//   DRILL_API_MAIN=<another build's dist/apps/api/src/main.js> measures that build; DRILL_API_NODE_ARGS="--cpu-prof …" profiles it.
// The api runs with its defaults (BOT_THREADS 1, STRONG_BOT_MATCHES_PER_CALLER 4) in its own process, on
// the embedded database in memory, or with DATABASE_URL on a scratch database of that server (dropped at the end).
import { request, type ClientRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { chooseAction, requestOf, type BotView } from '@bismarck/bots';
import { benchSettings, Connection, embedded, loadAverage, logger, openScratchDatabase, round, serverUrl, sleep, sseFrames, startBenchApi, wallMs, type Reply, type Server } from './common';

const { num, setting } = benchSettings('DRILL_');
const FLOOD = num('FLOOD', 40);
const BOT_ONLY = num('BOT_ONLY', 10);
const VICTIM_SCHEDULE = setting('VICTIM_SCHEDULE') ?? 'traditional';
const FLOOD_SCHEDULE = setting('FLOOD_SCHEDULE') ?? 'modern';
const WARMUP_SECONDS = num('WARMUP_SECONDS', 5);
const FLOOD_FROM = setting('FLOOD_FROM') ?? 'one';
const FLOOD_SEATS = setting('FLOOD_SEATS') ?? 'unbound';
/** Anonymous creations the flooder tries first from its one address (one, shared). */
const ANONYMOUS_TRIES = num('ANONYMOUS_TRIES', FLOOD);
/** Matches a flooder's account creates (the api's STRONG_BOT_MATCHES_PER_CALLER, its default). */
const PER_ACCOUNT = num('PER_ACCOUNT', 4);
const log = logger('drill');
/** The api's pause before a bot forehand lays away in a match with a person (its default, or as set for it). */
const TABLE_CARDS_PAUSE_MS = Number(process.env.BOT_TABLE_CARDS_PAUSE_MS ?? 1500);
if (!['one', 'shared', 'many'].includes(FLOOD_FROM)) throw new Error(`DRILL_FLOOD_FROM must be one, shared or many, got ${FLOOD_FROM}`);
if (!['unbound', 'bound'].includes(FLOOD_SEATS)) throw new Error(`DRILL_FLOOD_SEATS must be unbound or bound, got ${FLOOD_SEATS}`);
if (FLOOD + BOT_ONLY > 200) throw new Error('DRILL_FLOOD + DRILL_BOT_ONLY: at most 200 (one loopback address each in many)');

// Each party from a loopback address of its own: the api counts clients, and callers, by address.
const FLOOD_ADDRESS = '127.0.0.2';
const VICTIM_ADDRESS = FLOOD_FROM === 'shared' ? FLOOD_ADDRESS : '127.0.0.3';
/** The address flood match `i` (the bot-only ones after the persons') is created and played from. */
const floodAddress = (i: number): string => (FLOOD_FROM === 'many' ? `127.0.0.${10 + i}` : FLOOD_ADDRESS);

const STRONG = { bot: 'strong' };

/** The answer's body, or the drill stops with the request and its answer. */
function ok<T>(reply: Reply, what: string): T {
  if (reply.status >= 400) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as T;
}

/** Requests sent again because the api had closed their idle keep-alive connection as they were sent. */
let resent = 0;

/**
 * `api.request`, sent once more when the connection was reset: on this loaded machine a person may wait
 * longer than the api's keep-alive timeout for its bots, and the api then closes the idle connection just
 * as the next request goes out. It closes only a connection with no request in it, so the first was never
 * read and sending again is safe.
 */
async function send(api: Connection, method: string, path: string, token?: string, body?: unknown): Promise<Reply> {
  try {
    return await api.request(method, path, token, body);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE' && !/closed the connection/.test(String(error))) throw error;
    resent++;
    await sleep(10); // the reset socket's 'close' comes on a later tick: the connection then opens another
    return api.request(method, path, token, body);
  }
}

/** A problem's stable code, if the answer is one. */
const codeOf = (reply: Reply): string | undefined => (reply.body as { code?: string } | null)?.code;

interface Created {
  id: string;
  seats: { token: string }[];
}

/** Creations of one party, as the api answered them. */
class Creations {
  anonymousAccepted = 0;
  anonymousRefused = 0;
  accounts = 0;
  withAccounts = 0;
  /** Refused by the creation limit (then retried after Retry-After), and the seconds waited. */
  rateLimited = 0;
  rateLimitWaitSeconds = 0;

  /** POST `path` as a creation: a RATE_LIMITED answer waits its Retry-After and asks again. */
  async post(api: Connection, path: string, token: string | undefined, body: unknown): Promise<Reply> {
    for (;;) {
      const reply = await send(api, 'POST', path, token, body);
      if (reply.status !== 429 || codeOf(reply) !== 'RATE_LIMITED') return reply;
      const seconds = Number((reply.body as { retryAfter?: number }).retryAfter ?? 1);
      this.rateLimited++;
      this.rateLimitWaitSeconds += seconds;
      log(`a creation refused RATE_LIMITED: waiting ${seconds} s`);
      await sleep(seconds * 1000 + 100);
    }
  }

  async account(api: Connection, name: string): Promise<{ id: string; token: string }> {
    const account = ok<{ id: string; token: string }>(await this.post(api, '/api/players', undefined, { name }), 'register a player');
    this.accounts++;
    return account;
  }

  /** A match, or null when the cap on strong-bot matches refused it (429 TOO_MANY_BOT_MATCHES). */
  async match(api: Connection, token: string | undefined, players: unknown[], schedule: string): Promise<Created | null> {
    const reply = await this.post(api, '/api/matches', token, { players, options: { schedule } });
    const refused = reply.status === 429 && codeOf(reply) === 'TOO_MANY_BOT_MATCHES';
    if (token === undefined) refused ? this.anonymousRefused++ : this.anonymousAccepted++;
    if (refused) return null;
    const created = ok<Created>(reply, 'create a match');
    if (token !== undefined) this.withAccounts++;
    return created;
  }

  figures(): Record<string, number> {
    const { anonymousAccepted, anonymousRefused, accounts, withAccounts, rateLimited, rateLimitWaitSeconds } = this;
    return { anonymousAccepted, anonymousRefused, accounts, withAccounts, rateLimited, rateLimitWaitSeconds };
  }
}

/** A match's live stream, for its seat: tells when the log has moved past a version. */
class Stream {
  private last = 0;
  private waiting: { after: number; done: () => void }[] = [];
  private req: ClientRequest | undefined;
  private buffer = '';
  private closed = false;

  constructor(
    private readonly port: number,
    private readonly localAddress: string,
    private readonly matchId: string,
    private readonly token: string,
  ) {}

  open(): void {
    const headers = { accept: 'text/event-stream', authorization: `Bearer ${this.token}`, 'last-event-id': String(this.last) };
    const req = request({ host: '127.0.0.1', port: this.port, localAddress: this.localAddress, path: `/api/matches/${this.matchId}/events/stream`, headers, agent: false });
    this.req = req;
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => this.onText(text));
      // The match ended (or the api dropped a slow reader): wake everyone; they look at the view.
      res.on('close', () => this.release());
    });
    req.on('error', () => this.release());
    req.end();
  }

  /** Resolves once an event past `version` arrived (or the stream ended). */
  next(version: number): Promise<void> {
    if (this.last > version || this.closed) return Promise.resolve();
    return new Promise((done) => this.waiting.push({ after: version, done }));
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
    this.release();
  }

  private onText(text: string): void {
    const { frames, rest } = sseFrames(this.buffer + text);
    this.buffer = rest;
    for (const frame of frames) if (frame.startsWith('id: ')) this.last = Math.max(this.last, Number(frame.slice(4, frame.indexOf('\n'))));
    const ready = this.waiting.filter((w) => this.last > w.after);
    this.waiting = this.waiting.filter((w) => this.last <= w.after);
    for (const w of ready) w.done();
  }

  private release(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.done();
  }
}

/** A bot reply as the person saw it: from its move's answer (at `from`) to its next turn in sight (at `to`). */
interface BotReply {
  ms: number;
  from: number;
  to: number;
}

interface Played {
  matchId: string;
  /** The token the person plays with (its seat's). */
  token: string;
  /** Milliseconds from the person's move answered to its next turn in sight, when a bot moved meanwhile. */
  replies: BotReply[];
  /** Milliseconds of each of the person's commands (accepted ones). */
  commands: number[];
  /** The versions the person's own commands appended (the rest of the log is the service's moves). */
  own: Set<number>;
  finished: boolean;
}

/**
 * Plays seat 0 as a person who answers at once: reads its view, sends greedy's move, and when it is
 * not its turn waits for the next event on its stream. Stops when the match ends or `stop()` says so.
 */
async function playPerson(port: number, address: string, played: Played, stop: () => boolean): Promise<Played> {
  const { matchId, token } = played;
  const api = new Connection(port, address);
  const stream = new Stream(port, address, matchId, token);
  stream.open();
  let answeredAt: number | null = null;
  let answeredVersion = 0;
  try {
    while (!stop()) {
      const view = ok<BotView & { status: string; version: number }>(await send(api, 'GET', `/api/matches/${matchId}/view`, token), 'view');
      if (view.status === 'finished') {
        played.finished = true;
        break;
      }
      const action = view.legal ? requestOf(chooseAction(view, 'greedy')) : null;
      if (!action) {
        await stream.next(view.version);
        continue;
      }
      // Someone else moved since the person's last move: the bots (a person's own second move in a row is no reply).
      if (answeredAt !== null && view.version > answeredVersion) played.replies.push({ ms: wallMs() - answeredAt, from: answeredVersion, to: view.version });
      const sent = wallMs();
      const reply = await send(api, 'POST', `/api/matches/${matchId}/${action.route}`, token, 'body' in action ? action.body : undefined);
      // 409: a bot moved first (its dealer deals before the person on its right cuts): look again.
      if (reply.status === 409) continue;
      const { version } = ok<{ version: number }>(reply, action.route);
      answeredAt = wallMs();
      answeredVersion = version;
      played.commands.push(answeredAt - sent);
      for (let v = view.version + 1; v <= version; v++) played.own.add(v);
    }
  } finally {
    stream.close();
    api.close();
  }
  return played;
}

const at = (sorted: number[], p: number): number => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]);
function summary(xs: number[]): { n: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = xs.slice().sort((a, b) => a - b);
  return { n: sorted.length, p50: round(at(sorted, 0.5)), p90: round(at(sorted, 0.9)), p99: round(at(sorted, 0.99)), max: round(sorted[sorted.length - 1] ?? NaN) };
}

const playing = (m: Created): Played => ({ matchId: m.id, token: m.seats[0].token, replies: [], commands: [], own: new Set(), finished: false });

interface LoggedEvent {
  version: number;
  at: string;
  type: string;
  data: { seat?: number };
}

/** The victim match's log, as its person's seat reads it. */
async function matchLog(port: number, played: Played): Promise<LoggedEvent[]> {
  const api = new Connection(port, VICTIM_ADDRESS);
  const events: LoggedEvent[] = [];
  try {
    for (let after: number | null = 0; after !== null; ) {
      const page: { events: LoggedEvent[]; next: number | null } = ok(
        await send(api, 'GET', `/api/matches/${played.matchId}/events?after=${after}&limit=100`, played.token),
        'read the victim match',
      );
      events.push(...page.events);
      after = page.next;
    }
  } finally {
    api.close();
  }
  return events;
}

/**
 * The replies less the pause the service owed on purpose: a bot that lays away in a match with a person
 * waits BOT_TABLE_CARDS_PAUSE_MS first (its CardsLaidAway by a seat other than the person's, seat 0).
 */
function withoutPause(replies: BotReply[], events: LoggedEvent[]): number[] {
  const paused = new Set(events.filter((e) => e.type === 'CardsLaidAway' && e.data.seat !== 0).map((e) => e.version));
  return replies.map((r) => {
    for (let v = r.from + 1; v <= r.to; v++) if (paused.has(v)) return Math.max(0, r.ms - TABLE_CARDS_PAUSE_MS);
    return r.ms;
  });
}

/**
 * Milliseconds from the event before each of the service's moves to the move (by the log's `at`): the
 * bot's wake-up, queue wait, decision and append. A move's second event (a trick taken) follows its first
 * in the same append, so only the first event of each move counts.
 */
function serviceMoveGaps(played: Played, events: LoggedEvent[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < events.length; i++) {
    if (played.own.has(events[i].version)) continue;
    const gap = Date.parse(events[i].at) - Date.parse(events[i - 1].at);
    if (gap > 0) gaps.push(gap);
  }
  return gaps;
}

/** The victim: anonymous, or (shared) signed in with its own account, its seat bound to it. */
interface Victim {
  api: Connection;
  account: { id: string; token: string } | null;
  creations: Creations;
}

async function victimMatch(server: Server, victim: Victim, schedule = VICTIM_SCHEDULE): Promise<Played> {
  const person = victim.account ? { player: victim.account.id } : 'Victim';
  const m = await victim.creations.match(victim.api, victim.account?.token, [person, STRONG, STRONG], schedule);
  if (m === null) throw new Error('the victim match was refused TOO_MANY_BOT_MATCHES');
  return playPerson(server.port, VICTIM_ADDRESS, playing(m), () => false);
}

async function main(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const target = serverUrl ? await openScratchDatabase(serverUrl, 'drill') : null;
  const apiMain = setting('API_MAIN');
  const apiNodeArgs = (setting('API_NODE_ARGS') ?? '').split(' ').filter(Boolean);
  const server = await startBenchApi(root, { apiMain, apiNodeArgs, logLevel: 'warn' }, target?.url ?? '', { BISMARCK_DATA_DIR: 'memory' });
  const victim: Victim = { api: new Connection(server.port, VICTIM_ADDRESS), account: null, creations: new Creations() };
  try {
    log(`api on port ${server.port} (${embedded ? 'embedded database in memory' : target!.where}); the flood from ${FLOOD_FROM}`);
    const loadBefore = loadAverage();
    if (FLOOD_FROM === 'shared') victim.account = await victim.creations.account(victim.api, 'Victim');
    // Warm up the bot thread (it starts with its first decision) and the api's code paths.
    await victimMatch(server, victim, 'quick');

    log(`the victim alone (${VICTIM_SCHEDULE}) from ${VICTIM_ADDRESS}${victim.account ? ', signed in' : ''}`);
    const alone = await victimMatch(server, victim);
    log(`alone: ${JSON.stringify(summary(alone.replies.map((r) => r.ms)))}`);

    log(`the flood: ${FLOOD} person-vs-two-strong-bots matches and ${BOT_ONLY} of three strong bots, from ${FLOOD_FROM === 'many' ? `127.0.0.10…127.0.0.${9 + FLOOD + BOT_ONLY}` : FLOOD_ADDRESS}`);
    const floodStarted = wallMs();
    const creations = new Creations();
    const connections = new Map<string, Connection>();
    const connection = (address: string): Connection => connections.get(address) ?? connections.set(address, new Connection(server.port, address)).get(address)!;
    let stopping = false;
    const flood: Played[] = [];
    const persons: Promise<Played>[] = [];
    const play = (m: Created, address: string): void => {
      const played = playing(m);
      flood.push(played);
      const person = playPerson(server.port, address, played, () => stopping);
      // Its failure is reported by Promise.all at the end, not as an unhandled rejection in between.
      person.catch(() => undefined);
      persons.push(person);
    };
    if (FLOOD_FROM === 'many') {
      // One anonymous caller per match: the cap on each address is never reached.
      for (let i = 0; i < FLOOD + BOT_ONLY; i++) {
        const person = i < FLOOD;
        const m = await creations.match(connection(floodAddress(i)), undefined, person ? ['Flood', STRONG, STRONG] : [STRONG, STRONG, STRONG], FLOOD_SCHEDULE);
        if (m === null) throw new Error(`flood match ${i} from ${floodAddress(i)} was refused TOO_MANY_BOT_MATCHES`);
        if (person) play(m, floodAddress(i));
      }
    } else {
      // From one address: first as anyone would, anonymously; the cap lets a few through, which are played.
      const api = connection(FLOOD_ADDRESS);
      for (let i = 0; i < ANONYMOUS_TRIES; i++) {
        const m = await creations.match(api, undefined, ['Flood', STRONG, STRONG], FLOOD_SCHEDULE);
        if (m !== null && flood.length < FLOOD) play(m, FLOOD_ADDRESS);
      }
      log(`anonymously: ${creations.anonymousAccepted} accepted, ${creations.anonymousRefused} refused TOO_MANY_BOT_MATCHES; the rest with accounts`);
      // Then with accounts of its own, each up to the cap; the bot-only matches count against it too.
      let account: { id: string; token: string } | null = null;
      let used = 0;
      const next = async (players: (seat: unknown) => unknown[]): Promise<Created> => {
        for (;;) {
          if (account === null || used >= PER_ACCOUNT) {
            account = await creations.account(api, `Flood ${creations.accounts + 1}`);
            used = 0;
          }
          const m = await creations.match(api, account.token, players({ player: account.id }), FLOOD_SCHEDULE);
          used++;
          if (m !== null) return m;
          used = PER_ACCOUNT; // this account is at the cap: the next one
        }
      };
      while (flood.length < FLOOD) play(await next((bound) => [FLOOD_SEATS === 'bound' ? bound : 'Flood', STRONG, STRONG]), FLOOD_ADDRESS);
      for (let i = 0; i < BOT_ONLY; i++) await next(() => [STRONG, STRONG, STRONG]);
    }
    for (const c of connections.values()) c.close();
    const floodReady = wallMs();
    const movesAtReady = flood.reduce((n, p) => n + p.commands.length, 0);
    log(`the flood created in ${round((floodReady - floodStarted) / 1000, 1)} s: ${JSON.stringify(creations.figures())}`);
    await sleep(WARMUP_SECONDS * 1000);

    log('the victim under the flood');
    const started = wallMs();
    const loaded = await victimMatch(server, victim);
    const seconds = (wallMs() - started) / 1000;
    stopping = true;
    await Promise.all(persons);
    const floodEnded = wallMs();
    log(`under the flood: ${JSON.stringify(summary(loaded.replies.map((r) => r.ms)))}`);
    const loadAfter = loadAverage();

    const aloneLog = await matchLog(server.port, alone);
    const loadedLog = await matchLog(server.port, loaded);
    const replyAlone = summary(withoutPause(alone.replies, aloneLog));
    const replyLoaded = summary(withoutPause(loaded.replies, loadedLog));
    const commands = summary([...loaded.commands, ...flood.flatMap((p) => p.commands)]);
    const victimCommands = summary(loaded.commands);
    const floodMoves = flood.reduce((n, p) => n + p.commands.length, 0);
    const targets = {
      replyP90WithinFiveTimesAlone: replyLoaded.p90 <= 5 * replyAlone.p90,
      replyP90AtMost1s: replyLoaded.p90 <= 1000,
      replyMaxAtMost2s: replyLoaded.max <= 2000,
      // The person the flood must not harm is the victim; the flood's own commands wait behind each other
      // (forty always in flight, as fast as the api answers), and are shown beside it.
      victimCommandP99AtMost100ms: victimCommands.p99 <= 100,
      everyCommandP99AtMost100ms: commands.p99 <= 100,
    };
    console.log(
      JSON.stringify({
        api: apiMain ?? 'dist/apps/api/src/main.js',
        database: embedded ? 'embedded' : 'postgres',
        flood: FLOOD,
        botOnly: BOT_ONLY,
        victimSchedule: VICTIM_SCHEDULE,
        replyAloneMs: replyAlone,
        victimCommandAloneMs: summary(alone.commands),
        replyUnderFloodMs: replyLoaded,
        replyWithPauseUnderFloodMs: summary(loaded.replies.map((r) => r.ms)),
        tableCardsPauseMs: TABLE_CARDS_PAUSE_MS,
        commandUnderFloodMs: commands,
        victimCommandUnderFloodMs: victimCommands,
        floodPersonMoves: floodMoves,
        // From the moment the whole flood was created (its creation may wait out the creation limit).
        floodMovesPerSecond: round((floodMoves - movesAtReady) / ((floodEnded - floodReady) / 1000), 1),
        victimSeconds: round(seconds, 1),
        targets,
        cpus: availableParallelism(),
        floodFrom: FLOOD_FROM,
        floodAddresses: FLOOD_FROM === 'many' ? `127.0.0.10-127.0.0.${9 + FLOOD + BOT_ONLY}` : FLOOD_ADDRESS,
        floodSeats: FLOOD_FROM === 'many' ? 'anonymous' : FLOOD_SEATS,
        victimAddress: VICTIM_ADDRESS,
        victimSignedIn: victim.account !== null,
        victimCreations: victim.creations.figures(),
        floodCreations: creations.figures(),
        floodSetupSeconds: round((floodReady - floodStarted) / 1000, 1),
        victimServiceMoveAloneMs: summary(serviceMoveGaps(alone, aloneLog)),
        victimServiceMoveUnderFloodMs: summary(serviceMoveGaps(loaded, loadedLog)),
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAfter,
        requestsResent: resent,
      }),
    );
  } finally {
    victim.api.close();
    await server.stop();
    await target?.drop();
  }
}

void main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
