import { parseSse } from '@bismarck/client';
import { auditMatch } from '@bismarck/audit';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MatchWriter } from '../apps/api/src/game/matches/match-writer.service';
import { Rematch1799000013000 } from '@bismarck/projections';
import { rebuildDifferences, useTestApp } from './support/app';
import { bearer, createMatch, playToEnd, seededPick, type CreatedMatch } from './support/player';
import { collect, listenLocal } from './support/server';
import { waitFor } from './support/wait';

// Rematch (POST /api/matches/{id}/rematch, docs/clients.md "Rematch"): a seat of a finished match
// asks for the next one; every seat, at once or later, is answered the same match, where each person
// acts with the token they already hold (no answer shows a token, theirs or another's); the finished match's stream carries
// RematchOffered to every page still at the table, redacted per caller as before.

const t = useTestApp();
type Json = Record<string, any>;
let base: string;
beforeAll(async () => {
  base = await listenLocal(t.app);
});

const state = async (id: string): Promise<Json> => (await t.http().get(`/api/matches/${id}`).expect(200)).body;
const eventsOf = async (id: string, token?: string): Promise<Json[]> => {
  const req = t.http().get(`/api/matches/${id}/events?limit=1000`);
  return (await (token ? req.set(...bearer(token)) : req).expect(200)).body.events;
};
const rematch = (id: string, token?: string) => {
  const req = t.http().post(`/api/matches/${id}/rematch`);
  return token === undefined ? req : req.set(...bearer(token));
};
const matchCount = async (): Promise<number> => Number((await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events'))[0].n);
const rematchesOf = async (id: string): Promise<string[]> =>
  (await t.app.get(DataSource).query(`SELECT stream_id FROM events WHERE type = 'MatchCreated' AND data->>'rematchOf' = $1`, [id])).map((r: Json) => r.stream_id);

/** A quick seeded match of three persons, played to its end. */
async function finishedMatch(seed: string, body: Json = {}): Promise<CreatedMatch> {
  const match = await createMatch(t.http, { options: { schedule: 'quick' }, seed, ...body });
  await playToEnd(t.http, match, seededPick(seed.length));
  return match;
}

/** The one person of a match against bots plays the first legal choice whenever the view says so (no cut), until the end. */
async function playAsThePerson(id: string, token: string): Promise<void> {
  for (;;) {
    const view = await waitFor("the person's turn", async () => {
      const v = (await t.http().get(`/api/matches/${id}/view`).set(...bearer(token)).expect(200)).body;
      return v.status === 'finished' || (v.legal && v.legal.action !== 'cut') ? v : null;
    });
    if (view.status === 'finished') return;
    const { legal } = view;
    const [path, body] =
      legal.action === 'deal'
        ? ['deal', undefined]
        : legal.action === 'chooseContract'
          ? ['contract', legal.contracts[0] === 'trump' ? { contract: 'trump', trump: legal.trumps[0] } : { contract: legal.contracts[0] }]
          : legal.action === 'discard'
            ? ['discard', { cards: view.hand.slice(0, legal.count) }]
            : ['play', { card: legal.cards[0] }];
    const res = await t.http().post(`/api/matches/${id}/${path}`).set(...bearer(token)).set('If-Match', `"${view.version}"`).send(body);
    // 412: a bot moved first (a cut before the person's deal): look again.
    expect([200, 412]).toContain(res.status);
  }
}

describe('POST /api/matches/{id}/rematch', () => {
  it('seat 0 asks: 201, the next match with the same names, options and bots, the dealer one seat on, provably fair; only its own seat, and no token', async () => {
    const finished = await finishedMatch('rematch-first');
    const before = await state(finished.id);
    const res = await rematch(finished.id, finished.seats[0].token).expect(201);
    const next = res.body;
    expect(next).toMatchObject({
      firstDealer: (finished.firstDealer + 1) % 3,
      seeded: false,
      status: 'playing',
      seats: [{ seat: 0, name: 'Astrid', token: null }],
      bots: [],
      rematchOf: finished.id,
    });
    expect(next.id).not.toBe(finished.id);
    expect(next.options).toEqual(before.options);
    // No token in the answer: neither the caller's own nor another person's.
    for (const seat of finished.seats) expect(res.text).not.toContain(seat.token);

    const created = await state(next.id);
    expect(created).toMatchObject({ status: 'playing', seeded: false, dealer: next.firstDealer, rematch: null, forkedFrom: null });
    expect(created.seats).toEqual(before.seats);
    expect((await eventsOf(next.id))[0].data).toMatchObject({ rematchOf: finished.id, players: ['Astrid', 'Bjørn', 'Cecilia'], seeded: false });
    // The finished match names it, and its log ends with the offer.
    const after = await state(finished.id);
    expect(after).toMatchObject({ status: 'finished', rematch: next.id, version: before.version + 1 });
    expect((await eventsOf(finished.id)).at(-1)).toMatchObject({ version: before.version + 1, type: 'RematchOffered', data: { matchId: next.id, seat: 0 } });

    // Each person's token acts for the same seat there: the dealer deals with the token it already had.
    for (const { seat, token } of finished.seats) {
      expect((await t.http().get(`/api/matches/${next.id}/view`).set(...bearer(token)).expect(200)).body.seat).toBe(seat);
    }
    await t.http().post(`/api/matches/${next.id}/deal`).set(...bearer(finished.seats[next.firstDealer].token)).expect(200);
    // And still in the finished match.
    expect((await t.http().get(`/api/matches/${finished.id}/view`).set(...bearer(finished.seats[1].token)).expect(200)).body.seat).toBe(1);
  }, 60_000);

  it('three seats asking at once get one rematch, each answered its own seat only; a later ask appends nothing', async () => {
    const finished = await finishedMatch('rematch-race');
    const matches = await matchCount();
    const answers = await Promise.all(finished.seats.map((s) => rematch(finished.id, s.token).expect(201)));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    answers.forEach((a, seat) => expect(a.body.seats).toEqual([{ seat, name: finished.seats[seat].name, token: null }]));
    expect(await matchCount()).toBe(matches + 1);
    expect(await rematchesOf(finished.id)).toEqual([...ids]);
    const offers = (await eventsOf(finished.id)).filter((e) => e.type === 'RematchOffered');
    expect(offers).toHaveLength(1);
    expect(offers[0].data.matchId).toBe([...ids][0]);

    const version = (await state(finished.id)).version;
    const again = await rematch(finished.id, finished.seats[2].token).expect(201);
    expect(again.body).toMatchObject({ id: [...ids][0], seats: [{ seat: 2, token: null }] });
    expect((await state(finished.id)).version).toBe(version);
    expect(await matchCount()).toBe(matches + 1);
  }, 60_000);

  it("the finished match's stream stays open and delivers RematchOffered to every seat and spectator, each redacted as GET …/events, then ends; then 204", async () => {
    const finished = await finishedMatch('rematch-stream');
    const { version } = await state(finished.id);
    const viewers = [...finished.seats.map((s) => s.token), undefined];
    // From the start (the whole log, redacted per caller) and at the head (waiting after MatchFinished).
    const open = (token: string | undefined, after: number) =>
      fetch(`${base}/api/matches/${finished.id}/events/stream?after=${after}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const streams = await Promise.all(viewers.flatMap((token) => [open(token, 0), open(token, version)]));
    for (const s of streams) expect(s.status).toBe(200);
    const reading = streams.map((s) => collect(parseSse(s.body!)));
    await new Promise((r) => setTimeout(r, 200)); // every stream has reached MatchFinished and waits
    const next = (await rematch(finished.id, finished.seats[1].token).expect(201)).body;

    const received = await Promise.all(reading);
    for (const [i, token] of viewers.entries()) {
      const [whole, head] = [received[2 * i], received[2 * i + 1]];
      const asEvents = (messages: typeof whole) => messages.filter((m) => m.event === 'message').map((m) => JSON.parse(m.data));
      const log = await eventsOf(finished.id, token);
      // What GET …/events shows this caller now, but for what a scored deal revealed later (none here: every deal was scored before).
      expect(asEvents(whole).map(({ hash: _h, ...e }) => e)).toEqual(log.map(({ hash: _h, ...e }: Json) => e));
      expect(asEvents(head)).toEqual([expect.objectContaining({ version: version + 1, type: 'RematchOffered', data: { matchId: next.id, seat: 1 } })]);
      for (const messages of [whole, head]) expect(messages.at(-1)).toMatchObject({ event: 'end', data: JSON.stringify({ version: version + 1, status: 'finished' }) });
    }
    const again = await open(finished.seats[0].token, version + 1);
    expect(again.status).toBe(204);
  }, 60_000);

  it('after a crash between the offer and the new match (an id that names no match yet), the next call creates it with that id', async () => {
    const finished = await finishedMatch('rematch-crash');
    const id = randomUUID();
    // The first of the two appends alone, as a process that stopped right after it left it.
    await t.app.get(MatchWriter).handle(finished.id, { type: 'offerRematch', seat: 0, matchId: id }, { answer: () => null });
    expect((await state(finished.id)).rematch).toBe(id);
    await t.http().get(`/api/matches/${id}`).expect(404);
    const next = (await rematch(finished.id, finished.seats[2].token).expect(201)).body;
    expect(next).toMatchObject({ id, rematchOf: finished.id, seats: [{ seat: 2, token: null }] });
    expect((await state(id)).seats.map((s: Json) => s.name)).toEqual(['Astrid', 'Bjørn', 'Cecilia']);
    await t.http().get(`/api/matches/${id}/view`).set(...bearer(finished.seats[0].token)).expect(200);
  }, 60_000);

  it('a match whose rematch window is open streams at its head instead of answering 204', async () => {
    const finished = await finishedMatch('rematch-head');
    const { version } = await state(finished.id);
    const controller = new AbortController();
    const res = await fetch(`${base}/api/matches/${finished.id}/events/stream`, { headers: { 'last-event-id': String(version) }, signal: controller.signal });
    expect(res.status).toBe(200);
    controller.abort();
  }, 60_000); // it plays a whole match first

  it('refuses a spectator (401), a token of another match (403), an unknown match (404), a match in play (409 MATCH_NOT_FINISHED) and a lobby table (409 MATCH_NOT_STARTED); nothing appended', async () => {
    const finished = await finishedMatch('rematch-refused');
    const playing = await createMatch(t.http, { options: { schedule: 'quick' } });
    const lobby = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null] }).expect(201)).body;
    const matches = await matchCount();
    const versions = async () => Promise.all([finished.id, playing.id, lobby.id].map(async (id) => (await state(id)).version));
    const before = await versions();
    const refused = async (req: ReturnType<typeof rematch>, status: number, code: string) => {
      const res = await req.expect(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(code);
    };
    await refused(rematch(finished.id), 401, 'UNAUTHORIZED');
    await refused(rematch(finished.id, playing.seats[0].token), 403, 'FORBIDDEN');
    await refused(rematch('6cc03a75-fc0a-4a44-9953-ff256c06fc3f', finished.seats[0].token), 404, 'MATCH_NOT_FOUND');
    await refused(rematch(playing.id, playing.seats[1].token), 409, 'MATCH_NOT_FINISHED');
    await refused(rematch(lobby.id, lobby.seats[0].token), 409, 'MATCH_NOT_STARTED');
    await refused(rematch(finished.id, finished.seats[0].token).set('content-type', 'application/json').send({ players: ['x', 'y', 'z'] }), 400, 'VALIDATION_FAILED');
    expect(await versions()).toEqual(before);
    expect(await matchCount()).toBe(matches);
    expect((await state(finished.id)).rematch).toBeNull();
  }, 60_000);

  it('after a seeded match, a lobby table and bot seats: the same names and bots (lobby-joined included), the bots play the rematch to its end; rebuild equals the live tables; audits pass', async () => {
    const lobby = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    await t.http().post(`/api/matches/${lobby.id}/seats/1/bot`).send({ bot: 'greedy' }).expect(201);
    await t.http().post(`/api/matches/${lobby.id}/seats/2/bot`).send({ bot: 'random', name: 'Otto' }).expect(201);
    const token = lobby.seats[0].token;
    await playAsThePerson(lobby.id, token);
    const finished = await state(lobby.id);

    const next = (await rematch(lobby.id, token).expect(201)).body;
    expect(next.bots).toEqual([
      { seat: 1, name: finished.seats[1].name, bot: 'greedy' },
      { seat: 2, name: 'Otto', bot: 'random' },
    ]);
    expect(next.seats).toEqual([{ seat: 0, name: 'Astrid', token: null }]);
    expect((await state(next.id)).seats).toEqual(finished.seats);
    await playAsThePerson(next.id, token);
    const played = await state(next.id);
    expect(played.status).toBe('finished');
    // The bots played their cards: 16 a deal each, 3 deals.
    const cards = (await eventsOf(next.id)).filter((e) => e.type === 'CardPlayed');
    for (const seat of [1, 2]) expect(cards.filter((e) => e.data.seat === seat)).toHaveLength(48);

    // A rematch of a seeded match is provably fair.
    const seeded = await finishedMatch('rematch-seeded');
    const fair = (await rematch(seeded.id, seeded.seats[2].token).expect(201)).body;
    expect((await state(fair.id)).seeded).toBe(false);
    expect((await eventsOf(fair.id)).map((e) => e.type)).toEqual(['MatchCreated', 'DeckCommitted']);

    for (const id of [lobby.id, next.id, seeded.id]) {
      const audit = (await t.http().get(`/api/matches/${id}/audit`).expect(200)).body;
      expect({ id, ok: audit.ok, failed: audit.checks.filter((c: Json) => !c.ok) }).toEqual({ id, ok: true, failed: [] });
    }
    // The export of a finished match with its RematchOffered verifies offline, and its notation says so.
    const exported = (await t.http().get(`/api/matches/${seeded.id}/export`).expect(200)).body;
    expect(exported.events.at(-1).type).toBe('RematchOffered');
    expect(auditMatch(exported, { finished: true }).ok).toBe(true);
    const notation = (await t.http().get(`/api/matches/${seeded.id}/notation`).expect(200)).text;
    expect(notation).toContain(`Rematch by 2: "${fair.id}"`);
    expect((await t.http().get(`/api/matches/${fair.id}/notation`).expect(200)).text).toContain(`Rematch of: "${seeded.id}"`);

    const differences = await rebuildDifferences(t.app);
    expect(differences.length).toBeGreaterThan(0);
    for (const d of differences) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 180_000);

  it('migration Rematch1799000013000 gives views written before it their rematch from the log, and cannot be reverted while a token acts in two matches', async () => {
    const db = t.app.get(DataSource);
    const views = async (q: { query: DataSource['query'] }) =>
      (await q.query(`SELECT match_id, doc->'rematch' AS r FROM match_views ORDER BY match_id`)).map((r: Json) => [r.match_id, r.r]);
    const live = await views(db);
    expect(live.filter(([, r]: [string, unknown]) => r !== null).length).toBeGreaterThan(0);
    // Everything through the runner while it holds its connection (the embedded database has only one), in transactions rolled back.
    const runner = db.createQueryRunner();
    try {
      await runner.startTransaction();
      await expect(new Rematch1799000013000().down(runner)).rejects.toThrow();
      await runner.rollbackTransaction();

      await runner.startTransaction();
      await runner.query(`DELETE FROM seat_credentials c WHERE EXISTS (SELECT 1 FROM events e WHERE e.stream_id = c.match_id AND e.version = 1 AND e.data ? 'rematchOf')`);
      await new Rematch1799000013000().down(runner);
      expect((await runner.query(`SELECT count(*)::int AS n FROM match_views WHERE doc ? 'rematch'`))[0].n).toBe(0);
      await new Rematch1799000013000().up(runner);
      expect(await views(runner)).toEqual(live);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
    expect(await views(db)).toEqual(live);
  }, 60_000);
});
