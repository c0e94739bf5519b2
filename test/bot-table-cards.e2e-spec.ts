import { EventStore } from '@bismarck/event-store';
import { BotRunner } from '../apps/api/src/game/bots/bot-runner.service';
import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { bearer } from './support/player';
import { waitFor } from './support/wait';

// A bot forehand waits BOT_TABLE_CARDS_PAUSE_MS before it takes the four table cards, when a person
// sits in the match, so that person sees them (docs/bots.md, "Pace"); bots among themselves do not.
const PAUSE_MS = 1_000;
/** Where no pause is owed: one that would show, yet far beyond a bot's move on a loaded machine. */
const LONG_PAUSE_MS = 20_000;

type Http = TestApp['http'];
interface LoggedEvent {
  version: number;
  type: string;
  data: any;
  recordedAt: string;
}

const view = async (http: Http, id: string, token: string) => (await http().get(`/api/matches/${id}/view`).set(...bearer(token)).expect(200)).body;

/** The person's moves (skipping the optional cut) until `stop` says so or the match ends. */
async function playAsPerson(http: Http, id: string, token: string, stop: (state: any) => boolean = () => false): Promise<void> {
  const base = `/api/matches/${id}`;
  for (;;) {
    const v = await waitFor('the person\'s turn', async () => {
      const state = (await http().get(base).expect(200)).body;
      if (state.status === 'finished' || stop(state)) return { done: true } as const;
      const mine = await view(http, id, token);
      return mine.legal && mine.legal.action !== 'cut' ? mine : null;
    });
    if ('done' in v) return;
    const legal = v.legal;
    const send = (path: string, body?: object) => http().post(`${base}/${path}`).set(...bearer(token)).set('If-Match', `"${v.version}"`).send(body);
    const res =
      legal.action === 'deal'
        ? await send('deal')
        : legal.action === 'chooseContract'
          ? await send('contract', legal.contracts[0] === 'trump' ? { contract: 'trump', trump: legal.trumps[0] } : { contract: legal.contracts[0] })
          : legal.action === 'discard'
            ? await send('discard', { cards: v.hand.slice(0, legal.count) })
            : await send('play', { card: legal.cards[0] });
    expect([200, 412]).toContain(res.status);
  }
}

/** For each lay-away by one of `seats`: the time from the event before it (the move that made it due). */
async function layAwayWaits(app: TestApp['app'], id: string, seats: number[]): Promise<number[]> {
  const events = (await app.get(EventStore).readStream(id)) as unknown as LoggedEvent[];
  return events
    .map((e, i) => ({ e, before: events[i - 1] }))
    .filter(({ e }) => e.type === 'CardsLaidAway' && seats.includes(e.data.seat))
    .map(({ e, before }) => Date.parse(e.recordedAt) - Date.parse(before.recordedAt));
}

describe('the pause before a bot takes the table cards', () => {
  let db: TestDatabase;
  const started: TestApp[] = [];
  const start = async (pauseMs: number): Promise<TestApp> => {
    const saved = process.env.BOT_TABLE_CARDS_PAUSE_MS;
    process.env.BOT_TABLE_CARDS_PAUSE_MS = String(pauseMs);
    try {
      const app = await startTestApp(db);
      started.push(app);
      return app;
    } finally {
      if (saved === undefined) delete process.env.BOT_TABLE_CARDS_PAUSE_MS;
      else process.env.BOT_TABLE_CARDS_PAUSE_MS = saved;
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
  }, 60_000);
  afterAll(async () => {
    for (const app of started) await app.stopApp();
    await db?.drop();
  }, 60_000);

  it('a person and two bots: each bot forehand lays away no sooner than the pause after the move before', async () => {
    const app = await start(PAUSE_MS);
    const created = (await app.http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    await playAsPerson(app.http, created.id, created.seats[0].token);
    const waits = await layAwayWaits(app.app, created.id, [1, 2]);
    // Forehand moves round the table: in the quick schedule's deals the bots are forehand at least once.
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(PAUSE_MS);
    // The person's own lay-away is the person's business.
    expect(await layAwayWaits(app.app, created.id, [0])).not.toHaveLength(0);
  }, 240_000);

  it('three bots: nobody to show the cards to, no pause', async () => {
    const app = await start(LONG_PAUSE_MS);
    const created = (await app.http().post('/api/matches').send({ players: [{ bot: 'greedy' }, { bot: 'random' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    await waitFor('the bots to finish', async () => ((await app.http().get(`/api/matches/${created.id}`).expect(200)).body.status === 'finished' ? true : null), 150_000);
    const waits = await layAwayWaits(app.app, created.id, [0, 1, 2]);
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toBeLessThan(LONG_PAUSE_MS);
  }, 180_000);

  it('the pause holds no other match: bots of another match play on meanwhile', async () => {
    const app = await start(60_000);
    const http = app.http;
    const person = (await http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    // The person plays until a bot is to lay away: that bot's loop now waits for 60 s.
    await playAsPerson(http, person.id, person.seats[0].token, (s) => s.phase === 'discard' && s.turn !== 0);
    const paused = (await http().get(`/api/matches/${person.id}`).expect(200)).body.version;
    const bots = (await http().post('/api/matches').send({ players: [{ bot: 'greedy' }, { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    await waitFor('the bots-only match to play a deal, or the pause to end', async () => {
      const [other, waiting] = await Promise.all([bots.id, person.id].map(async (id) => (await http().get(`/api/matches/${id}`).expect(200)).body));
      return other.version > bots.version + 40 || waiting.phase !== 'discard' ? true : null;
    }, 120_000);
    // Counted by the log's times, not by who got there first: a busy machine may play the other match
    // slowly, but a pause that held it would let it make no move before the lay-away.
    const laidAway = ((await app.app.get(EventStore).readStream(person.id)) as unknown as LoggedEvent[]).find((e) => e.version > paused && e.type === 'CardsLaidAway');
    const until = laidAway ? Date.parse(laidAway.recordedAt) : Date.now();
    const meanwhile = ((await app.app.get(EventStore).readStream(bots.id)) as unknown as LoggedEvent[]).filter((e) => e.version > bots.version && Date.parse(e.recordedAt) < until);
    expect(meanwhile.length).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it('after a restart, a bot whose pause was cut short by the stop just lays away', async () => {
    const first = await start(60_000);
    const created = (await first.http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    await playAsPerson(first.http, created.id, created.seats[0].token, (s) => s.phase === 'discard' && s.turn !== 0);
    expect(first.app.get(BotRunner).busy).toBe(true); // waiting out its pause
    await first.stopApp();

    const second = await start(60_000);
    const t0 = Date.now();
    // Well before the 60 s pause, however slow the machine: the pause was not started again.
    await waitFor('the bot to lay away', async () => ((await second.http().get(`/api/matches/${created.id}`).expect(200)).body.phase !== 'discard' ? true : null), 40_000);
    expect(Date.now() - t0).toBeLessThan(40_000);
  }, 240_000);
});
