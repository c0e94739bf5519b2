import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { chooseAction, requestOf, type BotView } from '@bismarck/bots';
import { BotRunner } from '../apps/api/src/game/bots/bot-runner.service';
import { ClockSweeper } from '../apps/api/src/game/clocks/clock-sweeper.service';
import { MatchCommands } from '../apps/api/src/game/matches/match-commands.service';
import { startTestApp, type TestApp } from './support/app';
import { bearer } from './support/player';
import { waitFor } from './support/wait';

// The service's own actors (bots, the stand-in, the clock) are principals of their own: their moves
// carry idempotency keys in a space no client can write, so no key a person sends can stop a match;
// and a match that cannot move holds up no other's clock (docs/security.md, "The service's own actors").

type Http = TestApp['http'];
const TURN = 5;

interface Match {
  id: string;
  seats: { seat: number; token: string }[];
}

const events = async (http: Http, id: string, after = 0) => (await http().get(`/api/matches/${id}/events?after=${after}&limit=1000`).expect(200)).body.events as any[];

/** Three persons with a 5-second clock: nobody but a stand-in moves for a person. */
async function clocked(http: Http): Promise<Match> {
  return (await http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', 'Cecilia'], options: { schedule: 'quick', clock: { turnSeconds: TURN } } }).expect(201)).body;
}

/**
 * One move by whichever person may act, chosen as the greedy bot would, sent with `key` as its
 * Idempotency-Key; answers the version it was made at, or null when nobody could act.
 */
async function moveWithKey(http: Http, match: Match, key: (version: number, seat: number) => string): Promise<number | null> {
  for (const { seat, token } of match.seats) {
    const view = (await http().get(`/api/matches/${match.id}/view`).set(...bearer(token)).expect(200)).body as BotView & { version: number };
    const action = requestOf(chooseAction(view, 'greedy'));
    if (!action || action.route === 'cut') continue;
    const res = await http()
      .post(`/api/matches/${match.id}/${action.route}`)
      .set(...bearer(token))
      .set('Idempotency-Key', key(view.version, seat))
      .send('body' in action ? action.body : undefined);
    if (res.status === 200) return view.version;
  }
  return null;
}

/** Every key the service's own actors use or have used, near the versions a move could have: what an attacker would try. */
const serviceLikeKey = (version: number, seat: number) =>
  fc.oneof(
    fc.constantFrom('stand-in', 'bot', 'v', 'service', 'service:standIn', 'service:bot', `service:standIn:${seat}`, 'timeOut').chain((prefix) =>
      fc.integer({ min: -1, max: 4 }).map((ahead) => (prefix === 'v' ? `v${version + ahead}` : `${prefix}-${version + ahead}`)),
    ),
    fc.constantFrom(`seat:${seat}`, `service:standIn:${seat}`, `service:bot:${seat}`, `v${version + 2}`),
    fc.stringMatching(/^[!-~]{1,20}$/),
  );

describe("the service's own actors", () => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.STAND_IN_BOT = 'greedy';
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    delete process.env.STAND_IN_BOT;
    await t?.close();
  });

  it('no Idempotency-Key a person sends stops a clocked match: after any moves with keys drawn to collide with the service\'s own, the stand-in always moves', async () => {
    // Each run: 6 matches at once, each played a few moves with such keys (a lay-away among them in
    // most), then left to time out. The match must go on: a timeout, then the stand-in's move.
    const scenario = fc.record({ moves: fc.integer({ min: 0, max: 8 }), seed: fc.integer() });
    await fc.assert(
      fc.asyncProperty(fc.array(scenario, { minLength: 6, maxLength: 6 }), async (scenarios) => {
        await Promise.all(
          scenarios.map(async ({ moves, seed }) => {
            const match = await clocked(t.http);
            const keys: string[] = [];
            for (let i = 0; i < moves; i++) {
              const made = await moveWithKey(t.http, match, (version, seat) => {
                const key = fc.sample(serviceLikeKey(version, seat), { numRuns: 1, seed: seed + i })[0]!;
                keys.push(key);
                return key;
              });
              if (made === null) break;
            }
            const last = (await events(t.http, match.id)).at(-1).version;
            // Nobody moves now: the clock runs out and the stand-in must play, within a few seconds of the deadline.
            const after = await waitFor(
              `the stand-in of match ${match.id} (keys ${JSON.stringify(keys)})`,
              async () => {
                const since = await events(t.http, match.id, last);
                const timedOut = since.findIndex((e) => e.type === 'TurnTimedOut');
                return timedOut >= 0 && since.slice(timedOut + 1).some((e) => e.standIn === true) ? since : null;
              },
              TURN * 1000 + 20_000,
            );
            expect(after.filter((e) => e.type === 'TurnTimedOut').length).toBeGreaterThan(0);
          }),
        );
      }),
      { numRuns: 2 },
    );
  }, 180_000);

  it('a forehand who lays away with the very key the stand-in would use next does not freeze the match', async () => {
    const match = await clocked(t.http);
    // Play until forehand's lay-away, each move with the keys the service used to use for its next two moves.
    let laidAway = false;
    for (let i = 0; i < 10 && !laidAway; i++) {
      for (const { token } of match.seats) {
        const view = (await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(token)).expect(200)).body;
        const action = requestOf(chooseAction(view, 'greedy'));
        if (!action || action.route === 'cut') continue;
        const res = await t
          .http()
          .post(`/api/matches/${match.id}/${action.route}`)
          .set(...bearer(token))
          .set('Idempotency-Key', `stand-in-${view.version + 2}`)
          .send('body' in action ? action.body : undefined);
        expect(res.status).toBe(200);
        laidAway = action.route === 'discard';
        break;
      }
    }
    expect(laidAway).toBe(true);
    const last = (await events(t.http, match.id)).at(-1).version;
    const since = await waitFor(
      'the stand-in leads for the forehand',
      async () => {
        const e = await events(t.http, match.id, last);
        return e.some((x) => x.type === 'CardPlayed' && x.standIn === true) ? e : null;
      },
      TURN * 1000 + 20_000,
    );
    expect(since[0].type).toBe('TurnTimedOut');
  }, 60_000);

  it('matches whose stand-in cannot move hold up no other clock: they back off and leave the read, and /metrics counts them', async () => {
    const sweeper = t.app.get(ClockSweeper);
    const commands = t.app.get(MatchCommands);
    const stuck = new Set<string>();
    const real = commands.executeAsService.bind(commands);
    const spy = jest.spyOn(commands, 'executeAsService').mockImplementation((id, ...rest) => {
      if (stuck.has(id)) return Promise.reject(new Error('this stand-in cannot move (test)'));
      return real(id, ...rest);
    });
    // Nor in the timeout's own append: its decision fails, and the timeout is appended alone.
    const bots = t.app.get(BotRunner);
    const realAfter = bots.standInAfter.bind(bots);
    const spyAfter = jest.spyOn(bots, 'standInAfter').mockImplementation((id, ...rest) => {
      if (stuck.has(id)) return Promise.reject(new Error('this stand-in cannot move (test)'));
      return realAfter(id, ...rest);
    });
    // Reads of 5 rows: 12 stuck matches, whose deadlines are older, would fill every read without the backoff.
    sweeper.batch = 5;
    try {
      for (let i = 0; i < 12; i++) stuck.add((await clocked(t.http)).id);
      await waitFor(
        'every stuck match timed out',
        async () => {
          for (const id of stuck) if (!(await events(t.http, id)).some((e) => e.type === 'TurnTimedOut')) return null;
          return true;
        },
        TURN * 1000 + 30_000,
      );
      // Give the stuck ones time to come round to the sweep (handed over after 2 s) and fail there.
      await sleep(3_000);
      const honest = await clocked(t.http);
      const created = (await events(t.http, honest.id)).at(-1);
      const deadline = Date.parse(created.at) + TURN * 1000;
      const standIn = await waitFor(
        "the honest match's stand-in",
        async () => (await events(t.http, honest.id)).find((e) => e.standIn === true),
        TURN * 1000 + 20_000,
      );
      // Within a few seconds of its deadline, however many stuck matches came before it (on a quiet machine, well under one).
      expect(Date.parse(standIn.at) - deadline).toBeLessThan(5_000);
      for (const id of stuck) expect((await events(t.http, id)).some((e) => e.standIn === true)).toBe(false);
      const metrics = (await t.http().get('/metrics').expect(200)).text;
      const failures = Number(/bismarck_sweep_failures_total\{sweep="clocks"\} (\d+)/.exec(metrics)?.[1] ?? 0);
      expect(failures).toBeGreaterThan(0);
    } finally {
      sweeper.batch = 500;
      spy.mockRestore();
      spyAfter.mockRestore();
    }
  }, 120_000);
});

