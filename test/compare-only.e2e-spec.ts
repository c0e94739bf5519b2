import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { EventStore } from '@bismarck/event-store';
import { COMPARED_TABLES, ProjectionRebuilder, type RebuildStats, type TableDifference } from '@bismarck/projections';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

// `bismarck rebuild --compare-only` while people play (issue 43 item 7): the live tables and the
// replay are read at one log position, so play in progress is no drift, and a planted drift is.

// The compiled command line, as `npm run bismarck` runs it (`npm test` builds it first); BISMARCK_CLI: another build's.
const CLI = process.env.BISMARCK_CLI ?? join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const run = promisify(execFile);
const ADMIN = 'test-admin-token-0123456789';
const t = useTestApp(
  () => (process.env.ADMIN_TOKEN = ADMIN),
  () => delete process.env.ADMIN_TOKEN,
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const differing = (ds: TableDifference[]) => ds.reduce((n, d) => n + d.onlyLive + d.onlyRebuilt, 0);

/**
 * Clients playing until stopped, each kind of write the compared tables take: matches advancing
 * (named seats), lobby tables filling, accounts registered, renamed and deleted, and rated matches of
 * three registered players ending one by one, so the ratings projector moves too (a bots-only table
 * plays beside them).
 */
class Play {
  /** Accepted writes so far (commands, creations, joins, account changes). */
  writes = 0;
  /** Rated matches played to their end (each at its last card when play began). */
  finishedRated = 0;
  /** What a client met that it should not have (it stops there). */
  readonly errors: string[] = [];
  private stopping = false;
  private readonly clients: Promise<void>[] = [];

  /** `rated`: matches whose next move ends them, ended one every few seconds. */
  start(rated: CreatedMatch[]): void {
    for (let i = 0; i < 3; i++) this.clients.push(this.loop(() => this.namedSeats(i)));
    this.clients.push(this.loop(() => this.lobby()));
    this.clients.push(this.loop(() => this.accounts()));
    this.clients.push(this.loop(() => this.botsOnly()));
    this.clients.push(this.loop(() => this.endRated(rated)));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.clients);
  }

  private async loop(round: () => Promise<void>): Promise<void> {
    try {
      while (!this.stopping) await round();
    } catch (error) {
      this.errors.push(String(error));
    }
  }

  private async namedSeats(i: number): Promise<void> {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    this.writes++;
    const pick = seededPick(i + 1 + this.writes);
    while (!this.stopping && (await playOneAction(t.http, m, pick))) this.writes++;
  }

  private async lobby(): Promise<void> {
    const created = (await t.http().post('/api/matches').send({ players: ['Host', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    await t.http().post(`/api/matches/${created.id}/seats/1/join`).send({ name: 'Bjørn' }).expect(201);
    await t.http().post(`/api/matches/${created.id}/seats/2/join`).send({ name: 'Cecilia' }).expect(201);
    this.writes += 3;
  }

  private async accounts(): Promise<void> {
    const p = await register('Astrid');
    await t.http().patch('/api/players/me').set(...bearer(p.token)).send({ name: 'Åsa' }).expect(200);
    this.writes += 2;
    if (this.writes % 2 === 0) {
      await t.http().delete('/api/players/me').set(...bearer(p.token)).expect(204);
      this.writes++;
    }
  }

  private async endRated(rated: CreatedMatch[]): Promise<void> {
    await sleep(3000);
    const m = rated.shift();
    if (!m) return void (await sleep(1000));
    expect(await playOneAction(t.http, m)).toBe(true);
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.status).toBe('finished');
    this.writes++;
    this.finishedRated++;
  }

  /** Three bots play themselves (how far they get depends on the machine: the bot thread runs niced). */
  private async botsOnly(): Promise<void> {
    const bot = { bot: 'random' };
    const created = (await t.http().post('/api/matches').send({ players: [bot, bot, bot], options: { schedule: 'quick' } }).expect(201)).body;
    this.writes++;
    while (!this.stopping && (await t.http().get(`/api/matches/${created.id}`).expect(200)).body.status !== 'finished') await sleep(200);
  }

}

async function register(name: string): Promise<{ id: string; token: string }> {
  return (await t.http().post('/api/players').send({ name }).expect(201)).body;
}

/** A rated match (three new players at a lobby table, seats bound to their accounts) played up to its last card. */
async function ratedAtItsLastCard(seed: number): Promise<CreatedMatch> {
  const ps = [await register('Ann'), await register('Bo'), await register('Cyd')];
  const created = (
    await t.http().post('/api/matches').set(...bearer(ps[0].token)).send({ players: [{ player: ps[0].id }, null, null], options: { schedule: 'quick' } }).expect(201)
  ).body;
  for (const seat of [1, 2]) await t.http().post(`/api/matches/${created.id}/seats/${seat}/join`).set(...bearer(ps[seat].token)).send({}).expect(201);
  const m: CreatedMatch = { id: created.id, version: 0, firstDealer: 0, seats: ps.map((p, seat) => ({ seat, name: '', token: p.token })) };
  const pick = seededPick(seed);
  for (;;) {
    const state = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    const cardsLeft = (state.handSizes as number[]).reduce((a, b) => a + b, 0);
    if (state.dealNumber === state.dealsInMatch && cardsLeft === 1) return m;
    expect(await playOneAction(t.http, m, pick)).toBe(true);
  }
}

/** The library's rebuild and compare, as the admin route and the command line run them. */
async function compareNow(): Promise<{ stats: RebuildStats; differences: TableDifference[] }> {
  const db = t.app.get(DataSource);
  const rebuilder = new ProjectionRebuilder(t.app.get(EventStore), db, (work) => db.transaction((m) => work(m)));
  try {
    const stats = await rebuilder.rebuild();
    return { stats, differences: await rebuilder.compare() };
  } finally {
    await rebuilder.dropRebuildTables();
  }
}

/** `bismarck rebuild --compare-only` against the app's database: its exit code and its JSON report. */
async function compareOnlyCli(): Promise<{ code: number; report: { events: number; differences: TableDifference[] }; out: string }> {
  const args = [CLI, 'rebuild', '--compare-only'];
  const env = { ...process.env, DATABASE_URL: t.db.url };
  const { code, stdout, stderr } = await run(process.execPath, args, { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
  const last = stdout.trim().split('\n').pop() ?? '';
  return { code, report: JSON.parse(last.startsWith('{') ? last : '{}'), out: stdout + stderr };
}

describe('rebuild --compare-only while people play: one log position', () => {
  const play = new Play();
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
    // Before the load: a whole rated match takes minutes on a loaded machine, its last card a moment.
    const rated = await Promise.all([1, 2].map((seed) => ratedAtItsLastCard(seed)));
    play.start(rated);
  }, 420_000);
  afterAll(() => play.stop());

  it('finds no difference, again and again, while matches advance, lobby tables fill, accounts change and rated matches end', async () => {
    await sleep(2000);
    const runs: { writesDuring: number; events: number; differing: number }[] = [];
    const ratingsAt = new Set<string>();
    const started = Date.now();
    // At least five, and on until the rated matches ended while they ran.
    while (runs.length < 5 || (play.finishedRated < 2 && Date.now() - started < 120_000)) {
      const before = play.writes;
      const { stats, differences } = await compareNow();
      expect(differences.map((d) => d.table)).toEqual(COMPARED_TABLES);
      runs.push({ writesDuring: play.writes - before, events: stats.events, differing: differing(differences) });
      ratingsAt.add(JSON.stringify(stats.ratingsCheckpoint));
      expect(differences.filter((d) => d.onlyLive || d.onlyRebuilt)).toEqual([]);
    }
    // The command line, a process of its own on the same database.
    for (let i = 0; i < 2; i++) {
      const before = play.writes;
      const cli = await compareOnlyCli();
      expect({ code: cli.code, differing: differing(cli.report.differences ?? []) }).toEqual({ code: 0, differing: 0 });
      runs.push({ writesDuring: play.writes - before, events: cli.report.events, differing: 0 });
    }
    // The admin route reports what differed before its swap: nothing either.
    const before = play.writes;
    const res = await t.http().post('/api/admin/rebuild').set('Authorization', `Bearer ${ADMIN}`).expect(200);
    expect(res.body.differences.filter((d: TableDifference) => d.onlyLive || d.onlyRebuilt)).toEqual([]);
    runs.push({ writesDuring: play.writes - before, events: res.body.events, differing: 0 });

    // It was a busy log: it grew from run to run, and writes landed while the comparisons ran.
    expect(runs.map((r) => r.events)).toEqual([...runs.map((r) => r.events)].sort((a, b) => a - b));
    expect(runs[runs.length - 1].events).toBeGreaterThan(runs[0].events);
    expect(runs.filter((r) => r.writesDuring > 0).length).toBeGreaterThanOrEqual(runs.length - 1);
    // The ratings projector moved while they ran, and rated matches were among what they compared.
    expect(play.finishedRated).toBe(2);
    expect(ratingsAt.size).toBeGreaterThan(1);
    expect(Number((await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ratings`))[0].n)).toBeGreaterThan(0);
    expect(play.errors).toEqual([]);
  }, 300_000);

  it('a planted drift is still found while play goes on: the row, its table, and (command line) exit 1', async () => {
    const db = t.app.get(DataSource);
    // A match nobody plays: no later command rewrites its row.
    const idle = await createMatch(t.http, { options: { schedule: 'quick' } });
    await db.query(`UPDATE match_list SET totals = '[1,2,3]' WHERE id = $1`, [idle.id]);

    const { differences } = await compareNow();
    expect(differences.filter((d) => d.onlyLive || d.onlyRebuilt)).toEqual([{ table: 'match_list', onlyLive: 1, onlyRebuilt: 1 }]);
    const cli = await compareOnlyCli();
    expect(cli.code).toBe(1);
    expect(cli.report.differences.filter((d) => d.onlyLive || d.onlyRebuilt)).toEqual([{ table: 'match_list', onlyLive: 1, onlyRebuilt: 1 }]);
    expect(cli.out).toMatch(/2 projection rows differ/);
    // Left as it was.
    expect((await db.query(`SELECT totals FROM match_list WHERE id = $1`, [idle.id]))[0].totals).toEqual([1, 2, 3]);

    // A rating, compared at the projector's checkpoint, is drift too (a player's: each plays one match, so no later one rewrites it).
    const [rated] = await db.query(`SELECT id FROM ratings WHERE id NOT LIKE 'bot:%' ORDER BY id LIMIT 1`);
    expect(rated).toBeDefined();
    await db.query(`UPDATE ratings SET mu = mu + 1 WHERE id = $1`, [rated.id]);
    const again = await compareNow();
    expect(again.differences.filter((d) => d.onlyLive || d.onlyRebuilt)).toEqual([
      { table: 'match_list', onlyLive: 1, onlyRebuilt: 1 },
      { table: 'ratings', onlyLive: 1, onlyRebuilt: 1 },
    ]);
    expect(play.errors).toEqual([]);
  }, 120_000);
});
