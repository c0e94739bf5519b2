import { DataSource } from 'typeorm';
import { EventStore, loadCheckpoint, rowsOf, START, type Checkpoint } from '@bismarck/event-store';
import { foldOnto, toDomainEvent, UNBORN, type FoldedMatch } from '@bismarck/match';
import { ProjectionRebuilder, ratedMatchOf, RATINGS_CHECKPOINT } from '@bismarck/projections';
import { applyInOrder, DEFAULT_RATING, ratingView, type RatedMatch } from '@bismarck/ratings';
import { RatingsProjector } from '../apps/api/src/accounts/ratings/ratings.projector';
import { rebuildDifferences, startTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { actionRequest, bearer, seededPick, type CreatedMatch } from './support/player';

interface Player {
  id: string;
  name: string;
  token: string;
}
interface Entry {
  id: string;
  name: string;
  rating: { mu: number; sigma: number; ordinal: number };
  matches: number;
}

// Ratings (issue 31): a projection across match streams, applied in commit order by one writer at a
// time however many api instances run, and reproduced exactly by a from-scratch recomputation.
describe('ratings', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
    a = await startTestApp(db);
    b = await startTestApp(db);
  }, 60_000);
  afterAll(async () => {
    await b?.stopApp();
    await a?.close();
  }, 60_000);

  const register = async (name: string): Promise<Player> => ({ ...(await a.http().post('/api/players').send({ name }).expect(201)).body, name });
  const caughtUp = async (...apps: TestApp[]) => {
    for (const t of apps) await t.app.get(RatingsProjector).caughtUp();
  };
  const list = async (t: TestApp = a): Promise<Entry[]> => {
    const out: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Entry[]; nextCursor: string | null } = (await t.http().get(`/api/ratings?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200)).body;
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  };

  /** Plays a match to its end: each person's seat with its token, bot seats (null) left to the service. */
  const playThrough = async (id: string, tokens: (string | null)[], seed: number) => {
    const match: CreatedMatch = { id, version: 0, firstDealer: 0, seats: tokens.map((token, seat) => ({ seat, name: '', token: token ?? '' })) };
    const pick = seededPick(seed);
    for (let step = 0; ; step++) {
      const http = step % 2 === 0 ? a.http : b.http;
      const state = (await http().get(`/api/matches/${id}`).expect(200)).body;
      if (state.status === 'finished') return;
      const seat = state.turn as number;
      if (seat === null || tokens[seat] === null) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const view = (await http().get(`/api/matches/${id}/view`).set(...bearer(tokens[seat]!)).expect(200)).body;
      if (!view.legal) continue;
      const res = await actionRequest(http, match, seat, view.legal, view.hand, pick);
      if (res.status !== 200 && res.status !== 409) throw new Error(`${view.legal.action} refused: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };

  /** Three registered players at one quick match, seats bound with their tokens. */
  const playersMatch = async (ps: Player[], seed: number) => {
    const created = (await a.http().post('/api/matches').set(...bearer(ps[0].token)).send({ players: [{ player: ps[0].id }, null, null], options: { schedule: 'quick' } }).expect(201)).body;
    await b.http().post(`/api/matches/${created.id}/seats/1/join`).set(...bearer(ps[1].token)).send({}).expect(201);
    await a.http().post(`/api/matches/${created.id}/seats/2/join`).set(...bearer(ps[2].token)).send({}).expect(201);
    await playThrough(created.id, ps.map((p) => p.token), seed);
    return created.id as string;
  };

  /** The whole table recomputed from scratch: every match folded from the log, rated in the commit order of its end. */
  const recomputed = async () => {
    const store = a.app.get(EventStore);
    const folds = new Map<string, FoldedMatch>();
    const rated: RatedMatch[] = [];
    let head: Checkpoint = START;
    for (;;) {
      const batch = await store.readAll({ after: head, limit: 500 });
      if (batch.length === 0) break;
      for (const e of batch) {
        if (e.streamId.startsWith('pl-')) continue;
        const fold = foldOnto(folds.get(e.streamId) ?? UNBORN, [toDomainEvent(e)]);
        folds.set(e.streamId, fold);
        const match = e.type === 'MatchFinished' ? ratedMatchOf(fold.state) : null;
        if (match) rated.push(match);
      }
      head = { txId: batch[batch.length - 1].txId, position: batch[batch.length - 1].position };
    }
    return { table: applyInOrder(rated), rated: rated.length, head };
  };
  const liveRows = async () => rowsOf(await a.app.get(DataSource).query(`SELECT id, mu, sigma, ordinal, matches FROM ratings ORDER BY id`));
  const asRows = (table: Awaited<ReturnType<typeof recomputed>>['table']) =>
    [...table].map(([id, e]) => ({ id, ...ratingView(e.rating), matches: e.matches })).sort((x, y) => (x.id < y.id ? -1 : 1));

  let ann: Player, bo: Player, cyd: Player;

  it('rates a match of three registered players and one of a player against two bots, in commit order, once each with two instances running', async () => {
    [ann, bo, cyd] = [await register('Ann'), await register('Bo'), await register('Cyd')];
    expect((await a.http().get(`/api/players/${ann.id}`).expect(200)).body.rating).toEqual(ratingView(DEFAULT_RATING));
    await playersMatch([ann, bo, cyd], 4);
    const vsBots = (await a.http().post('/api/matches').set(...bearer(ann.token)).send({ players: [{ player: ann.id }, { bot: 'random' }, { bot: 'random' }], options: { schedule: 'quick' } }).expect(201)).body;
    await playThrough(vsBots.id, [ann.token, null, null], 5);
    await caughtUp(a, b);

    const { table, rated } = await recomputed();
    expect(rated).toBe(2);
    expect(await liveRows()).toEqual(asRows(table));
    const entries = await list(b);
    expect(entries.map((e) => [e.id, e.matches]).sort()).toEqual([[ann.id, 2], ['bot:random', 1], [bo.id, 1], [cyd.id, 1]].sort());
    // Best ordinal first, ties by id; names are the players' and the bot kind's.
    expect(entries.map((e) => e.id)).toEqual(asRows(table).sort((x, y) => y.ordinal - x.ordinal || (x.id < y.id ? -1 : 1)).map((r) => r.id));
    expect(entries.find((e) => e.id === 'bot:random')!.name).toBe('Random bot');
    for (const p of [ann, bo, cyd]) {
      const entry = entries.find((e) => e.id === p.id)!;
      expect(entry.name).toBe(p.name);
      expect(entry.rating).toEqual(ratingView(table.get(p.id)!.rating));
      expect((await b.http().get(`/api/players/${p.id}`).expect(200)).body.rating).toEqual(entry.rating);
      expect((await a.http().get('/api/players/me').set(...bearer(p.token)).expect(200)).body.rating).toEqual(entry.rating);
    }
    expect(table.get(ann.id)!.rating).not.toEqual(DEFAULT_RATING);
  }, 180_000);

  it('a seeded match and a match with an anonymous seat change no rating', async () => {
    const before = await liveRows();
    const seeded = (await a.http().post('/api/matches').set(...bearer(bo.token)).send({ players: [{ player: bo.id }, { bot: 'random' }, { bot: 'greedy' }], options: { schedule: 'quick' }, seed: 'ratings-seeded' }).expect(201)).body;
    await playThrough(seeded.id, [bo.token, null, null], 6);
    const anonymous = (await a.http().post('/api/matches').set(...bearer(cyd.token)).send({ players: [{ player: cyd.id }, { bot: 'random' }, 'Stranger'], options: { schedule: 'quick' } }).expect(201)).body;
    await playThrough(anonymous.id, [cyd.token, null, anonymous.seats.find((s: { seat: number }) => s.seat === 2).token], 7);
    await caughtUp(a, b);
    expect((await a.http().get(`/api/matches/${seeded.id}`).expect(200)).body.status).toBe('finished');
    expect(await liveRows()).toEqual(before);
    expect((await list()).some((e) => e.id === 'bot:greedy')).toBe(false);
  }, 180_000);

  it('refuses a cursor it did not hand out', async () => {
    for (const cursor of ['nonsense', Buffer.from('["x","y"]').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      const res = await a.http().get(`/api/ratings?cursor=${cursor}`).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    await a.http().get('/api/ratings?limit=0').expect(400);
  });

  it("the rebuild's compare finds no difference in ratings, and its swap keeps them and the checkpoint in step", async () => {
    const differences = await rebuildDifferences(a.app);
    expect(differences).toContainEqual({ table: 'ratings', onlyLive: 0, onlyRebuilt: 0 });
    expect(differences.every((d) => d.onlyLive === 0 && d.onlyRebuilt === 0)).toBe(true);

    const before = await liveRows();
    const data = a.app.get(DataSource);
    const rebuilder = new ProjectionRebuilder(a.app.get(EventStore), data, (work) => data.transaction((m) => work(m)));
    const stats = await rebuilder.rebuild();
    await rebuilder.swap();
    expect(await loadCheckpoint(data, RATINGS_CHECKPOINT)).toEqual(stats.checkpoint);
    await caughtUp(a, b);
    expect(await liveRows()).toEqual(before);
  }, 60_000);

  it('a restart goes on from the checkpoint: nothing is applied twice, a match finished while it was down is applied once', async () => {
    await b.stopApp();
    await a.stopApp();
    const before = await (async () => rowsOf(await (await startAndKeep()).app.get(DataSource).query(`SELECT id, matches FROM ratings ORDER BY id`)))();
    // The first restart (startAndKeep) caught up; nothing changed.
    expect(before.map((r) => [r.id, r.matches]).sort()).toEqual([[ann.id, 2], ['bot:random', 1], [bo.id, 1], [cyd.id, 1]].sort());
    a = restarted!;
    b = await startTestApp(db);
    await playersMatch([ann, bo, cyd], 8);
    await caughtUp(a, b);
    const { table, head } = await recomputed();
    expect(await liveRows()).toEqual(asRows(table));
    expect((await liveRows()).map((r) => [r.id, r.matches]).sort()).toEqual([[ann.id, 3], ['bot:random', 1], [bo.id, 2], [cyd.id, 2]].sort());
    expect(await loadCheckpoint(a.app.get(DataSource), RATINGS_CHECKPOINT)).toEqual(head);
  }, 180_000);

  let restarted: TestApp | undefined;
  const startAndKeep = async () => {
    restarted = await startTestApp(db);
    await caughtUp(restarted);
    return restarted;
  };
});
