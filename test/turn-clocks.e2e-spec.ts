import { EventStore } from '@bismarck/event-store';
import { rebuildDifferences, startTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { bearer } from './support/player';
import { waitFor } from './support/wait';

// Turn clocks (docs/clients.md, "Turn clocks"): a person who lets the time run out is timed out
// (TurnTimedOut, in the log) and a stand-in bot makes that decision; two in a row and the seat is
// away until the person acts or comes back. Deadlines live in the log: another instance, or the same
// database after a restart, keeps the same clocks.

type Http = TestApp['http'];
const TURN = 5;
/**
 * How late a stand-in's move may be here. The service's promise (within a second of the deadline, p99)
 * is measured by `npm run drill:clocks`; a test on a loaded two-core machine checks only that it comes.
 */
const LATE_MS = 5_000;


const state = async (http: Http, id: string) => (await http().get(`/api/matches/${id}`).expect(200)).body;
const events = async (http: Http, id: string) => (await http().get(`/api/matches/${id}/events?limit=1000`).expect(200)).body.events as any[];

/** A person at seat 0 against two bots, with a 5-second clock; answers the match and the person's token. */
async function againstBots(http: Http, extra: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const res = await http()
    .post('/api/matches')
    .send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick', clock: { turnSeconds: TURN } }, ...extra })
    .expect(201);
  return { id: res.body.id, token: res.body.seats[0].token };
}

/**
 * The public state once seat 0 is the person to act, its clock running, and the bots done (a bot's
 * optional cut before the person's deal starts the dealer's turn again: the clock counts from the last event).
 */
const personsTurn = (http: Http, id: string) =>
  waitFor('the person\'s turn', async () => {
    const s = await state(http, id);
    if (s.clock?.seat !== 0) return null;
    await new Promise((r) => setTimeout(r, 300));
    const again = await state(http, id);
    return again.version === s.version ? again : null;
  });

describe('turn clocks', () => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    process.env.STAND_IN_BOT = 'greedy';
    db = await createTestDatabase({ migrations: [] });
    t = await startTestApp(db);
  }, 120_000);
  afterAll(async () => {
    delete process.env.STAND_IN_BOT;
    await t?.stopApp();
    await db?.drop();
  });

  it('a match without a clock shows none, and nobody is away', async () => {
    const res = await t.http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', 'Cecilia'] }).expect(201);
    const s = await state(t.http, res.body.id);
    expect(s.clock).toBeNull();
    expect(s.away).toEqual([false, false, false]);
    expect(s.options.clock).toBeUndefined();
  });

  it('refuses a clock out of bounds, and changes nothing', async () => {
    for (const clock of [{ turnSeconds: 4 }, { turnSeconds: 3601 }, { turnSeconds: 30.5 }, { turnSeconds: 30, onTimeout: 'wait' }, { turnSeconds: 30, extra: 1 }, 'fast']) {
      const res = await t.http().post('/api/matches').send({ players: ['A', 'B', 'C'], options: { clock } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('times out a person, lets a stand-in decide soon after the deadline, and marks that seat away after two in a row', async () => {
    const { id, token } = await againstBots(t.http);
    const first = await personsTurn(t.http, id);
    expect(first.clock.turnSeconds).toBe(TURN);
    expect(first.options.clock).toEqual({ turnSeconds: TURN, onTimeout: 'standIn' });
    const log = await events(t.http, id);
    // The clock counts from the event that gave the turn.
    expect(Date.parse(first.clock.deadline) - Date.parse(log.at(-1).at)).toBe(TURN * 1000);

    const timedOut = await waitFor('the timeout', async () => (await events(t.http, id)).find((e) => e.type === 'TurnTimedOut'), 30_000);
    expect(timedOut.data).toEqual({ seat: 0, deadline: first.clock.deadline });
    const after = await waitFor('the stand-in move', async () => (await events(t.http, id)).find((e) => e.version === timedOut.version + 1), 30_000);
    expect(after.standIn).toBe(true);
    // One append: the sweeper had the stand-in's move decided on the state the timeout left.
    expect(after.at).toBe(timedOut.at);
    expect(Date.parse(after.at) - Date.parse(first.clock.deadline)).toBeLessThan(LATE_MS);
    expect((await state(t.http, id)).away).toEqual([false, false, false]);

    // The second in a row: away, and the stand-in plays the person's turns at once from then on.
    const second = await personsTurn(t.http, id);
    await waitFor('away', async () => ((await state(t.http, id)).away[0] ? true : null), (TURN + 2) * 1000);
    const timeouts = (await events(t.http, id)).filter((e) => e.type === 'TurnTimedOut');
    expect(timeouts.map((e) => e.data)).toEqual([timedOut.data, { seat: 0, deadline: second.clock.deadline }]);
    const standIns = await waitFor('more stand-in moves', async () => {
      const moves = (await events(t.http, id)).filter((e) => e.standIn && e.data.seat === 0 && e.type !== 'TurnTimedOut');
      return moves.length >= 4 ? moves : null;
    });
    expect(standIns.length).toBeGreaterThanOrEqual(4);
    expect((await events(t.http, id)).filter((e) => e.type === 'TurnTimedOut')).toHaveLength(2);
    // While away nobody's clock runs for seat 0.
    const now = await state(t.http, id);
    expect(now.clock === null || now.clock.seat !== 0).toBe(true);

    // Back: SeatReturned, and the clock runs for the person again.
    const back = await t.http().post(`/api/matches/${id}/seats/0/back`).set(...bearer(token)).expect(200);
    expect(back.body.events.map((e: any) => e.type)).toEqual(['SeatReturned']);
    expect((await state(t.http, id)).away).toEqual([false, false, false]);
    const again = await t.http().post(`/api/matches/${id}/seats/0/back`).set(...bearer(token));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SEAT_NOT_AWAY');
    const mine = await personsTurn(t.http, id);
    expect(Date.parse(mine.clock.deadline)).toBeGreaterThan(Date.now());

    const audit = (await t.http().get(`/api/matches/${id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(true);
    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 120_000);

  it('refuses a return that is not due, and a token of another seat', async () => {
    const res = await t.http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', 'Cecilia'] }).expect(201);
    const [a, b] = res.body.seats;
    const notAway = await t.http().post(`/api/matches/${res.body.id}/seats/0/back`).set(...bearer(a.token));
    expect(notAway.status).toBe(409);
    expect(notAway.body.code).toBe('SEAT_NOT_AWAY');
    const other = await t.http().post(`/api/matches/${res.body.id}/seats/0/back`).set(...bearer(b.token));
    expect(other.status).toBe(403);
    expect((await t.http().post(`/api/matches/${res.body.id}/seats/0/back`)).status).toBe(401);
    expect((await t.http().post(`/api/matches/${res.body.id}/seats/3/back`).set(...bearer(a.token))).status).toBe(400);
    // Only the service's own stand-in moves as one: a caller that claims it is refused.
    const dealer = res.body.firstDealer;
    const claimed = await t.http().post(`/api/matches/${res.body.id}/deal`).set(...bearer(res.body.seats[dealer].token)).send({ standIn: true });
    expect(claimed.status).toBe(400);
    expect((await state(t.http, res.body.id)).version).toBe(res.body.version);
  });

  it('with two instances sweeping one database, times each turn out once and appends each stand-in move once', async () => {
    const second = await startTestApp(db);
    try {
      const { id } = await againstBots(t.http);
      // Seat 0 never acts: two timeouts, then the stand-in plays its turns; both instances sweep all along.
      await waitFor('two timeouts and the stand-in playing on', async () => {
        const log = await events(second.http, id);
        return log.filter((e) => e.type === 'TurnTimedOut').length === 2 && log.filter((e) => e.standIn).length >= 6 ? log : null;
      }, 30_000);
      const log = await t.app.get(EventStore).readStream(id);
      expect(log.map((e) => e.version)).toEqual(log.map((_, i) => i + 1));
      const timeouts = log.filter((e) => e.type === 'TurnTimedOut');
      expect(new Set(timeouts.map((e) => (e.data as { deadline: string }).deadline)).size).toBe(timeouts.length);
      for (const timeout of timeouts) expect(log[timeout.version].metadata.standIn).toBe(true);
      // Each card of a deal once, whichever instance's stand-in played it.
      const played = log.filter((e) => e.type === 'CardPlayed').map((e) => JSON.stringify([(e.data as any).deal, (e.data as any).card]));
      expect(new Set(played).size).toBe(played.length);
      const audit = (await second.http().get(`/api/matches/${id}/audit`).expect(200)).body;
      expect(audit.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    } finally {
      await second.stopApp();
    }
  }, 120_000);

  it('keeps the clock across a restart: the next process times the person out on time', async () => {
    const { id } = await againstBots(t.http);
    const turn = await personsTurn(t.http, id);
    await t.stopApp();
    t = await startTestApp(db);
    const timedOut = await waitFor('the timeout after the restart', async () => (await events(t.http, id)).find((e) => e.type === 'TurnTimedOut'), 30_000);
    expect(timedOut.data.deadline).toBe(turn.clock.deadline);
    const standIn = await waitFor('the stand-in move', async () => (await events(t.http, id)).find((e) => e.version === timedOut.version + 1), 30_000);
    expect(standIn.standIn).toBe(true);
    expect(Date.parse(standIn.at) - Date.parse(turn.clock.deadline)).toBeLessThan(LATE_MS);
    const stored = await t.app.get(EventStore).readStream(id);
    expect(stored.find((e) => e.version === standIn.version)?.metadata.standIn).toBe(true);
  }, 120_000);
});