describe('the cap on matches against strong bots', () => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.STRONG_BOT_MATCHES_PER_CALLER = '2';
    process.env.LOBBY_TTL_MS = '1500';
    process.env.LOBBY_SWEEP_MS = '200';
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    delete process.env.STRONG_BOT_MATCHES_PER_CALLER;
    delete process.env.LOBBY_TTL_MS;
    delete process.env.LOBBY_SWEEP_MS;
    await t?.close();
  });

  it('refuses a caller one more live match against strong bots (429 TOO_MANY_BOT_MATCHES), counts a player by account, and frees a place when a match ends', async () => {
    // Lobby tables with a strong bot: live (waiting) until LOBBY_TTL_MS closes them.
    const table = { players: ['Ann', { bot: 'strong' }, null] };
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    const first = [(await t.http().post('/api/matches').send(table).expect(201)).body.id, (await t.http().post('/api/matches').send(table).expect(201)).body.id];
    const refused = await t.http().post('/api/matches').send(table).expect(429);
    expect(refused.body.code).toBe('TOO_MANY_BOT_MATCHES');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before + 2);
    // Greedy bots are not capped; a player has a place of its own, counted by account.
    await t.http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, { bot: 'greedy' }] }).expect(201);
    const player = (await t.http().post('/api/players').send({ name: 'Bodil' }).expect(201)).body;
    await t.http().post('/api/matches').set(...bearer(player.token)).send(table).expect(201);
    await t.http().post('/api/matches').set(...bearer(player.token)).send(table).expect(201);
    expect((await t.http().post('/api/matches').set(...bearer(player.token)).send(table).expect(429)).body.code).toBe('TOO_MANY_BOT_MATCHES');
    // Once the first tables are closed their places are free again, and concurrent creations cannot take more than there are.
    for (const id of first) await waitFor(`table ${id} closed`, async () => ((await t.http().get(`/api/matches/${id}`).expect(200)).body.status === 'abandoned' ? true : null), 20_000);
    const burst = await Promise.all(Array.from({ length: 5 }, () => t.http().post('/api/matches').send(table)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(3);
  }, 60_000);
});
