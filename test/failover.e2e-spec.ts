import { parseSse } from '@bismarck/client';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { startReplicatedPair, type ReplicatedPair } from '../bench/clusters/local-pair';
import { createApp } from '../apps/api/src/bootstrap';
import { actionRequest, bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';
import { listenLocal } from './support/server';
import { waitFor } from './support/wait';

// The connection layer of a replicated database (libs/database/src/primary.ts, docs/operations.md,
// "A replicated database"): a primary and a synchronous standby of this test's own, the standby
// listed first in DATABASE_URL. The primary is crashed and the standby promoted by hand, as a failover
// manager would (npm run drill:failover does it with pg_auto_failover, under load).
describe('a replicated database: following the primary through a failover', () => {
  let pair: ReplicatedPair;
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let baseA: string;
  const httpA = () => request(a.getHttpServer());
  const httpB = () => request(b.getHttpServer());

  // Bots slowed so that a bot's move is still pending when the primary dies; swept for often. The
  // clocks' grace after an outage is what a person has to move once the database is back: long
  // beside what the test takes to move then (about 1 s quiet, a few seconds on a loaded two-core
  // machine), so only a sweeper that ignores the grace times the person out.
  const GRACE_MS = 15_000;
  const settings = { BOT_DELAY_MS: '1500', BOT_SWEEP_MS: '500', BOT_TABLE_CARDS_PAUSE_MS: '0', STAND_IN_BOT: 'greedy', CLOCK_OUTAGE_GRACE_MS: String(GRACE_MS) };

  beforeAll(async () => {
    Object.assign(process.env, settings);
    pair = await startReplicatedPair();
    a = await createApp({ databaseUrl: pair.url, embedded: false, quiet: true, poolSize: 4 });
    await a.init();
    baseA = await listenLocal(a);
    b = await createApp({ databaseUrl: pair.url, embedded: false, quiet: true, poolSize: 4 });
    await b.init();
  }, 300_000);
  afterAll(async () => {
    await a?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    pair?.stop();
    for (const name of Object.keys(settings)) delete process.env[name];
  }, 60_000);

  async function rows<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** The seat to act's next action, as a request not yet sent. */
  async function nextAction(http: typeof httpA, match: CreatedMatch) {
    const state = (await http().get(`/api/matches/${match.id}`).expect(200)).body;
    const view = (await http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[state.turn].token)).expect(200)).body;
    return () => actionRequest(http, match, state.turn, view.legal, view.hand, (xs) => xs[0]);
  }

  const publicState = async (http: typeof httpA, id: string) => (await http().get(`/api/matches/${id}`).expect(200)).body;
  const eventsOf = async (http: typeof httpA, id: string) => (await http().get(`/api/matches/${id}/events?limit=1000`).expect(200)).body.events as { version: number; type: string; at: string; data: any }[];

  /** Seat 0, the only person, acts until its move hands the turn to a bot; answers the version the bot is to move at. */
  async function untilABotIsToMove(http: typeof httpA, match: CreatedMatch): Promise<number> {
    for (;;) {
      const view = await waitFor("the person's turn", async () => {
        const v = (await http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)).expect(200)).body;
        return v.legal && v.legal.action !== 'cut' ? v : null;
      }, 60_000);
      const res = await actionRequest(http, match, 0, view.legal, view.hand, (xs) => xs[0]);
      // 412: a bot's optional cut came first.
      if (res.status !== 200) continue;
      const state = await publicState(http, match.id);
      if (state.status === 'playing' && state.turn !== 0) return state.version;
    }
  }

  it('writes on the primary though a standby is listed first, and an acknowledged command is on both', async () => {
    const match = await createMatch(httpA, { options: { schedule: 'quick' }, seed: 'primary-first' });
    for (let i = 0; i < 3; i++) await playOneAction(httpA, match);
    const version = (await httpA().get(`/api/matches/${match.id}`).expect(200)).body.version;
    for (const url of [pair.primaryUrl, pair.standbyUrl]) {
      const [{ n }] = await rows<{ n: number }>(url, 'SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [match.id]);
      expect(n).toBe(version);
    }
  }, 60_000);

  it('answers 503 with Retry-After while there is no primary, then serves from the new one: retries answer once, the stream resumes, LISTEN follows, transaction ids go on, bot seats and turn clocks carry on', async () => {
    const match = await createMatch(httpA, { options: { schedule: 'quick' }, seed: 'failover' });
    const pick = seededPick(3);
    for (let i = 0; i < 4; i++) await playOneAction(httpA, match, pick);

    // A live stream on A; every event reaches it, whichever instance appended it.
    const seen: number[] = [];
    let lastId = 0;
    const readStream = async (signal: AbortSignal, onOpen?: () => void) => {
      const res = await fetch(`${baseA}/api/matches/${match.id}/events/stream`, { headers: lastId ? { 'last-event-id': String(lastId) } : {}, signal });
      if (res.status !== 200) return;
      onOpen?.();
      for await (const m of parseSse(res.body!)) {
        if (m.event !== 'message') continue;
        seen.push(Number(m.id));
        lastId = Number(m.id);
      }
    };
    const first = new AbortController();
    let firstEnded = false;
    const reading = readStream(first.signal)
      .catch(() => undefined)
      .finally(() => (firstEnded = true));

    const command = await nextAction(httpB, match);
    const acknowledged = await command().set('Idempotency-Key', 'before-the-failover');
    expect(acknowledged.status).toBe(200);
    // A person against two bots: the person's last move leaves a bot to move (after BOT_DELAY_MS).
    const vsBots = await createMatch(httpA, { players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' }, seed: 'failover-bots' });
    const botsVersion = await untilABotIsToMove(httpA, vsBots);
    // A table of persons with a turn clock whose first deadline falls while there is no primary: made
    // last, just before the crash, however long the steps above took on a busy machine.
    const clocked = await createMatch(httpA, { options: { schedule: 'quick', clock: { turnSeconds: 5 } }, seed: 'failover-clock' });
    const clockRunsOut = Date.now() + 5_000;
    const [{ tx: lastTx }] = await rows<{ tx: string }>(pair.primaryUrl, 'SELECT max(tx_id)::text AS tx FROM events');

    pair.crashPrimary();
    const crashedAt = Date.now();
    // No primary: a command, a read and a stream are refused as "come back shortly", never 500.
    const answers = [await command().set('Idempotency-Key', 'during-the-failover'), await httpA().get(`/api/matches/${match.id}/events?after=0`), await httpB().post('/api/matches').send({ players: ['A', 'B', 'C'] })];
    for (const res of answers) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }

    // The bot's move and the clock's deadline both come while there is no primary.
    await sleep(Math.max(clockRunsOut + 500, crashedAt + 2_500) - Date.now());
    // No sweeper can read before the promotion: the grace of each starts after this.
    const promoting = Date.now();
    await pair.promoteStandby();
    await waitFor('the service to write on the new primary', async () => ((await httpB().post('/api/matches').send({ players: ['A', 'B', 'C'] })).status === 201 ? true : null), 60_000);
    // The person whose clock ran out while nobody could move still has the turn: the sweeper waits
    // CLOCK_OUTAGE_GRACE_MS once the database is back before it times anyone out. (The person takes a
    // second: without the grace, the sweeper, every 250 ms, would have timed them out by then.)
    await sleep(1_000);
    await playOneAction(httpB, clocked);
    const movedIn = Date.now() - promoting;
    const clockedMoved = (await eventsOf(httpB, clocked.id)).map((e) => e.type);
    // Within the grace, however slow the machine was to get here (beyond it the test would prove nothing).
    expect(movedIn).toBeLessThan(GRACE_MS);
    expect(clockedMoved).not.toContain('TurnTimedOut');

    // The command acknowledged before the failover is answered again as it was, not applied twice.
    const replayed = await command().set('Idempotency-Key', 'before-the-failover');
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 200, body: acknowledged.body });
    for (let i = 0; i < 6; i++) await playOneAction(httpB, match, pick);

    // The stream on A: it may have ended with the old primary; resumed with Last-Event-ID, it has
    // every version once, in order, and the appends of B reached it through A's LISTEN on the new primary.
    const version = (await httpB().get(`/api/matches/${match.id}`).expect(200)).body.version;
    const deadline = Date.now() + 60_000;
    while (lastId < version && Date.now() < deadline) {
      // A client resumes once its stream has ended; one kept open through the failover goes on by itself.
      if (!firstEnded) {
        await sleep(200);
        continue;
      }
      const next = new AbortController();
      const timer = setTimeout(() => next.abort(), 3_000);
      await readStream(next.signal).catch(() => undefined);
      clearTimeout(timer);
    }
    first.abort();
    await reading;
    expect(seen).toEqual(Array.from({ length: version }, (_, i) => i + 1));

    // Both instances LISTEN on the new primary again (the streams' fallback poll would hide a lost LISTEN).
    await waitFor('both instances to LISTEN on the new primary', async () => {
      const listening = await rows<{ query: string }>(pair.standbyUrl, `SELECT query FROM pg_stat_activity WHERE application_name = 'bismarck-event-store-listen'`);
      return listening.length === 2 && listening.every((r) => /^LISTEN /.test(r.query)) ? true : null;
    }, 60_000);
    // A live wake-up after the failover: an append by B reaches A's stream, open before it.
    const live = new AbortController();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const liveReading = readStream(live.signal, opened).catch(() => undefined);
    await Promise.race([open, liveReading]);
    await playOneAction(httpB, match, pick);
    await waitFor('the stream on A to hear B', async () => (lastId === version + 1 ? true : null), 30_000);
    live.abort();
    await liveReading;

    // The log on the new primary: no gap, nothing twice, and transaction ids past the old primary's.
    const log = await rows<{ version: number }>(pair.standbyUrl, 'SELECT version FROM events WHERE stream_id = $1 ORDER BY version', [match.id]);
    expect(log.map((r) => r.version)).toEqual(Array.from({ length: version + 1 }, (_, i) => i + 1));
    const [{ after }] = await rows<{ after: string }>(pair.standbyUrl, 'SELECT min(tx_id)::text AS after FROM events WHERE tx_id > $1::xid8', [lastTx]);
    expect(BigInt(after)).toBeGreaterThan(BigInt(lastTx));

    // The bots' sweep and the clocks' sweep carry on against the new primary: the bots' pending move
    // is made (once), and the next person, who lets the clock run out, is timed out.
    await waitFor('the bots to have moved and the turn to be the person\'s again', async () => {
      const state = await publicState(httpA, vsBots.id);
      return state.version > botsVersion && state.turn === 0 ? true : null;
    }, 60_000);
    // Not before the grace is over (each sweeper's grace began after `promoting`), then at the next sweep.
    const timedOut = await waitFor('the clock to have run out', async () => (await eventsOf(httpB, clocked.id)).find((e) => e.type === 'TurnTimedOut'), GRACE_MS + 60_000);
    expect(Date.parse(timedOut.at)).toBeGreaterThanOrEqual(promoting + GRACE_MS);
    for (const id of [vsBots.id, clocked.id]) {
      const events = await eventsOf(httpB, id);
      expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
      const plays = events.filter((e) => e.type === 'CardPlayed').map((e) => `${e.data.deal}/${e.data.card}`);
      expect(new Set(plays).size).toBe(plays.length);
    }
  }, 240_000);
});
