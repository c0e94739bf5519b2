import { auditMatch } from '@bismarck/audit';
import { EventStore } from '@bismarck/event-store';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dealHistory } from '@bismarck/bots';
import { decide, fold, legalActions, seatView, shuffleDeck, type Command } from '@bismarck/rules';
import { BotDecider } from '../apps/api/src/game/bots/bot-decider.service';
import { BotRunner } from '../apps/api/src/game/bots/bot-runner.service';
import { MatchCommands } from '../apps/api/src/game/matches/match-commands.service';
import { personOf } from '../apps/api/src/game/bots/bot-runner.service';
import { MatchFolds } from '../apps/api/src/game/matches/match-folds.service';
import { StrongBotMatches } from '../apps/api/src/game/matches/strong-bot-matches';
import { rebuildDifferences, startTestApp, useTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { bearer } from './support/player';
import { waitFor } from './support/wait';

// Bot seats (docs/bots.md, "Bot seats in the service"): the service plays them through the same
// command path as any seat, from that seat's view only, resumes them after a restart, and with two
// instances on one database appends each bot move once.

type Http = TestApp['http'];

const state = async (http: Http, id: string) => (await http().get(`/api/matches/${id}`).expect(200)).body;
const finished = (http: Http, id: string) => waitFor('the match to finish', async () => ((await state(http, id)).status === 'finished' ? true : null));

/** The person's side of a match against bots: act whenever the view says so (skipping the optional cut), until the end. */
async function playAgainstBots(http: Http, id: string, token: string): Promise<number> {
  const base = `/api/matches/${id}`;
  let moves = 0;
  for (;;) {
    const view = await waitFor('the person\'s turn', async () => {
      const v = (await http().get(`${base}/view`).set(...bearer(token)).expect(200)).body;
      return v.status === 'finished' || (v.legal && v.legal.action !== 'cut') ? v : null;
    });
    if (view.status === 'finished') return moves;
    const legal = view.legal;
    const send = (path: string, body?: object) => http().post(`${base}/${path}`).set(...bearer(token)).set('If-Match', `"${view.version}"`).send(body);
    const res =
      legal.action === 'deal'
        ? await send('deal')
        : legal.action === 'chooseContract'
          ? await send('contract', legal.contracts[0] === 'trump' ? { contract: 'trump', trump: legal.trumps[0] } : { contract: legal.contracts[0] })
          : legal.action === 'discard'
            ? await send('discard', { cards: view.hand.slice(0, legal.count) })
            : await send('play', { card: legal.cards[0] });
    // 412: a bot moved first (its optional cut before the person's deal): look again.
    expect([200, 412]).toContain(res.status);
    if (res.status === 200) moves++;
  }
}

/** The log's facts that show each move was appended once: gapless versions, three cards per trick, each card once per deal. */
async function checkLog(app: TestApp['app'], id: string): Promise<{ events: { type: string; data: any; version: number }[] }> {
  const events = await app.get(EventStore).readStream(id);
  expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
  const plays = events.filter((e) => e.type === 'CardPlayed').map((e) => e.data as { deal: number; trick: number; seat: number; card: string });
  const byTrick = new Map<string, number>();
  for (const p of plays) byTrick.set(`${p.deal}/${p.trick}`, (byTrick.get(`${p.deal}/${p.trick}`) ?? 0) + 1);
  expect([...byTrick.values()].every((n) => n === 3)).toBe(true);
  expect(new Set(plays.map((p) => `${p.deal}/${p.card}`)).size).toBe(plays.length);
  return { events };
}

async function auditOk(http: Http, id: string): Promise<unknown> {
  const audit = (await http().get(`/api/matches/${id}/audit`).expect(200)).body;
  expect(audit.ok).toBe(true);
  const exported = (await http().get(`/api/matches/${id}/export`).expect(200)).body;
  expect(auditMatch(exported, { finished: true }).ok).toBe(true);
  return exported;
}

/** `bismarck verify <file>` of the built CLI (npm run build), offline. */
async function verifyOffline(exported: unknown): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bot-seats-'));
  const file = join(dir, 'match.json');
  writeFileSync(file, JSON.stringify(exported));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js'), 'verify', file]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('bot seats', () => {
  const t = useTestApp();

  it('one request creates a match against two bots; the person plays it to the end over HTTP; audit, scorecard and rebuild agree', async () => {
    const readBefore = t.app.get(BotRunner).eventsRead;
    const created = await t
      .http()
      .post('/api/matches')
      .send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'random', name: 'Otto' }], options: { schedule: 'quick' } })
      .expect(201);
    // A token for the person only; the bots are listed without one.
    expect(created.body.seats).toEqual([{ seat: 0, name: 'Astrid', token: expect.stringMatching(/^bsk_/) }]);
    expect(created.body.bots).toEqual([
      { seat: 1, name: 'Greedy bot', bot: 'greedy' },
      { seat: 2, name: 'Otto', bot: 'random' },
    ]);
    const id = created.body.id as string;
    expect((await state(t.http, id)).seats).toEqual([
      { seat: 0, name: 'Astrid', bot: null },
      { seat: 1, name: 'Greedy bot', bot: 'greedy' },
      { seat: 2, name: 'Otto', bot: 'random' },
    ]);

    const moves = await playAgainstBots(t.http, id, created.body.seats[0].token);
    expect(moves).toBeGreaterThan(16 * 3 - 1); // at least a card per trick of the 3 deals
    const end = await state(t.http, id);
    expect(end).toMatchObject({ status: 'finished', winners: expect.any(Array) });

    const { events } = await checkLog(t.app, id);
    expect(events[0].data).toMatchObject({ players: ['Astrid', 'Greedy bot', 'Otto'], bots: [null, 'greedy', 'random'] });
    // The bots played their cards: 16 per deal each.
    for (const seat of [1, 2]) expect(events.filter((e) => e.type === 'CardPlayed' && (e.data as { seat: number }).seat === seat).length).toBe(3 * 16);
    // Each bot move read only what was appended since the last: no more events than the log holds (re-reading the whole log on every move read 16,145 for a log of 214).
    // And what this one process wrote is handed to the bots with the writer's fold, not read back.
    expect(t.app.get(BotRunner).eventsRead - readBefore).toBeLessThan(events.length / 4);

    const card = (await t.http().get(`/api/matches/${id}/scorecard`).expect(200)).body;
    expect(card.totals).toEqual(end.totals);
    expect(card.deals).toHaveLength(3);
    expect(card.deals.reduce((sum: number[], d: { points: number[] }) => sum.map((s, i) => s + d.points[i]), [0, 0, 0])).toEqual(end.totals);
    expect(card.seats.map((s: { bot: string | null }) => s.bot)).toEqual([null, 'greedy', 'random']);
    const exported = await auditOk(t.http, id);
    expect(await verifyOffline(exported)).toMatchObject({ code: 0 });
    // The match is over: its bots stopped.
    await waitFor('the bots to stop', async () => (t.app.get(BotRunner).busy ? null : true));
    const differences = await rebuildDifferences(t.app);
    expect(differences.length).toBeGreaterThan(0);
    for (const d of differences) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 120_000);

  it('a lobby table: POST …/seats/{seat}/bot gives an open seat to a bot (no token); the match starts and the bot plays', async () => {
    const table = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    const bot = await t.http().post(`/api/matches/${table.id}/seats/1/bot`).send({ bot: 'greedy' }).expect(201);
    expect(bot.body).toEqual({ id: table.id, version: expect.any(Number), seat: 1, name: 'Greedy bot', bot: 'greedy', status: 'waiting' });
    const taken = await t.http().post(`/api/matches/${table.id}/seats/1/bot`).send({ bot: 'random' }).expect(409);
    expect(taken.body.code).toBe('SEAT_TAKEN');
    expect((await t.http().post(`/api/matches/${table.id}/seats/1/join`).send({ name: 'Eve' }).expect(409)).body.code).toBe('SEAT_TAKEN');
    const listed = (await t.http().get('/api/matches?status=waiting&limit=100').expect(200)).body.items.find((m: { id: string }) => m.id === table.id);
    expect(listed.players).toEqual(['Astrid', 'Greedy bot', null]);

    const joined = await t.http().post(`/api/matches/${table.id}/seats/2/join`).send({ name: 'Cecilia' }).expect(201);
    expect(joined.body.status).toBe('playing');
    expect((await state(t.http, table.id)).seats.map((s: { bot: string | null }) => s.bot)).toEqual([null, 'greedy', null]);
    const events = (await t.http().get(`/api/matches/${table.id}/events`).expect(200)).body.events;
    expect(events.find((e: { type: string }) => e.type === 'SeatJoined').data).toEqual({ seat: 1, name: 'Greedy bot', bot: 'greedy' });

    // Two people and a bot: the people act in turn, the bot answers on its own.
    const tokens = [table.seats[0].token, null, joined.body.token];
    let moves = 0;
    for (;;) {
      const s = await waitFor('a person\'s turn', async () => {
        const now = await state(t.http, table.id);
        return now.status === 'finished' || (now.turn !== null && now.turn !== 1) ? now : null;
      });
      if (s.status === 'finished') break;
      const token = tokens[s.turn]!;
      const view = (await t.http().get(`/api/matches/${table.id}/view`).set(...bearer(token)).expect(200)).body;
      if (!view.legal || view.version !== s.version) continue;
      const legal = view.legal;
      const path = { deal: 'deal', chooseContract: 'contract', discard: 'discard', play: 'play' }[legal.action as string]!;
      const body =
        legal.action === 'chooseContract'
          ? legal.contracts[0] === 'trump' ? { contract: 'trump', trump: legal.trumps[0] } : { contract: legal.contracts[0] }
          : legal.action === 'discard' ? { cards: view.hand.slice(0, 4) } : legal.action === 'play' ? { card: legal.cards[0] } : undefined;
      const res = await t.http().post(`/api/matches/${table.id}/${path}`).set(...bearer(token)).set('If-Match', `"${view.version}"`).send(body);
      expect([200, 412]).toContain(res.status);
      moves++;
    }
    expect(moves).toBeGreaterThan(0);
    await checkLog(t.app, table.id);
    await auditOk(t.http, table.id);
  }, 120_000);

  it.each([
    ['an unknown strategy', { players: ['Astrid', { bot: 'clever' }, { bot: 'greedy' }] }, '/players/1'],
    ['a strategy that is not a string', { players: ['Astrid', 'Bjørn', { bot: 7 }] }, '/players/2'],
    ['an unknown field beside bot', { players: ['Astrid', { bot: 'greedy', token: 'x' }, 'Cecilia'] }, '/players/1'],
    ['a blank bot name', { players: ['Astrid', { bot: 'greedy', name: ' ' }, 'Cecilia'] }, '/players/1'],
  ])('refuses %s at creation: 400 VALIDATION_FAILED at its entry, nothing created', async (_name, body, pointer) => {
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    const res = await t.http().post('/api/matches').send(body).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual([{ pointer, detail: expect.stringContaining('"bot"') }]);
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before);
  });

  it("shares the bots' time by person: a bound seat's player account, else the match (its seat token), never the address; no address in the log", async () => {
    const created = (await t.http().post('/api/matches').set('X-Forwarded-For', '203.0.113.7').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    const folds = t.app.get(MatchFolds);
    expect(personOf(created.id, (await folds.load(created.id))!.state)).toBe(`match:${created.id}`);
    const events = (await t.http().get(`/api/matches/${created.id}/events?limit=1000`).expect(200)).text;
    expect(events).not.toContain('127.0.0.1');
    expect(events).not.toContain('203.0.113.7');
    const player = (await t.http().post('/api/players').send({ name: 'Bodil' }).expect(201)).body;
    const bound = (
      await t.http().post('/api/matches').set('authorization', `Bearer ${player.token}`).send({ players: [{ player: player.id }, { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)
    ).body;
    expect(personOf(bound.id, (await folds.load(bound.id))!.state)).toBe(`player:${player.id}`);
    // A match against strong bots created with a player's token, its seat unbound: still that player's turn in the queue.
    const unbound = (
      await t.http().post('/api/matches').set('authorization', `Bearer ${player.token}`).send({ players: ['Cid', { bot: 'strong' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)
    ).body;
    const creator = t.app.get(StrongBotMatches).creatorOf(unbound.id);
    expect(creator).toBe(`player:${player.id}`);
    expect(personOf(unbound.id, (await folds.load(unbound.id))!.state, creator)).toBe(`player:${player.id}`);
    // Anonymous: the match itself.
    const anonymous = (await t.http().post('/api/matches').send({ players: ['Dag', { bot: 'strong' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    expect(t.app.get(StrongBotMatches).creatorOf(anonymous.id)).toBeUndefined();
  }, 120_000);

  it('refuses an unknown strategy in the lobby: 400 VALIDATION_FAILED at /bot, nothing appended', async () => {
    const table = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null] }).expect(201)).body;
    const res = await t.http().post(`/api/matches/${table.id}/seats/2/bot`).send({ bot: 'clever' }).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/bot', detail: expect.stringContaining('greedy') }] });
    expect((await t.http().post(`/api/matches/${table.id}/seats/2/bot`).send({}).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await state(t.http, table.id)).version).toBe(table.version);
  });
});

describe('bot seats across restarts and instances', () => {
  let db: TestDatabase;
  const started: TestApp[] = [];
  const start = async (env: Record<string, string> = {}): Promise<TestApp> => {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      const app = await startTestApp(db);
      started.push(app);
      return app;
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
  }, 60_000);
  afterAll(async () => {
    for (const app of started) await app.stopApp();
    await db?.drop();
  });

  it('resumes after a restart: a match left at a bot\'s turn is played on by the next process', async () => {
    // The first process is too slow to move (a long BOT_DELAY_MS) and stops while the bots wait.
    const first = await start({ BOT_DELAY_MS: '60000' });
    const created = (await first.http().post('/api/matches').send({ players: [{ bot: 'greedy' }, { bot: 'random' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    expect(created.seats).toEqual([]);
    const waiting = await state(first.http, created.id);
    expect(waiting).toMatchObject({ status: 'playing', version: created.version });
    await first.stopApp();

    const second = await start();
    await finished(second.http, created.id);
    await checkLog(second.app, created.id);
    await auditOk(second.http, created.id);
  }, 120_000);

  it('two instances woken for the same match: every bot move is appended once (the version check decides), none lost', async () => {
    const a = await start();
    const b = await start();
    const created = (await a.http().post('/api/matches').send({ players: [{ bot: 'random' }, { bot: 'random' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    // Both decide at every version they see: the second to append loses the version check (or its key's first answer wins).
    const runners = [a.app.get(BotRunner), b.app.get(BotRunner)];
    let lost = 0;
    for (const app of [a.app, b.app]) {
      const commands = app.get(MatchCommands);
      const execute = commands.executeAsService.bind(commands);
      jest.spyOn(commands, 'executeAsService').mockImplementation((...args) => execute(...args).catch((err: unknown) => ((lost += 1), Promise.reject(err))));
    }
    let woken = 0;
    const timer = setInterval(() => {
      for (const runner of runners) runner.wake(created.id);
      woken++;
    }, 2);
    try {
      await finished(a.http, created.id);
    } finally {
      clearInterval(timer);
    }
    expect(woken).toBeGreaterThan(0);
    expect(lost).toBeGreaterThan(0); // the instances did race, and the losers appended nothing
    await checkLog(a.app, created.id);
    const { events } = await checkLog(b.app, created.id);
    expect(events.at(-1)!.type).toBe('MatchFinished');
    expect(events.filter((e) => e.type === 'DealScored')).toHaveLength(3);
    await auditOk(b.http, created.id);
  }, 120_000);

  it('an instance whose bot move another instance made first (the same move, the same key) reads on from the log, rather than deciding again at that version for ever', async () => {
    // The person's commands go to A, which learns of the bots' turn from its own append and waits
    // BOT_DELAY_MS; B, woken all the time, plays the bots meanwhile. Greedy bots decide alike, so A's
    // move at a version B moved at gets B's first answer (a replay: nothing appended by A).
    const a = await start({ BOT_DELAY_MS: '150' });
    const b = await start({ BOT_DELAY_MS: '0' });
    const created = (await a.http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    const decidedAt: number[] = [];
    const commandsA = a.app.get(MatchCommands);
    const execute = commandsA.executeAsService.bind(commandsA);
    jest.spyOn(commandsA, 'executeAsService').mockImplementation((...args) => {
      if (args[3] === 'bot') decidedAt.push(args[4]);
      return execute(...args);
    });
    const runnerB = b.app.get(BotRunner);
    const timer = setInterval(() => runnerB.wake(created.id), 5);
    try {
      await playAgainstBots(a.http, created.id, created.seats[0].token);
    } finally {
      clearInterval(timer);
    }
    await waitFor('A to stop playing', async () => (a.app.get(BotRunner).busy ? null : true), 30_000);
    // A did decide at versions B had moved at, and never twice at one version.
    expect(decidedAt.length).toBeGreaterThan(0);
    expect(decidedAt.length - new Set(decidedAt).size).toBe(0);
    await checkLog(a.app, created.id);
    await auditOk(a.http, created.id);
  }, 120_000);
});

describe('bot decisions off the event loop', () => {
  it('a worker thread (the same worker code the built service runs) decides from the seat view and history alone', async () => {
    const pool = BotDecider.pool(1);
    expect(pool).not.toBeNull();
    try {
      const created: Command = { type: 'createMatch', matchId: 'm', players: ['A', 'B', 'C'], firstDealer: 0, seeded: true, options: { schedule: 'quick' } };
      let history = decide(created, fold([]));
      history = [...history, ...decide({ type: 'deal', seat: 0, deck: shuffleDeck('worker', 1) }, fold(history))];
      const state = fold(history);
      const seat = ([0, 1, 2] as const).find((s) => legalActions(state, s))!;
      const action = await pool!.run({ strategy: 'greedy', view: seatView(state, seat), history: dealHistory(history) });
      expect(['chooseContract', 'discard', 'playCard']).toContain(action.type);
      expect(pool!.threads).toHaveLength(1);
    } finally {
      await pool!.destroy();
    }
  }, 60_000);

  it('BOT_THREADS=0 decides in the main thread', () => {
    expect(BotDecider.pool(0)).toBeNull();
  });
});
