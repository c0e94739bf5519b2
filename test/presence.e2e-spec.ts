import { DataSource } from 'typeorm';
import { parseSse, type SseMessage } from '@bismarck/client';
import { PresenceService } from '../apps/api/src/game/live/presence.service';
import { rebuildDifferences, useTwoTestApps, type TestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';
import { listenLocal } from './support/server';
import { waitFor } from './support/wait';

// Presence (docs/architecture.md, "Presence"): `connected` in the public state and `event: presence`
// on the live stream, from the seat streams open on any instance. A short heartbeat, so that the
// instances' polling (the only cross-instance path on the embedded database) and a row running out
// are seen within a test; not shorter, because a row lives three heartbeats: a renewal late by that
// much on a busy machine would show a connected seat as gone.
const HEARTBEAT_MS = 1_000;
beforeAll(() => void (process.env.PRESENCE_HEARTBEAT_MS = String(HEARTBEAT_MS)));
const { a, b } = useTwoTestApps();
afterAll(() => void delete process.env.PRESENCE_HEARTBEAT_MS);

const bases = new Map<TestApp, string>();
beforeAll(async () => {
  for (const t of [a, b]) bases.set(t, await listenLocal(t.app));
});

type Connected = [boolean, boolean, boolean];

/** A live stream read in the background: every message it got so far, and the presence it was told last. */
interface OpenStream {
  readonly messages: SseMessage[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  presences(): Connected[];
  close(): Promise<void>;
}

async function openStream(t: TestApp, matchId: string, token?: string): Promise<OpenStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(`${bases.get(t)}/api/matches/${matchId}/events/stream`, { headers, signal: controller.signal });
  expect(res.status).toBe(200);
  const messages: SseMessage[] = [];
  const reading = (async () => {
    for await (const m of parseSse(res.body!)) messages.push(m);
  })().catch(() => undefined);
  const presences = () => messages.filter((m) => m.event === 'presence').map((m) => JSON.parse(m.data).connected as Connected);
  // Every stream is told the presence first.
  await waitFor('the first presence', async () => presences()[0]);
  return {
    messages,
    ended: reading,
    presences,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

const told = (stream: OpenStream, connected: Connected, what: string) =>
  waitFor(`${what}: presence ${JSON.stringify(connected)}`, async () => (JSON.stringify(stream.presences().at(-1)) === JSON.stringify(connected) ? true : null), 30_000);

const connectedIn = async (t: TestApp, id: string): Promise<Connected> => (await t.http().get(`/api/matches/${id}`).expect(200)).body.connected;
const shows = (t: TestApp, id: string, connected: Connected, what: string) =>
  waitFor(`${what}: GET shows ${JSON.stringify(connected)}`, async () => (JSON.stringify(await connectedIn(t, id)) === JSON.stringify(connected) ? true : null), 30_000);

const db = (t: TestApp) => t.app.get(DataSource);

describe('presence', () => {
  let match: CreatedMatch;
  beforeAll(async () => {
    match = await createMatch(a.http, { options: { schedule: 'quick' } });
  });

  it("a seat token's stream makes its seat connected, in GET and in every stream; closing it, not any more", async () => {
    expect(await connectedIn(a, match.id)).toEqual([false, false, false]);
    const spectator = await openStream(a, match.id);
    expect(spectator.presences()).toEqual([[false, false, false]]);
    // A spectator's stream counts for no seat.
    expect(await connectedIn(a, match.id)).toEqual([false, false, false]);

    const seat1 = await openStream(a, match.id, match.seats[1].token);
    // The seat's own stream is told its presence with itself in it; the others are told the change.
    expect(seat1.presences()[0]).toEqual([false, true, false]);
    await told(spectator, [false, true, false], 'the spectator');
    expect(await connectedIn(a, match.id)).toEqual([false, true, false]);
    const view = (await a.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)).expect(200)).body;
    expect(view.connected).toEqual([false, true, false]);

    // Two streams of one seat: it stays connected until both are closed.
    const seat1Again = await openStream(a, match.id, match.seats[1].token);
    await seat1.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(await connectedIn(a, match.id)).toEqual([false, true, false]);
    await seat1Again.close();
    await told(spectator, [false, false, false], 'the spectator');
    expect(await connectedIn(a, match.id)).toEqual([false, false, false]);

    await spectator.close();
  }, 60_000);

  it('frames presence as `event: presence` with no id: line, between the events, and the events keep their ids', async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const pick = seededPick(3);
    for (let i = 0; i < 3; i++) await playOneAction(a.http, m, pick);
    const version = (await a.http().get(`/api/matches/${m.id}`).expect(200)).body.version;
    const controller = new AbortController();
    const res = await fetch(`${bases.get(a)}/api/matches/${m.id}/events/stream`, { headers: { authorization: `Bearer ${m.seats[2].token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!/event: presence\n/.test(text) || !text.includes(`id: ${version}\n`)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    const frames = text.split('\n\n').filter((f) => f.includes('data:'));
    const presence = frames.filter((f) => f.startsWith('event: presence'));
    expect(presence).toEqual(['event: presence\ndata: {"connected":[false,false,true]}']);
    for (const f of frames.filter((x) => !x.startsWith('event:'))) expect(f).toMatch(/^id: \d+\ndata: /);
  }, 60_000);

  it("a player token's stream counts for the seat bound to that player; a player with no seat there watches like anyone", async () => {
    const ann = (await a.http().post('/api/players').send({ name: 'Ann' }).expect(201)).body;
    const bo = (await a.http().post('/api/players').send({ name: 'Bo' }).expect(201)).body;
    const created = (await a.http().post('/api/matches').set(...bearer(ann.token)).send({ players: ['Cy', { player: ann.id }, 'Di'] }).expect(201)).body;
    const annStream = await openStream(a, created.id, ann.token);
    expect(annStream.presences()[0]).toEqual([false, true, false]);
    const boStream = await openStream(a, created.id, bo.token);
    expect(boStream.presences()[0]).toEqual([false, true, false]);
    expect(await connectedIn(a, created.id)).toEqual([false, true, false]);
    await annStream.close();
    await told(boStream, [false, false, false], "the unseated player's stream");
    await boStream.close();
  }, 60_000);

  it('the ETag shows presence: a revalidation gets 304 only while neither version nor presence changed, and a command takes it as If-Match', async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const first = await a.http().get(`/api/matches/${m.id}`).expect(200);
    expect(first.headers.etag).toBe(`"${m.version}-000"`);
    await a.http().get(`/api/matches/${m.id}`).set('If-None-Match', first.headers.etag).expect(304);
    const viewTag = (await a.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[0].token)).expect(200)).headers.etag;
    expect(viewTag).toBe(`"${m.version}-000"`);

    const stream = await openStream(b, m.id, m.seats[0].token);
    // Presence changed, the version did not: no 304 with the old tag, on either instance.
    for (const t of [a, b]) {
      const again = await t.http().get(`/api/matches/${m.id}`).set('If-None-Match', first.headers.etag).expect(200);
      expect(again.body.version).toBe(m.version);
      expect(again.body.connected).toEqual([true, false, false]);
      expect(again.headers.etag).toBe(`"${m.version}-100"`);
      await t.http().get(`/api/matches/${m.id}`).set('If-None-Match', again.headers.etag).expect(304);
    }
    await a.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[0].token)).set('If-None-Match', viewTag).expect(200);
    await stream.close();
    await shows(a, m.id, [false, false, false], 'after the stream closed');
    await a.http().get(`/api/matches/${m.id}`).set('If-None-Match', first.headers.etag).expect(304);

    // The tag as a GET gave it is a command's If-Match: its version is compared, its presence part not.
    const state = (await a.http().get(`/api/matches/${m.id}`).expect(200)).body;
    const dealer = m.seats[state.dealer].token;
    await a.http().post(`/api/matches/${m.id}/deal`).set(...bearer(dealer)).set('If-Match', `"${m.version}-010"`).expect(200);
    const stale = await a.http().post(`/api/matches/${m.id}/deal`).set(...bearer(dealer)).set('If-Match', first.headers.etag).expect(412);
    expect(stale.body.code).toBe('VERSION_MISMATCH');
  }, 60_000);

  it('leaves the log alone: events, version and a rebuild are the same with streams opening and closing', async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const pick = seededPick(5);
    for (let i = 0; i < 4; i++) await playOneAction(a.http, m, pick);
    const before = (await a.http().get(`/api/matches/${m.id}/events`).expect(200)).body;
    const [{ count: rowsBefore }] = await db(a).query(`SELECT count(*)::int AS count FROM events`);
    const streams = [await openStream(a, m.id, m.seats[0].token), await openStream(b, m.id, m.seats[2].token)];
    await shows(a, m.id, [true, false, true], 'both streams');
    for (const s of streams) await s.close();
    await shows(a, m.id, [false, false, false], 'no stream');
    const after = (await a.http().get(`/api/matches/${m.id}/events`).expect(200)).body;
    expect(after).toEqual(before);
    expect((await db(a).query(`SELECT count(*)::int AS count FROM events`))[0].count).toBe(rowsBefore);
    expect((await a.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(before.version);
    // A replay is a past moment: no presence in it.
    expect((await a.http().get(`/api/matches/${m.id}/replay?version=${before.version}`).expect(200)).body.view).not.toHaveProperty('connected');
    const differences = await rebuildDifferences(a.app);
    expect(differences.length).toBeGreaterThan(0);
    for (const d of differences) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 60_000);

  it("a player's stream ends when its token is revoked or its account deleted, on another instance; the seat is then not connected, and coming back is refused", async () => {
    const eva = (await a.http().post('/api/players').send({ name: 'Eva' }).expect(201)).body;
    const second = (await b.http().post('/api/players/me/tokens').set(...bearer(eva.token)).expect(201)).body;
    const created = (await a.http().post('/api/matches').set(...bearer(eva.token)).send({ players: [{ player: eva.id }, 'Fia', 'Gus'] }).expect(201)).body;
    const first = await openStream(a, created.id, eva.token);
    const other = await openStream(a, created.id, second.token);
    let firstEnded = false;
    void first.ended.then(() => (firstEnded = true));
    await b.http().delete(`/api/players/me/tokens/${eva.tokenId}`).set(...bearer(second.token)).expect(204);
    await waitFor('the revoked token\'s stream ends', async () => (firstEnded ? true : null), 30_000);
    expect(first.messages.at(-1)?.event).toBe('error');
    const again = await fetch(`${bases.get(a)}/api/matches/${created.id}/events/stream`, { headers: { authorization: `Bearer ${eva.token}` } });
    expect(again.status).toBe(401);
    await again.body?.cancel();
    // The other token's stream is untouched until the account goes.
    expect(await connectedIn(a, created.id)).toEqual([true, false, false]);
    let otherEnded = false;
    void other.ended.then(() => (otherEnded = true));
    await b.http().delete('/api/players/me').set(...bearer(second.token)).expect(204);
    await waitFor('the deleted account\'s stream ends', async () => (otherEnded ? true : null), 30_000);
    await shows(a, created.id, [false, false, false], 'after the account is deleted');
    await first.close();
    await other.close();
  }, 60_000);

  it("a stream on one instance shows on the other: in its GET at once, in its streams' presence", async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const watcherOnB = await openStream(b, m.id);
    const seat2OnA = await openStream(a, m.id, m.seats[2].token);
    expect(await connectedIn(b, m.id)).toEqual([false, false, true]);
    await told(watcherOnB, [false, false, true], 'a spectator on the other instance');
    await seat2OnA.close();
    // The server hears the close a moment after the client aborts.
    await shows(b, m.id, [false, false, false], 'the other instance, once the stream closed');
    await told(watcherOnB, [false, false, false], 'a spectator on the other instance');
    await watcherOnB.close();
  }, 60_000);

  it("a row of an instance gone counts for nothing once its time is past, and is swept; streams are told", async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const watcher = await openStream(b, m.id);
    // Long gone: past its time already.
    await db(a).query(`INSERT INTO seat_presence (match_id, seat, instance_id, streams, expires_at) VALUES ($1, 0, 'gone-long-ago', 1, now() - interval '1 minute')`, [m.id]);
    expect(await connectedIn(a, m.id)).toEqual([false, false, false]);
    // Crashed a moment ago: it counts until its heartbeats would have run out.
    await db(a).query(`INSERT INTO seat_presence (match_id, seat, instance_id, streams, expires_at) VALUES ($1, 1, 'crashed', 1, now() + interval '1500 milliseconds')`, [m.id]);
    expect(await connectedIn(a, m.id)).toEqual([false, true, false]);
    await told(watcher, [false, true, false], 'a heartbeat reading the new row');
    await told(watcher, [false, false, false], 'a heartbeat after the row ran out');
    expect(await connectedIn(b, m.id)).toEqual([false, false, false]);
    await waitFor('the sweep', async () => ((await db(a).query(`SELECT 1 FROM seat_presence WHERE match_id = $1`, [m.id])).length === 0 ? true : null), 30_000);
    await watcher.close();
  }, 60_000);

  it('an instance renews its rows on its heartbeat, and deletes them when it shuts down', async () => {
    const m = await createMatch(a.http, { options: { schedule: 'quick' } });
    const onB = await openStream(b, m.id, m.seats[0].token);
    const instance = b.app.get(PresenceService).instanceId;
    const expiry = async () => String((await db(a).query(`SELECT expires_at::text AS at FROM seat_presence WHERE instance_id = $1 AND match_id = $2`, [instance, m.id]))[0]?.at);
    const first = await expiry();
    await waitFor('a renewal', async () => ((await expiry()) > first ? true : null), 30_000);
    // Outlives its first time to live (three heartbeats): renewed, so still connected.
    await new Promise((r) => setTimeout(r, 4 * HEARTBEAT_MS));
    expect(await connectedIn(a, m.id)).toEqual([true, false, false]);
    await b.stopApp();
    expect(await db(a).query(`SELECT 1 FROM seat_presence WHERE instance_id = $1`, [instance])).toEqual([]);
    expect(await connectedIn(a, m.id)).toEqual([false, false, false]);
    await onB.close();
  }, 60_000);
});
