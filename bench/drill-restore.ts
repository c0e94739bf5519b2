// `npm run drill:restore`: backup and point-in-time restore, drilled (issue 33, item 4). A PostgreSQL
// cluster archives its WAL with pgBackRest (bench/clusters/pgbackrest.ts); the api runs on it and the
// drill plays seeded matches through HTTP (and the service plays matches of three bots):
//   1. matches played to the end, one left mid-deal, bot matches: then a full base backup;
//   2. more matches to the end, more left mid-deal, bot matches, while other matches are played
//      without a pause; in the middle of that play the target T is read from the server's clock;
//   3. the live matches go on past T, new matches are created after T; the last WAL segment is
//      archived and the machine is lost (api killed, PostgreSQL stopped at once, data directory gone);
//   4. pgBackRest restores to T into a new cluster on a new port, the api starts on it, and the drill
//      checks what docs/operations.md ("Backup and point-in-time restore") promises:
//      every event acknowledged before T is there with the hash it was written with, nothing sent
//      after T is; every match's audit (with the hash pinned before T) is ok and `bismarck verify`
//      passes on every finished match's export; the ratings projector's checkpoint is not ahead of the
//      restored log and follows what is appended after the restore; live streams resume from a
//      `Last-Event-ID` seen before T and answer one past the restored log as documented;
//      `bismarck rebuild --compare-only` finds no row differing.
// A command is "before T" when its answer came before the query that read T was sent, "after T"
// when it was sent after that query answered; the few in flight meanwhile may be on either side.
// The last line of stdout is one JSON object; progress goes to stderr. Exit 1 when a target is missed.
//
//   npm run drill:restore
//   DRILL_MATCHES_BEFORE_BACKUP=4 DRILL_MATCHES=6 DRILL_PARTIAL=4 DRILL_LIVE=3 DRILL_BOT_MATCHES=3 \
//     DRILL_AFTER_TARGET_COMMANDS=60 DRILL_WORKERS=3 DRILL_DEADLINE_SECONDS=570 npm run drill:restore   (the defaults)
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { toDomainEvent } from '@bismarck/match';
import { fold, mulberry32 } from '@bismarck/rules';
import {
  benchSettings,
  Connection,
  createSeededMatch,
  logger,
  playNext,
  round,
  sleep,
  sseFrames,
  startBenchApi,
  wallMs,
  type LocalMatch,
  type Reply,
  type Server,
} from './common';
import { startArchivedCluster, type Archive, type Cluster } from './clusters/pgbackrest';
import { waitFor } from './clusters/postgres-tools';

const { num } = benchSettings('DRILL_');
/** Seeded matches played to the end before the base backup. */
const MATCHES_BEFORE_BACKUP = num('MATCHES_BEFORE_BACKUP', 4);
/** Seeded matches played to the end between the backup and T. */
const MATCHES = num('MATCHES', 6);
/** Matches left mid-deal before T (the first one started before the backup). */
const PARTIAL = Math.max(1, num('PARTIAL', 4));
/** Matches played without a pause across T (a finished one is followed by a new one). */
const LIVE = Math.max(1, num('LIVE', 3));
/** Matches of three bots played by the service, before the backup and again before T. */
const BOT_MATCHES = num('BOT_MATCHES', 3);
/** Commands each live match goes on after T. */
const AFTER_TARGET_COMMANDS = Math.max(5, num('AFTER_TARGET_COMMANDS', 60));
const WORKERS = Math.max(1, num('WORKERS', 3));
const DEADLINE_SECONDS = num('DEADLINE_SECONDS', 570);
const DATABASE = 'bismarck';
const log = logger('drill');
const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist/apps/cli/src/main.js');
const RANDOM_BOT = { bot: 'random' };
const exec = promisify(execFile);

// The drill plays from one address far faster than people: no rate limits.
const API_ENV = {
  RATE_LIMIT_PER_TOKEN: '0',
  RATE_LIMIT_PER_ADDRESS: '0',
  RATE_LIMIT_CREATES_PER_ADDRESS: '0',
  RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS: '0',
};

