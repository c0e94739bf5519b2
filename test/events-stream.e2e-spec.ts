import { streamMatchEvents, parseSse, type MatchEvent } from '@bismarck/client';
import { EventStore } from '@bismarck/event-store';
import { createApp } from '../apps/api/src/bootstrap';
import { FEED_IDLE_STOP_MS, LiveHub } from '../apps/api/src/game/live/live-hub.service';
import { useTestApp } from './support/app';
import { onRealServer } from './support/database';
import { createMatch, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';
import { collect, listenLocal } from './support/server';
import { waitFor } from './support/wait';

// These streams read finished matches to their end: without the rematch window (its wait after
// MatchFinished is test/rematch.e2e-spec.ts's and match-channel.spec.ts's), they end at MatchFinished.
const t = useTestApp(
  () => Object.assign(process.env, { REMATCH_WINDOW_MS: '0' }),
  () => delete process.env.REMATCH_WINDOW_MS,
);
let base: string;
beforeAll(async () => {
  base = await listenLocal(t.app);
});

const versions = (events: MatchEvent[]) => events.map((e) => e.version);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const quick = (http = t.http) => createMatch(http, { options: { schedule: 'quick' } });
/**
 * A test that plays a whole quick match (150 actions, 450 requests): a few seconds on a quiet machine,
 * 85 s measured at a load of 25 on two cores. A timeout, so it costs nothing when the test passes.
 */
const WHOLE_MATCH_MS = 180_000;
const playSome = async (match: CreatedMatch, n: number) => {
  for (let i = 0; i < n; i++) await playOneAction(t.http, match, seededPick(i + 3));
};

describe('GET /api/matches/{id}/events/stream (Server-Sent Events)', () => {
  it('sends every event live, in order with no gap, and closes after MatchFinished', async () => {
    const match = await quick();
    const streamed = collect(streamMatchEvents(base, match.id, { reconnect: false }));
    await playToEnd(t.http, match, seededPick(11));
    const events = await streamed;
    const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
    expect(versions(events)).toEqual(range(1, state.version));
    expect(events.at(-1)!.type).toBe('MatchFinished');
  }, WHOLE_MATCH_MS);

  it('frames each event with id: <version> and ends with an `end` event, then answers 204 at the end', async () => {
    const match = await quick();
    await playToEnd(t.http, match, seededPick(5));
    const res = await fetch(`${base}/api/matches/${match.id}/events/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const messages = await collect(parseSse(res.body!));
    const data = messages.filter((m) => m.event === 'message');
    expect(data.map((m) => Number(m.id))).toEqual(data.map((m) => JSON.parse(m.data).version));
    expect(messages.at(-1)).toMatchObject({ event: 'end' });
    const last = data.at(-1)!.id;
    const again = await fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: { 'last-event-id': String(last) } });
    expect(again.status).toBe(204);
  }, WHOLE_MATCH_MS);

  it('resumes with Last-Event-ID: no gap and no duplicate across a dropped connection', async () => {
    const match = await quick();
    await playSome(match, 10);
    const controller = new AbortController();
    const first: MatchEvent[] = [];
    // Read a few events live, then drop the connection while the match goes on.
    const reading = (async () => {
      try {
        for await (const e of streamMatchEvents(base, match.id, { signal: controller.signal, reconnect: false })) {
          first.push(e);
          if (e.version >= 12) controller.abort();
        }
      } catch {
        // aborted
      }
    })();
    await playSome(match, 8);
    await reading;
    await playSome(match, 15);
    const lastSeen = first.at(-1)!.version;
    const resumed = collect(streamMatchEvents(base, match.id, { after: lastSeen, reconnect: false }));
    await playToEnd(t.http, match, seededPick(2));
    const rest = await resumed;
    const all = [...first, ...rest];
    const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
    expect(versions(all)).toEqual(range(1, state.version));
  }, WHOLE_MATCH_MS);

  it('the Last-Event-ID header wins over ?after= and a bad one is refused as problem+json', async () => {
    const match = await quick();
    await playSome(match, 3);
    const ac = new AbortController();
    const res = await fetch(`${base}/api/matches/${match.id}/events/stream?after=0`, { headers: { 'last-event-id': '2' }, signal: ac.signal });
    // Presence (`event: presence`, no version) comes first: the log's first message is the one after 2.
    const firstMessage = (await collect(parseSse(res.body!), (xs) => xs.some((x) => x.event === 'message'))).find((x) => x.event === 'message')!;
    expect(JSON.parse(firstMessage.data).version).toBe(3);
    ac.abort();
    const bad = await fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: { 'last-event-id': 'x' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses a resume point past the log (another match\'s Last-Event-ID): 400, not a stream that silently skips to it', async () => {
    const match = await quick();
    await playSome(match, 3);
    const version = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body.version;
    for (const [headers, query, parameter] of [
      [{ 'last-event-id': String(version + 100) }, '', 'Last-Event-ID'],
      [{}, `?after=${version + 1}`, 'after'],
    ] as const) {
      const res = await fetch(`${base}/api/matches/${match.id}/events/stream${query}`, { headers, signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ parameter, detail: expect.stringContaining(`at most ${version}`) }] });
    }
    // At the head it streams what comes next; a finished match at or past its end still answers 204.
    const ac = new AbortController();
    const res = await fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: { 'last-event-id': String(version) }, signal: ac.signal });
    expect(res.status).toBe(200);
    await playSome(match, 1);
    const next = (await collect(parseSse(res.body!), (xs) => xs.some((x) => x.event === 'message'))).find((x) => x.event === 'message')!;
    expect(JSON.parse(next.data).version).toBe(version + 1);
    ac.abort();
    await playToEnd(t.http, match, seededPick(2));
    const end = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body.version;
    expect((await fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: { 'last-event-id': String(end + 5) } })).status).toBe(204);
  }, WHOLE_MATCH_MS);

  it('redacts per caller like GET /events: a seat sees its own hand only, a spectator none', async () => {
    const match = await quick();
    await playSome(match, 2); // dealt (and, blind or not, the hands are dealt by now or at the contract)
    await playSome(match, 2);
    const seat = match.seats[1];
    const upTo = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body.version;
    const take = (token?: string) =>
      collect(streamMatchEvents(base, match.id, { token, reconnect: false }), (xs) => xs.at(-1)!.version >= upTo);
    const [mine, spectator] = await Promise.all([take(seat.token), take()]);
    const hands = (events: MatchEvent[]) => events.find((e) => e.type === 'HandsDealt')!.data.hands as (string[] | null)[];
    expect(hands(mine).map((h) => h !== null)).toEqual([false, true, false]);
    expect(hands(spectator)).toEqual([null, null, null]);
    expect(spectator.find((e) => e.type === 'DealStarted')!.data.deck).toBeNull();
    // The same as the log says to the same callers.
    const log = (await t.http().get(`/api/matches/${match.id}/events?limit=${upTo}`).set('Authorization', `Bearer ${seat.token}`).expect(200)).body;
    expect(mine).toEqual(log.events);
  }, WHOLE_MATCH_MS);

  it('fills a gap from the log when a live event arrives beyond the last version sent', async () => {
    const hub = t.app.get(LiveHub) as unknown as { dispatch: (events: unknown[]) => void };
    const original = hub.dispatch;
    let batches = 0;
    // Lose three early batches of the feed: the next delivered event is then ahead of the stream.
    hub.dispatch = function (this: unknown, events: unknown[]) {
      batches++;
      if (batches === 2 || batches === 4 || batches === 6) return;
      return original.call(this, events);
    };
    try {
      const match = await quick();
      const streamed = collect(streamMatchEvents(base, match.id, { reconnect: false }));
      await playToEnd(t.http, match, seededPick(21));
      const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
      expect(versions(await streamed)).toEqual(range(1, state.version));
      expect(batches).toBeGreaterThan(6);
    } finally {
      hub.dispatch = original;
    }
  }, WHOLE_MATCH_MS);

  it('stops reading the feed once no stream is open, and a stream opened after misses nothing', async () => {
    const hub = t.app.get(LiveHub);
    hub.idleStopMs = 50;
    // Waited for, not slept on: a loaded machine stops the feed late, but a feed that never stops fails.
    const feedIs = (running: boolean) => waitFor(`the feed ${running ? 'running' : 'stopped'}`, async () => (hub.feedRunning === running ? true : null), 30_000);
    try {
      const match = await quick();
      const controller = new AbortController();
      let received = 0;
      const reading = (async () => {
        try {
          for await (const e of streamMatchEvents(base, match.id, { signal: controller.signal, reconnect: false })) received = e.version;
        } catch {
          // aborted
        }
      })();
      await playSome(match, 4);
      await waitFor('the stream to read version 3', async () => (received >= 3 ? true : null), 30_000);
      // While the stream is open the instance reads the feed (checked before the stream goes: with a
      // 50 ms idle stop, a check after it raced the stop on a busy machine).
      await feedIs(true);
      controller.abort();
      await reading;
      await feedIs(false); // the last stream has gone: the instance reads nothing
      await playSome(match, 5);
      const streamed = collect(streamMatchEvents(base, match.id, { reconnect: false }));
      await playToEnd(t.http, match, seededPick(4));
      const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
      expect(versions(await streamed)).toEqual(range(1, state.version));
    } finally {
      hub.idleStopMs = FEED_IDLE_STOP_MS;
    }
  }, WHOLE_MATCH_MS);

  it('answers 404 for an unknown match and 401 for an unknown token, as problem+json', async () => {
    const missing = await fetch(`${base}/api/matches/00000000-0000-4000-8000-000000000000/events/stream`);
    expect(missing.status).toBe(404);
    const match = await quick();
    const bad = await fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: { authorization: 'Bearer bsk_nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it(`a second api instance on the same database streams what the first appends (${onRealServer ? 'NOTIFY' : 'embedded: polling'})`, async () => {
    const other = await createApp({ databaseUrl: t.db.url, embedded: t.db.embedded, quiet: true, poolSize: 4 });
    try {
      const otherBase = await listenLocal(other);
      // On a real server the second instance LISTENs before it serves (and before /health says ok):
      // the first one's appends wake it through NOTIFY.
      expect(other.get(EventStore).wakeups.listening).toBe(onRealServer);
      expect((await fetch(`${otherBase}/health`)).status).toBe(200);
      const match = await quick();
      const streamed = collect(streamMatchEvents(otherBase, match.id, { reconnect: false }));
      await playOneAction(t.http, match);
      await playToEnd(t.http, match, seededPick(9));
      const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
      expect(versions(await streamed)).toEqual(range(1, state.version));
    } finally {
      await other.close();
    }
  }, WHOLE_MATCH_MS + 60_000);

  it('a stream open when the process stops gets its end at once (not after the grace period)', async () => {
    // The grace is long beside what a stop takes on a busy machine (seconds), so only a stream left to it ends late.
    const GRACE_MS = 60_000;
    const other = await createApp({ databaseUrl: t.db.url, embedded: t.db.embedded, quiet: true, poolSize: 2, shutdownGraceMs: GRACE_MS });
    let closed = false;
    try {
      const otherBase = await listenLocal(other);
      const match = await quick();
      await playSome(match, 2);
      const res = await fetch(`${otherBase}/api/matches/${match.id}/events/stream`);
      expect(res.status).toBe(200);
      const messages = parseSse(res.body!);
      // The stream is open and writing (one generator throughout: leaving its loop would cancel the body).
      // A spectator's stream: told the presence first (nobody connected), then the log.
      expect((await messages.next()).value).toMatchObject({ event: 'presence', data: JSON.stringify({ connected: [false, false, false] }) });
      const first = await messages.next();
      expect(first.done ? undefined : first.value).toMatchObject({ event: 'message', id: '1' });
      const started = Date.now();
      const ended = (async () => {
        while (!(await messages.next()).done);
        return Date.now();
      })();
      await other.close();
      closed = true;
      // The body ends: the connection was closed by the server, not cut by the grace period.
      expect((await ended) - started).toBeLessThan(GRACE_MS / 3);
    } finally {
      if (!closed) await other.close();
    }
  }, 2 * 60_000);

  it('a stream opened while the process stops ends at once with 200 (an EventSource comes back), not an error', async () => {
    const other = await createApp({ databaseUrl: t.db.url, embedded: t.db.embedded, quiet: true, poolSize: 2 });
    try {
      const otherBase = await listenLocal(other);
      const match = await quick();
      // The first step of a shutdown: the hub ends the open streams and takes no more listeners.
      await other.get(LiveHub).onModuleDestroy();
      const res = await fetch(`${otherBase}/api/matches/${match.id}/events/stream`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await res.text()).toBe('retry: 2000\n\n');
    } finally {
      await other.close();
    }
  }, WHOLE_MATCH_MS);
});
