import fc from 'fast-check';
import { auditMatch, eventHash, type ExportedMatch } from '@bismarck/audit';
import { DataSource } from 'typeorm';
import { ForkedFrom1799000009000 } from '@bismarck/projections';
import { forkableVersions, type BismarckEvent } from '@bismarck/rules';
import { rebuildDifferences, useTestApp, type TestApp } from './support/app';
import { bearer, createMatch, playToEnd, seededPick, type CreatedMatch } from './support/player';

// Forking a finished match at any position (POST /api/matches/{id}/fork?version=N, docs/clients.md
// "Forking a finished match"): the fork rests exactly where the original rested after version N,
// with fresh tokens, as a seeded match that passes its own audit, and plays on to the end through
// the ordinary command API, dealing the original's decks for the deals the original had.

const t = useTestApp();
type Json = Record<string, any>;
type Http = TestApp['http'];

const state = async (id: string): Promise<Json> => (await t.http().get(`/api/matches/${id}`).expect(200)).body;
const seatViewOf = async (id: string, token: string): Promise<Json> => (await t.http().get(`/api/matches/${id}/view`).set(...bearer(token)).expect(200)).body;
const exported = async (id: string): Promise<Json> => (await t.http().get(`/api/matches/${id}/export`).expect(200)).body;
const eventsOf = async (id: string, token?: string): Promise<Json[]> => {
  const req = t.http().get(`/api/matches/${id}/events?limit=1000`);
  return (await (token ? req.set(...bearer(token)) : req).expect(200)).body.events;
};
const fork = (id: string, version: number | string) => t.http().post(`/api/matches/${id}/fork?version=${version}`);
const asEvents = (doc: Json): BismarckEvent[] => doc.events.map((e: Json) => ({ type: e.type, data: e.data }) as BismarckEvent);
const matchCount = async (): Promise<number> => Number((await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events'))[0].n);

/**
 * Plays a match to its end through the API with random choices: the cutter cuts before some deals,
 * and under `leadBeforeDiscard: redeal` forehand leads before laying away now and then (a void).
 */
async function playWithCutsAndVoids(m: CreatedMatch, seed: number, chances: { cut: number; lead: number }): Promise<void> {
  const pick = seededPick(seed);
  const random = seededPick(seed + 1);
  const roll = (chance: number): boolean => random([...Array(100).keys()]) < chance * 100;
  for (let s = await state(m.id); s.status !== 'finished'; s = await state(m.id)) {
    const token = (seat: number) => m.seats[seat].token;
    if (s.phase === 'deal' && s.fairness.cut === null && roll(chances.cut)) {
      await t.http().post(`/api/matches/${m.id}/cut`).set(...bearer(token((s.dealer + 2) % 3))).send({ cut: `cut-${s.version}` }).expect(200);
      continue;
    }
    const view = await seatViewOf(m.id, token(s.turn));
    await act(t.http, m.id, token(s.turn), view, pick, s.options.leadBeforeDiscard === 'redeal' && roll(chances.lead));
  }
}

/** One legal action from a seat's view; `leadEarly`: forehand leads instead of laying away (voids the deal under redeal). */
async function act(http: Http, id: string, token: string, view: Json, pick: (xs: any[]) => any, leadEarly = false): Promise<void> {
  const base = `/api/matches/${id}`;
  const legal = view.legal;
  const post = (path: string, body?: object) => http().post(`${base}/${path}`).set(...bearer(token)).send(body);
  let res;
  if (legal.action === 'deal') res = await post('deal');
  else if (legal.action === 'chooseContract') {
    const contract = pick(legal.contracts);
    res = await post('contract', contract === 'trump' ? { contract, trump: pick(legal.trumps) } : { contract });
  } else if (legal.action === 'discard' && leadEarly) res = await post('play', { card: pick(view.hand) });
  else if (legal.action === 'discard') res = await post('discard', { cards: view.hand.slice(0, legal.count) });
  else res = await post('play', { card: pick(legal.cards) });
  if (res.status !== 200) throw new Error(`${legal.action} refused: ${res.status} ${JSON.stringify(res.body)}`);
}

/** What differs between a fork and its original by design: ids, versions, tokens, the seeded flag, the origin, commitments, the checkpoint, presence (the present's, no replay's). */
function comparable(view: Json): Json {
  const { id: _id, version: _version, checkpoint: _checkpoint, seeded: _seeded, forkedFrom: _forkedFrom, connected: _connected, ...rest } = view;
  return { ...rest, fairness: { ...rest.fairness, commitment: null } };
}

/** The original's state (spectator) or a seat's view right after `version`, as the replay shows it. */
async function replayed(id: string, version: number, token?: string): Promise<Json> {
  const req = t.http().get(`/api/matches/${id}/replay?version=${version}`);
  return (await (token ? req.set(...bearer(token)) : req).expect(200)).body.view;
}

let original: CreatedMatch;
let originalDoc: Json;
let positions: number[];

beforeAll(async () => {
  // Provably fair, with cuts and voided deals: everything a fork must leave out or copy.
  original = await createMatch(t.http, { options: { schedule: 'quick', leadBeforeDiscard: 'redeal' } });
  await playWithCutsAndVoids(original, 3, { cut: 0.6, lead: 0.3 });
  originalDoc = await exported(original.id);
  positions = forkableVersions(asEvents(originalDoc));
}, 120_000);

describe('POST /api/matches/{id}/fork?version=N', () => {
  it('answers 201 like POST /api/matches: a new id, fresh tokens for every person, the same options and first dealer, forkedFrom', async () => {
    const version = positions[Math.floor(positions.length / 2)];
    const res = await fork(original.id, version).expect(201);
    const created = res.body;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      version: expect.any(Number),
      options: originalDoc.events[0].data.options,
      firstDealer: original.firstDealer,
      seeded: true,
      status: 'playing',
      seats: [0, 1, 2].map((seat) => ({ seat, name: original.seats[seat].name, token: expect.stringMatching(/^bsk_/) })),
      bots: [],
      forkedFrom: { matchId: original.id, version },
    });
    expect(created.id).not.toBe(original.id);
    // Its versions leave out the original's commitments and reveals.
    const fairness = originalDoc.events.slice(0, version).filter((e: Json) => e.type === 'DeckCommitted' || e.type === 'SeedRevealed').length;
    expect(created.version).toBe(version - fairness);
    for (const seat of [0, 1, 2]) {
      expect(created.seats[seat].token).not.toBe(original.seats[seat].token);
      // Each token acts for its own match only.
      expect((await seatViewOf(created.id, created.seats[seat].token)).seat).toBe(seat);
      const theirs = await t.http().get(`/api/matches/${created.id}/view`).set(...bearer(original.seats[seat].token));
      expect({ status: theirs.status, code: theirs.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
      const ours = await t.http().get(`/api/matches/${original.id}/view`).set(...bearer(created.seats[seat].token));
      expect({ status: ours.status, code: ours.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    }
  });

  it('at any forkable version (random): the public state and every seat view are the original\'s at that version; it passes its own audit as a seeded match, with the forkedFrom marker shown', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: positions.length - 1 }), async (k) => {
        const version = positions[k];
        const created = (await fork(original.id, version).expect(201)).body;
        // Version 0 is the match as it started.
        const at = version === 0 ? positions[1] : version;
        expect(comparable(await state(created.id))).toEqual(comparable(await replayed(original.id, at)));
        for (const seat of [0, 1, 2]) {
          expect(comparable(await seatViewOf(created.id, created.seats[seat].token))).toEqual(comparable(await replayed(original.id, at, original.seats[seat].token)));
        }
        const pub = await state(created.id);
        expect(pub.seeded).toBe(true);
        expect(pub.forkedFrom).toEqual({ matchId: original.id, version });
        expect((await seatViewOf(created.id, created.seats[0].token)).forkedFrom).toEqual({ matchId: original.id, version });
        expect(pub.fairness.commitment).toBeNull();
        // Its own log: its MatchCreated (seeded, forkedFrom), the original's moves; no commitment, no reveal; one append.
        const events = await eventsOf(created.id);
        expect(events[0]).toMatchObject({ type: 'MatchCreated', data: { seeded: true, forkedFrom: { matchId: original.id, version } } });
        expect(events.filter((e) => e.type === 'DeckCommitted' || e.type === 'SeedRevealed' || e.type === 'SeatJoined')).toEqual([]);
        expect(new Set(events.map((e) => e.at)).size).toBe(1);
        const audit = (await t.http().get(`/api/matches/${created.id}/audit`).expect(200)).body;
        expect(audit).toMatchObject({ ok: true, seeded: true, provablyFairDeals: [], forkedFrom: { matchId: original.id, version }, databaseChain: { ok: true } });
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it("plays on to the end through the command API, dealing the original's deck for every deal it had", async () => {
    // In the first deal's trick play: the rest of that deal is played otherwise, then the later deals.
    const firstPlay = originalDoc.events.findIndex((e: Json) => e.type === 'CardPlayed');
    const version = positions.find((v) => v > firstPlay + 3)!;
    const created = (await fork(original.id, version).expect(201)).body;
    await playToEnd(t.http, created, seededPick(99));
    expect((await state(created.id)).status).toBe('finished');
    const doc = await exported(created.id);
    const audit = (await t.http().get(`/api/matches/${created.id}/audit`).expect(200)).body;
    expect(audit).toMatchObject({ ok: true, seeded: true, forkedFrom: { matchId: original.id, version } });
    // Every deal of the fork (attempt by attempt) has the original's deck of that deal and attempt, and says where it comes from.
    const attempts = (events: Json[]) => {
      const seen = new Map<number, number>();
      return events.filter((e) => e.type === 'DealStarted').map((e) => {
        seen.set(e.data.deal, (seen.get(e.data.deal) ?? 0) + 1);
        return { key: `${e.data.deal}/${seen.get(e.data.deal)}`, e };
      });
    };
    const theirs = new Map(attempts(originalDoc.events).map(({ key, e }) => [key, e]));
    let copied = 0;
    for (const { key, e } of attempts(doc.events)) {
      const from = theirs.get(key);
      if (!from) continue; // an attempt the original never had (a void of the fork's own): its own seed
      expect(e.data.deck).toEqual(from.data.deck);
      expect(e.data.shuffle).toEqual({ seeded: true, cut: e.data.shuffle.cut, copiedFrom: { matchId: original.id, version: from.version } });
      copied++;
    }
    expect(copied).toBeGreaterThanOrEqual(3);
    // Its export verifies offline; a fork that claims to be provably fair (its MatchCreated rewritten, the chain rehashed) does not.
    expect(auditMatch(doc as ExportedMatch, { finished: true })).toMatchObject({ ok: true, seeded: true, forkedFrom: { matchId: original.id, version } });
    const forged = JSON.parse(JSON.stringify(doc)) as ExportedMatch;
    (forged.events[0].data as { seeded: boolean }).seeded = false;
    forged.seeded = false;
    let previous: string | null = null;
    for (const e of forged.events) previous = e.hash = eventHash(previous, forged.matchId, e);
    expect(auditMatch(forged)).toMatchObject({ ok: false, firstFailure: 1 });
    expect(auditMatch(forged).checks.find((c) => c.name === 'rules')).toMatchObject({ ok: false, failedAt: 1 });
    // A finished fork can be forked in turn.
    const again = (await fork(created.id, doc.events.length).expect(201)).body;
    expect(again).toMatchObject({ status: 'finished', forkedFrom: { matchId: created.id, version: doc.events.length } });
  }, 120_000);

  it("a redeal takes the original's next attempt; an attempt the original never had is shuffled from the fork's own seed", async () => {
    // An original whose first deal was voided once: forehand led before laying away.
    let voided = false;
    const m = await createMatch(t.http, { options: { schedule: 'quick', leadBeforeDiscard: 'redeal' } });
    for (let s = await state(m.id); s.status !== 'finished'; s = await state(m.id)) {
      const view = await seatViewOf(m.id, m.seats[s.turn].token);
      const early: boolean = !voided && view.legal.action === 'discard';
      voided ||= early;
      await act(t.http, m.id, m.seats[s.turn].token, view, (xs) => xs[0], early);
    }
    const doc = await exported(m.id);
    const voidAt = doc.events.findIndex((e: Json) => e.type === 'DealVoided') + 1;
    const starts = doc.events.filter((e: Json) => e.type === 'DealStarted' && e.data.deal === 1);
    expect(starts).toHaveLength(2);
    // Forehand holds 20 cards again in the fork, right before the void.
    const created = (await fork(m.id, voidAt - 1).expect(201)).body;
    const forehand = (await state(created.id)).forehand;
    const voidAgain = async () => {
      const view = await seatViewOf(created.id, created.seats[forehand].token);
      expect(view.legal).toEqual({ action: 'discard', count: 4 });
      await act(t.http, created.id, created.seats[forehand].token, view, (xs) => xs[0], true);
      const s = await state(created.id);
      await act(t.http, created.id, created.seats[s.dealer].token, await seatViewOf(created.id, created.seats[s.dealer].token), (xs) => xs[0]);
      return (await eventsOf(created.id)).filter((e) => e.type === 'DealStarted').at(-1)!;
    };
    const second = await voidAgain();
    expect(second.data.shuffle).toEqual({ seeded: true, cut: null, copiedFrom: { matchId: m.id, version: starts[1].version } });
    expect(second.data.tableCards).toEqual(starts[1].data.tableCards);
    const third = await voidAgain();
    expect(third.data.shuffle).toEqual({ algorithm: 'bismarck-shuffle-v1', index: third.version, seeded: true, cut: null });
    await playToEnd(t.http, created);
    expect((await t.http().get(`/api/matches/${created.id}/audit`).expect(200)).body.ok).toBe(true);
  }, 120_000);

  it('keeps hidden information: in a fork mid-deal a spectator sees no hand, a seat only its own', async () => {
    const firstPlay = originalDoc.events.findIndex((e: Json) => e.type === 'CardPlayed');
    const version = positions.find((v) => v > firstPlay)!;
    const created = (await fork(original.id, version).expect(201)).body;
    const pub = await state(created.id);
    expect(pub.phase).toBe('play');
    expect(pub).not.toHaveProperty('hand');
    const dealt = (events: Json[]) => events.filter((e) => e.type === 'HandsDealt' && e.data.deal === pub.dealNumber).at(-1)!.data.hands;
    expect(dealt(await eventsOf(created.id))).toEqual([null, null, null]);
    for (const seat of [0, 1, 2]) {
      const hands = dealt(await eventsOf(created.id, created.seats[seat].token));
      expect(hands.map((h: unknown) => h !== null)).toEqual([0, 1, 2].map((s) => s === seat));
    }
    // The checkpoint (the newest hash anyone is shown) stays before the deal in play, as in any match.
    const started = (await eventsOf(created.id)).filter((e) => e.type === 'DealStarted').at(-1)!;
    expect(pub.checkpoint.version).toBeLessThan(started.version);
    const analysis = await t.http().get(`/api/matches/${created.id}/analysis?deal=${pub.dealNumber}`);
    expect({ status: analysis.status, code: analysis.body.code }).toEqual({ status: 409, code: 'DEAL_NOT_SCORED' });
  });

  it('refuses a match in play (409), a bad version (400), a version inside a move (422, naming the nearest), an unknown match (404); nothing is written', async () => {
    const before = await matchCount();
    const running = await createMatch(t.http, { options: { schedule: 'quick' } });
    const notFinished = await fork(running.id, 1);
    expect({ status: notFinished.status, code: notFinished.body.code }).toEqual({ status: 409, code: 'MATCH_NOT_FINISHED' });
    expect(notFinished.headers['content-type']).toMatch(/^application\/problem\+json/);

    for (const bad of ['-1', 'abc', '1.5', '', '2147483648']) {
      const res = await fork(original.id, bad);
      expect({ bad, status: res.status, code: res.body.code, parameter: res.body.errors?.[0]?.parameter }).toEqual({ bad, status: 400, code: 'VALIDATION_FAILED', parameter: 'version' });
    }
    const missing = await t.http().post(`/api/matches/${original.id}/fork`);
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    const head = originalDoc.events.length;
    const tooFar = await fork(original.id, head + 1);
    expect({ status: tooFar.status, code: tooFar.body.code, detail: tooFar.body.detail }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: `version must be at most ${head}, the match's current version.`,
    });

    const inside = originalDoc.events.findIndex((e: Json) => e.type === 'TrickTaken'); // its third card, before the trick is taken
    const refused = await fork(original.id, inside);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'VERSION_NOT_FORKABLE',
      detail: `Version ${inside} is inside a move (the events of one move are appended together): fork at ${inside - 1} or ${inside + 1}.`,
      nearestForkable: { before: inside - 1, after: inside + 1 },
    });
    const unknown = await fork('0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', 0);
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'MATCH_NOT_FOUND' });
    const badToken = await fork(original.id, 0).set('Authorization', 'Bearer bsk_nobody');
    expect({ status: badToken.status, code: badToken.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    // Only the match created above: no refusal wrote anything.
    expect(await matchCount()).toBe(before + 1);
  }, 60_000);

  it('bot seats stay bots: no token, and the service plays them on in the fork', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'random' }], options: { schedule: 'quick' } }).expect(201)).body;
    // The person plays whenever the view says so; the bots answer on their own.
    for (let until = Date.now() + 60_000; ; ) {
      const view = await seatViewOf(m.id, m.seats[0].token);
      if (view.status === 'finished') break;
      if (Date.now() > until) throw new Error('the bots did not answer');
      if (!view.legal || view.legal.action === 'cut') {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      await act(t.http, m.id, m.seats[0].token, view, (xs) => xs[0]).catch(() => undefined); // a bot may have moved first
    }
    const doc = await exported(m.id);
    const versions = forkableVersions(asEvents(doc));
    // A position where a bot is to play a card.
    const botTurn = doc.events.find((e: Json, i: number) => e.type === 'CardPlayed' && e.data.seat !== 0 && versions.includes(i))!;
    const created = (await fork(m.id, botTurn.version - 1).expect(201)).body;
    expect(created.seats).toEqual([{ seat: 0, name: 'Astrid', token: expect.stringMatching(/^bsk_/) }]);
    expect(created.bots).toEqual([
      { seat: 1, name: 'Greedy bot', bot: 'greedy' },
      { seat: 2, name: 'Random bot', bot: 'random' },
    ]);
    expect((await state(created.id)).seats.map((s: Json) => s.bot)).toEqual([null, 'greedy', 'random']);
    // The bots move on until the person has to act (or the match is over).
    for (let until = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 10))) {
      const view = await seatViewOf(created.id, created.seats[0].token);
      if (view.version > created.version && (view.status === 'finished' || (view.legal && view.legal.action !== 'cut'))) break;
      if (Date.now() > until) throw new Error('the bots of the fork did not move');
    }
  }, 120_000);

  it('is listed like any match, shows where it comes from in its notation, and its projections rebuild to the same rows', async () => {
    const created = (await fork(original.id, positions[2]).expect(201)).body;
    const list = (await t.http().get('/api/matches?limit=100').expect(200)).body;
    expect(list.items.find((s: Json) => s.id === created.id)).toMatchObject({ seeded: true, status: 'playing', forkedFrom: { matchId: original.id, version: positions[2] } });
    expect(list.items.find((s: Json) => s.id === original.id)).toMatchObject({ forkedFrom: null });
    expect((await state(original.id)).forkedFrom).toBeNull();

    // ?forkedFrom= lists exactly the forks of a match (every test here forked the same original), newest first, page by page.
    const forks: Json[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = (await t.http().get(`/api/matches?forkedFrom=${original.id}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200)).body;
      forks.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    const all = (await t.app.get(DataSource).query(`SELECT stream_id FROM events WHERE version = 1 AND data->'forkedFrom'->>'matchId' = $1`, [original.id])).map((r: Json) => r.stream_id);
    expect(forks.map((f) => f.id).sort()).toEqual(all.sort());
    expect(forks.length).toBeGreaterThan(3);
    expect(forks.every((f) => f.forkedFrom.matchId === original.id)).toBe(true);
    expect(forks.map((f) => f.createdAt)).toEqual(forks.map((f) => f.createdAt).sort().reverse());
    expect((await t.http().get(`/api/matches?forkedFrom=${created.id}`).expect(200)).body).toEqual({ items: [], nextCursor: null });
    const bad = await t.http().get('/api/matches?forkedFrom=not-a-match').expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(bad.body.detail ?? JSON.stringify(bad.body)).toContain('forkedFrom');
    const notation = (await t.http().get(`/api/matches/${created.id}/notation`).expect(200)).text;
    expect(notation).toContain(`\nForked from: "${original.id}" at ${positions[2]}\n`);
    expect(notation).toContain('\nFairness: seeded\n');
    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 60_000);

  it('migration ForkedFrom1799000009000 gives rows written before it their origin from the log, as the projection writes it', async () => {
    const db = t.app.get(DataSource);
    const read = async () => ({
      list: await db.query(`SELECT id, forked_from FROM match_list ORDER BY id`),
      views: await db.query(`SELECT match_id, doc->'forkedFrom' AS f FROM match_views ORDER BY match_id`),
    });
    const before = await read();
    expect(before.list.filter((r: Json) => r.forked_from !== null).length).toBeGreaterThan(0);
    expect(before.list.filter((r: Json) => r.forked_from === null).length).toBeGreaterThan(0);
    // Everything through the runner while it holds its connection: the embedded database has only one.
    const runner = db.createQueryRunner();
    try {
      await new ForkedFrom1799000009000().down(runner);
      expect((await runner.query(`SELECT count(*)::int AS n FROM match_views WHERE doc ? 'forkedFrom'`))[0].n).toBe(0);
      await new ForkedFrom1799000009000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await read()).toEqual(before);
    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 60_000);
});