/** Versions `from..to` of a match acknowledged to a client: sent at `sentAt`, answered at `ackAt` (wallMs). */
interface Ack {
  from: number;
  to: number;
  sentAt: number;
  ackAt: number;
}

interface Job {
  t?: Tracked;
  commands: number;
}

interface Tracked {
  id: string;
  kind: 'seeded' | 'bots';
  /** The seeded match as folded here (absent for bot matches: the service plays them). */
  local?: LocalMatch;
  acks: Ack[];
  /** `<version>:<hash>` read before T (GET /api/matches/{id}'s checkpoint). */
  pin?: string;
}

const matches: Tracked[] = [];
let counter = 0;

function ok<T>(reply: Reply, what: string): T {
  if (reply.status >= 400) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 500)}`);
  return reply.body as T;
}

async function createTracked(c: Connection, tag: string): Promise<Tracked> {
  const sentAt = wallMs();
  const local = await createSeededMatch(c, counter++, tag);
  const t: Tracked = { id: local.id, kind: 'seeded', local, acks: [{ from: 1, to: local.version, sentAt, ackAt: wallMs() }] };
  matches.push(t);
  return t;
}

async function step(c: Connection, t: Tracked): Promise<void> {
  const r = await playNext(c, t.local!);
  t.acks.push({ from: r.from, to: r.to, sentAt: r.ackAt - r.ms, ackAt: r.ackAt });
}

const finished = (t: Tracked): boolean => t.local?.state.status === 'finished';

async function play(c: Connection, t: Tracked, commands = Infinity): Promise<void> {
  for (let i = 0; i < commands && !finished(t); i++) await step(c, t);
}

/** A match of three random bots (quick schedule), played by the service; resolves once it is seen finished. */
async function botMatch(c: Connection, tag: string, wait = true): Promise<Tracked> {
  const sentAt = wallMs();
  const created = ok<{ id: string; version: number }>(
    await c.request('POST', '/api/matches', undefined, { players: [RANDOM_BOT, RANDOM_BOT, RANDOM_BOT], options: { schedule: 'quick' } }),
    `create bot match ${tag}`,
  );
  const t: Tracked = { id: created.id, kind: 'bots', acks: [{ from: 1, to: created.version, sentAt, ackAt: wallMs() }] };
  matches.push(t);
  if (!wait) return t;
  // What a client saw of it: the finished match at its version, at the moment the answer came.
  await waitFor(`bot match ${t.id} to finish`, 120_000, async () => {
    const seenFrom = wallMs();
    const state = ok<{ status: string; version: number }>(await c.request('GET', `/api/matches/${t.id}`), 'bot match state');
    if (state.status !== 'finished') return undefined;
    t.acks.push({ from: 1, to: state.version, sentAt: seenFrom, ackAt: wallMs() });
    return true;
  }, 200);
  return t;
}

/** Runs the jobs on `workers` connections at once. */
async function inParallel<T>(port: number, items: T[], workers: number, work: (item: T, c: Connection) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, items.length) }, async () => {
      const c = new Connection(port);
      try {
        while (next < items.length) await work(items[next++], c);
      } finally {
        c.close();
      }
    }),
  );
}

// ---------------------------------------------------------------- reading a log and a live stream
interface LoggedEvent {
  version: number;
  type: string;
  hash: string;
}

/** Every stream's events (version order) with their hashes: the log as it stands. */
async function readLog(cluster: Cluster): Promise<Map<string, LoggedEvent[]>> {
  const rows = await cluster.query<{ stream_id: string } & LoggedEvent>(
    DATABASE,
    `SELECT stream_id, version, type, encode(hash, 'hex') AS hash FROM events ORDER BY stream_id, version`,
  );
  const byStream = new Map<string, LoggedEvent[]>();
  for (const { stream_id, ...e } of rows) {
    const list = byStream.get(stream_id) ?? [];
    list.push(e);
    byStream.set(stream_id, list);
  }
  return byStream;
}

/** A match's local fold rebuilt from the restored log, to go on playing it on the restored service. */
async function restoredLocal(cluster: Cluster, t: Tracked): Promise<LocalMatch> {
  const rows = await cluster.query<{ type: string; data: unknown }>(DATABASE, 'SELECT type, data FROM events WHERE stream_id = $1 ORDER BY version', [t.id]);
  return { ...t.local!, state: fold(rows.map(toDomainEvent)), version: rows.length, random: mulberry32(counter++ + 1000) };
}

interface StreamProbe {
  status: number;
  body: string;
  ids: number[];
  close(): void;
  /** Resolves true once an event at `version` or later came, false after `ms`. */
  reached(version: number, ms?: number): Promise<boolean>;
}

/** `GET …/events/stream` as a spectator with `Last-Event-ID`: the status, and the ids as they come. */
function openStream(port: number, matchId: string, lastEventId: number): Promise<StreamProbe> {
  return new Promise((done, fail) => {
    const headers = { accept: 'text/event-stream', 'last-event-id': String(lastEventId) };
    const req = request({ host: '127.0.0.1', port, path: `/api/matches/${matchId}/events/stream`, headers, agent: false });
    req.on('error', fail);
    req.on('response', (res) => {
      res.setEncoding('utf8');
      let buffer = '';
      const probe: StreamProbe = {
        status: res.statusCode ?? 0,
        body: '',
        ids: [],
        close: () => {
          req.removeAllListeners('error');
          req.on('error', () => undefined);
          req.destroy();
        },
        reached: async (version, ms = 10_000) => {
          const deadline = Date.now() + ms;
          while ((probe.ids.at(-1) ?? 0) < version && Date.now() < deadline) await sleep(50);
          return (probe.ids.at(-1) ?? 0) >= version;
        },
      };
      res.on('data', (text: string) => {
        if (probe.status !== 200) probe.body += text;
        else {
          const { frames, rest } = sseFrames(buffer + text);
          buffer = rest;
          for (const frame of frames) {
            const m = /^id: (\d+)$/m.exec(frame);
            if (m) probe.ids.push(Number(m[1]));
          }
        }
      });
      if (probe.status === 200) done(probe);
      else res.on('end', () => done(probe));
    });
    req.end();
  });
}

const consecutive = (ids: number[], from: number): boolean => ids.every((id, i) => id === from + i);

// ---------------------------------------------------------------- the drill
async function main(): Promise<boolean> {
  const drillStarted = wallMs();
  let archive: Archive | undefined;
  const servers: Server[] = [];
  // Whatever way the drill ends (an error, SIGINT, the deadline), no cluster, process or directory stays.
  process.on('exit', () => {
    for (const s of servers) s.child.kill('SIGKILL');
    archive?.cleanup();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(`${signal}: cleaning up`);
      process.exit(130);
    });
  }
  setTimeout(() => {
    log(`the drill passed ${DEADLINE_SECONDS} s: giving up`);
    process.exit(1);
  }, DEADLINE_SECONDS * 1000).unref();

  archive = await startArchivedCluster(DATABASE, log);
  const primary = archive.primary;
  const api = await startBenchApi(ROOT, { apiNodeArgs: [], logLevel: 'warn' }, primary.url(DATABASE), API_ENV);
  servers.push(api);
  log(`api on port ${api.port}`);
  const c = new Connection(api.port);

  // 1. Before the base backup.
  log(`before the backup: ${MATCHES_BEFORE_BACKUP} matches to the end, 1 left mid-deal, ${BOT_MATCHES} bot matches`);
  // A job plays its match (made at its first run) to the end, or for so many commands.
  const partials: Job[] = Array.from({ length: PARTIAL }, (_, i) => ({ commands: 25 + 17 * i }));
  const toTheEnd = (n: number): Job[] => Array.from({ length: n }, () => ({ commands: Infinity }));
  const runJobs = (jobs: Job[], tag: string): Promise<void> =>
    inParallel(api.port, jobs, WORKERS, async (job, conn) => {
      job.t ??= await createTracked(conn, tag);
      await play(conn, job.t, job.commands);
    });
  const botMatches = (tag: string): Promise<void> =>
    inParallel(api.port, Array.from({ length: BOT_MATCHES }, (_, i) => i), 1, async (i, conn) => void (await botMatch(conn, `${tag}-${i}`)));
  await Promise.all([runJobs([...toTheEnd(MATCHES_BEFORE_BACKUP), partials[0]], 'before-backup'), botMatches('before-backup')]);
  const backup = archive.backupFull();
  log(`full backup ${backup.label}: ${round(backup.seconds, 1)} s, ${round(backup.bytes / 1e6, 1)} MB (${round(backup.repoBytes / 1e6, 1)} MB in the repository)`);

  // 2. Between the backup and T, with live matches played all along.
  const control = { targetTaken: false };
  const live = Array.from({ length: LIVE }, async (_, i) => {
    const conn = new Connection(api.port);
    try {
      let t = await createTracked(conn, `live-${i}`);
      for (let after = 0; after < AFTER_TARGET_COMMANDS; ) {
        if (finished(t)) t = await createTracked(conn, `live-${i}`);
        const counts = control.targetTaken;
        await step(conn, t);
        if (counts) after++;
      }
    } finally {
      conn.close();
    }
  });
  log(`before T: ${MATCHES} matches to the end, ${PARTIAL} left mid-deal, ${BOT_MATCHES} bot matches, ${LIVE} live matches`);
  // The match left mid-deal before the backup goes on a little, across the backup.
  partials[0].commands = 11;
  await Promise.all([runJobs([...toTheEnd(MATCHES), ...partials], 'before-target'), botMatches('before-target')]);
  // The checkpoint each client would keep (docs/clients.md, "Pinning the log as you play"): all read before T.
  for (const t of matches) {
    const { checkpoint } = ok<{ checkpoint: { version: number; hash: string } }>(await c.request('GET', `/api/matches/${t.id}`), 'state');
    if (checkpoint.version >= 1) t.pin = `${checkpoint.version}:${checkpoint.hash}`;
  }
  const clock = new Client({ connectionString: primary.url(DATABASE) });
  await clock.connect();
  const targetSent = wallMs();
  // The server's clock, the one commit records carry; UTC with microseconds, as recovery_target_time takes it.
  const [{ target }] = (await clock.query(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS target`)).rows as { target: string }[];
  const targetAnswered = wallMs();
  control.targetTaken = true;
  await clock.end();
  log(`T = ${target}`);

  // 3. After T: the live matches go on, new matches start; then the machine is lost.
  const lostMatch = await createTracked(c, 'after-target');
  await play(c, lostMatch, 10);
  await botMatch(c, 'after-target', false);
  await Promise.all(live);
  const exited = new Promise((r) => api.child.once('exit', r));
  api.child.kill('SIGKILL');
  await exited;
  const written = await readLog(primary);
  const lastWal = await archive.archiveCurrentWal(primary);
  primary.lose();
  const eventsWritten = [...written.values()].reduce((n, l) => n + l.length, 0);
  log(`machine lost after ${eventsWritten} events in ${written.size} streams; WAL archived up to ${lastWal}`);

  // 4. Restore to T.
  const restored = await archive.restoreToTime(target, log);
  const log2 = await readLog(restored.cluster);
  const [checkpointRow] = await restored.cluster.query<{ tx_id: string; position: string }>(DATABASE, `SELECT tx_id::text, position::text FROM subscription_checkpoints WHERE name = 'ratings'`);
  const [head] = await restored.cluster.query<{ tx_id: string; position: string }>(
    DATABASE,
    // Qualified: the bare names would sort the ::text output columns (as text, 999 after 2653).
    'SELECT tx_id::text, position::text FROM events ORDER BY events.tx_id DESC, events.position DESC LIMIT 1',
  );
  const apiStarted = wallMs();
  const api2 = await startBenchApi(ROOT, { apiNodeArgs: [], logLevel: 'warn' }, restored.cluster.url(DATABASE), API_ENV);
  servers.push(api2);
  const c2 = new Connection(api2.port);
  await waitFor('the restored api to be healthy', 30_000, async () => ((await c2.request('GET', '/health')).status === 200 ? true : undefined));
  const apiStartSeconds = (wallMs() - apiStarted) / 1000;
  const restoreSeconds = restored.restoreSeconds + apiStartSeconds;
  log(`restored (timeline ${restored.timeline}) and answering in ${round(restoreSeconds, 1)} s: ${log2.size} streams`);

  // The log: before T all there, as written; after T nothing; in flight either.
  let missingBeforeTarget = 0;
  let afterTargetPresent = 0;
  let divergentEvents = 0;
  let inFlight = 0;
  let inFlightRestored = 0;
  let matchesBeforeTarget = 0;
  let matchesAfterTarget = 0;
  const restoredVersion = new Map<string, number>();
  const lastAcknowledged = new Map<string, number>();
  for (const t of matches) {
    const was = written.get(t.id) ?? [];
    const now = log2.get(t.id) ?? [];
    restoredVersion.set(t.id, now.length);
    lastAcknowledged.set(t.id, Math.max(...t.acks.map((a) => a.to)));
    let before = 0;
    let firstAfter = Infinity;
    for (const a of t.acks) {
      if (a.ackAt < targetSent) before = Math.max(before, a.to);
      else if (a.sentAt > targetAnswered) firstAfter = Math.min(firstAfter, a.from);
      else {
        inFlight++;
        if (now.length >= a.to) inFlightRestored++;
      }
    }
    if (before > 0) matchesBeforeTarget++;
    else matchesAfterTarget++;
    for (let v = 1; v <= before; v++) if (now[v - 1]?.hash === undefined || now[v - 1].hash !== was[v - 1]?.hash) missingBeforeTarget++;
    afterTargetPresent += Math.max(0, now.length - firstAfter + 1);
    divergentEvents += now.filter((e, i) => e.hash !== was[i]?.hash || e.version !== i + 1).length;
  }
  const matchesPlayed = matches.length;
  const unknownStreams = [...log2.keys()].filter((id) => !matches.some((t) => t.id === id)).length;
  const restoredMatches = matches.filter((t) => restoredVersion.get(t.id)! > 0);
  log(`missing before T ${missingBeforeTarget}, present after T ${afterTargetPresent}, in flight at T ${inFlight} (${inFlightRestored} restored), divergent ${divergentEvents}`);

  // Audits (with the pins kept before T) and the offline verifier on every finished match's export.
  const exportsDir = join(archive.dir, 'exports');
  mkdirSync(exportsDir, { recursive: true });
  let auditsFailed = 0;
  const exportFiles: { file: string; pin?: string }[] = [];
  for (const t of restoredMatches) {
    const audit = ok<{ ok: boolean; firstFailure: number | null }>(await c2.request('GET', `/api/matches/${t.id}/audit${t.pin ? `?pin=${t.pin}` : ''}`), 'audit');
    if (!audit.ok) {
      auditsFailed++;
      log(`audit of ${t.id} fails at ${audit.firstFailure}`);
    }
    if (log2.get(t.id)!.some((e) => e.type === 'MatchFinished')) {
      const file = join(exportsDir, `${t.id}.json`);
      writeFileSync(file, JSON.stringify(ok(await c2.request('GET', `/api/matches/${t.id}/export`), 'export')));
      exportFiles.push({ file, pin: t.pin });
    }
  }
  let verifyFailed = 0;
  await inParallel(api2.port, exportFiles, 2, async ({ file, pin }) => {
    try {
      await exec(process.execPath, [CLI, 'verify', file, ...(pin ? ['--pin', pin] : [])]);
    } catch (err) {
      verifyFailed++;
      log(`bismarck verify ${file}: ${(err as { stdout?: string }).stdout ?? String(err)}`);
    }
  });
  log(`${restoredMatches.length - auditsFailed}/${restoredMatches.length} audits ok, ${exportFiles.length - verifyFailed}/${exportFiles.length} exports verified`);

  // Live streams (docs/clients.md): resumed from an id seen before T, an id past the restored log, a lost match.
  const streams: Record<string, unknown> = {};
  const frozen = matches.find((t) => t.kind === 'seeded' && !finished(t) && restoredVersion.get(t.id)! >= 10 && lastAcknowledged.get(t.id) === restoredVersion.get(t.id));
  if (frozen) {
    const end = restoredVersion.get(frozen.id)!;
    const from = end - 5;
    const probe = await openStream(api2.port, frozen.id, from);
    const caughtUp = probe.status === 200 && (await probe.reached(end));
    // A new command on the restored service reaches the open stream.
    const local = await restoredLocal(restored.cluster, frozen);
    await playNext(c2, local);
    const followed = await probe.reached(local.version);
    probe.close();
    streams.resumeBeforeTarget = { status: probe.status, from, restoredEnd: end, newVersion: local.version, ids: probe.ids.length, ok: caughtUp && followed && consecutive(probe.ids, from + 1) };
  }
  const cut = matches.find((t) => t.kind === 'seeded' && lastAcknowledged.get(t.id)! > restoredVersion.get(t.id)! && restoredVersion.get(t.id)! > 0);
  if (cut) {
    const seen = lastAcknowledged.get(cut.id)!;
    const probe = await openStream(api2.port, cut.id, seen);
    probe.close();
    let code: string | undefined;
    try {
      code = (JSON.parse(probe.body) as { code?: string }).code;
    } catch {
      code = undefined;
    }
    streams.beyondRestoredEnd = { status: probe.status, code, lastEventId: seen, restoredEnd: restoredVersion.get(cut.id), ok: probe.status === 400 && code === 'VALIDATION_FAILED' };
    // Played on after the restore past that id, the versions are handed out again, to other events.
    const local = await restoredLocal(restored.cluster, cut);
    while (local.version <= seen && local.state.status !== 'finished') await playNext(c2, local);
    if (local.version > seen) {
      const again = await openStream(api2.port, cut.id, seen);
      again.close();
      const [row] = await restored.cluster.query<{ hash: string }>(DATABASE, `SELECT encode(hash, 'hex') AS hash FROM events WHERE stream_id = $1 AND version = $2`, [cut.id, seen]);
      streams.sameIdAfterNewPlay = { status: again.status, versionReused: seen, sameEventAsBefore: row.hash === written.get(cut.id)![seen - 1].hash };
    }
  }
  {
    const probe = await openStream(api2.port, lostMatch.id, 0);
    probe.close();
    streams.matchCreatedAfterTarget = { status: probe.status, ok: probe.status === 404 };
  }
  const streamsOk = ['resumeBeforeTarget', 'beyondRestoredEnd', 'matchCreatedAfterTarget'].every((k) => (streams[k] as { ok?: boolean } | undefined)?.ok === true);

  // The ratings projector's checkpoint: restored with the log (never ahead of it), and it follows a
  // match of bots rated after the restore, whose transactions come after it.
  const notAhead = !checkpointRow || BigInt(checkpointRow.tx_id) < BigInt(head.tx_id) || (checkpointRow.tx_id === head.tx_id && BigInt(checkpointRow.position) <= BigInt(head.position));
  const rated = await botMatch(c2, 'after-restore');
  const [last] = await restored.cluster.query<{ tx_id: string; position: string; first_tx: string }>(
    DATABASE,
    `SELECT tx_id::text, position::text, (SELECT tx_id::text FROM events WHERE stream_id = $1 ORDER BY version LIMIT 1) AS first_tx FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1`,
    [rated.id],
  );
  const follows = await waitFor('the ratings checkpoint to pass the new match', 30_000, async () => {
    const [row] = await restored.cluster.query<{ done: boolean }>(
      DATABASE,
      `SELECT (tx_id, position) >= ($1::xid8, $2::bigint) AS done FROM subscription_checkpoints WHERE name = 'ratings'`,
      [last.tx_id, last.position],
    );
    return row?.done ? true : undefined;
  }).catch(() => false);
  const newAfterCheckpoint = !checkpointRow || BigInt(last.first_tx) > BigInt(checkpointRow.tx_id);
  const checkpointsOk = notAhead && follows && newAfterCheckpoint;
  log(`ratings checkpoint: restored ${checkpointRow ? `${checkpointRow.tx_id}/${checkpointRow.position}` : 'none'}, log head ${head.tx_id}/${head.position}; follows the new match: ${follows}`);

  // The projections against a replay of the whole log, after the restore and what came after it.
  let rebuild: { differences: { table: string; onlyLive: number; onlyRebuilt: number }[] } = { differences: [] };
  let rebuildEqualsLive = false;
  {
    // It exits 1 when a row differs; its last line is the report either way.
    const out = await exec(process.execPath, [CLI, 'rebuild', '--compare-only'], { env: { ...process.env, DATABASE_URL: restored.cluster.url(DATABASE) } }).catch(
      (err: { stdout?: string; stderr?: string }) => {
        log(`bismarck rebuild --compare-only: ${err.stderr ?? ''}`);
        return { stdout: err.stdout ?? '' };
      },
    );
    try {
      rebuild = JSON.parse(out.stdout.trim().split('\n').at(-1)!);
      rebuildEqualsLive = rebuild.differences.every((d) => d.onlyLive === 0 && d.onlyRebuilt === 0);
    } catch {
      log(`bismarck rebuild --compare-only printed no report: ${out.stdout}`);
    }
  }

  // The restored cluster archives on its new timeline into the same repository.
  let archivingAfterRestore = true;
  try {
    archive.pgbackrest(restored.cluster, 'check');
  } catch (err) {
    archivingAfterRestore = false;
    log(String(err));
  }
  c.close();
  c2.close();
  await api2.stop();

  const drillSeconds = (wallMs() - drillStarted) / 1000;
  const auditsOk = auditsFailed === 0 && restoredMatches.length > 0;
  const verifyOk = verifyFailed === 0 && exportFiles.length > 0;
  const passed =
    missingBeforeTarget === 0 && afterTargetPresent === 0 && divergentEvents === 0 && unknownStreams === 0 && auditsOk && verifyOk && rebuildEqualsLive && streamsOk && checkpointsOk && archivingAfterRestore && drillSeconds < 600;
  console.log(
    JSON.stringify({
      restoredMatches: restoredMatches.length,
      missingBeforeTarget,
      afterTargetPresent,
      auditsOk,
      verifyOk,
      rebuildEqualsLive,
      streamsOk,
      checkpointsOk,
      restoreSeconds: round(restoreSeconds, 1),
      backupSeconds: round(backup.seconds, 1),
      matchesPlayed,
      matchesBeforeTarget,
      matchesAfterTarget,
      finishedBeforeTarget: exportFiles.length,
      eventsWritten,
      eventsRestored: [...log2.values()].reduce((n, l) => n + l.length, 0),
      inFlightAtTarget: inFlight,
      inFlightRestored,
      divergentEvents,
      unknownStreams,
      audits: restoredMatches.length,
      verified: exportFiles.length - verifyFailed,
      rebuildDifferences: rebuild.differences,
      streams,
      checkpoint: { restored: checkpointRow ?? null, logHead: head, notAhead, followsNewMatch: follows, newTransactionsAfterIt: newAfterCheckpoint },
      archivingAfterRestore,
      target,
      timeline: restored.timeline,
      pgbackrestRestoreSeconds: round(restored.restoreSeconds - restored.recoverySeconds, 1),
      recoverySeconds: round(restored.recoverySeconds, 1),
      apiStartSeconds: round(apiStartSeconds, 1),
      backupMB: round(backup.bytes / 1e6, 1),
      backupRepoMB: round(backup.repoBytes / 1e6, 1),
      drillSeconds: round(drillSeconds, 1),
      ok: passed,
    }),
  );
  return passed;
}

void main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
