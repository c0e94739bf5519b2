import { fold, type BismarckEvent } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { MatchFolds } from '../apps/api/src/game/matches/match-folds.service';
import { useTwoTestApps } from './support/app';
import { createMatch, playOneAction, seededPick } from './support/player';

// Two api processes on one database (docs/operations.md): each keeps its own folds of the matches it
// served. When the other one moved a match on, a command meets a stale fold, loses the version check,
// and the fold catches up by reading only the events it lacks.
describe('two api instances on one database', () => {
  const { a, b } = useTwoTestApps();

  it('take turns on one match: every command is accepted, and a stale fold reads only the events it lacks', async () => {
    const match = await createMatch(a.http, { seed: 'two-instances' });
    const pick = seededPick(7);
    const reads: { after: number | undefined }[] = [];
    const storeB = b.app.get(EventStore);
    const readStream = storeB.readStream.bind(storeB);
    const spy = jest.spyOn(storeB, 'readStream').mockImplementation((id, opts) => {
      if (id === match.id) reads.push({ after: opts?.after });
      return readStream(id, opts);
    });
    try {
      for (let i = 0; i < 40; i++) await playOneAction(i % 2 === 0 ? a.http : b.http, match, pick);
    } finally {
      spy.mockRestore();
    }
    // B folded the match once from the start, then only caught up.
    expect(reads.filter((r) => !r.after).length).toBe(1);
    expect(reads.filter((r) => (r.after ?? 0) > 0).length).toBeGreaterThan(5);

    const log = await a.app.get(EventStore).readStream(match.id);
    expect(log.map((e) => e.version)).toEqual(log.map((_, i) => i + 1));
    const folded = fold(log.map((e) => ({ type: e.type, data: e.data }) as BismarckEvent));
    for (const t of [a, b]) {
      const known = await t.app.get(MatchFolds).load(match.id, true);
      expect(known?.version).toBe(log.length);
      expect(known?.state).toEqual(folded);
    }
    const [viewA, viewB] = await Promise.all([a.http().get(`/api/matches/${match.id}`), b.http().get(`/api/matches/${match.id}`)]);
    expect(viewA.body).toEqual(viewB.body);
    expect(viewA.body.version).toBe(log.length);
  }, 60_000);

  it('a replay, an events page and the views on an instance whose fold is behind answer for the whole log', async () => {
    const match = await createMatch(a.http, { seed: 'stale-replay' });
    // B folds the match at its creation, then A moves it on.
    await b.http().get(`/api/matches/${match.id}/replay?version=1`).expect(200);
    const pick = seededPick(11);
    for (let i = 0; i < 12; i++) await playOneAction(a.http, match, pick);
    const version = (await a.http().get(`/api/matches/${match.id}`).expect(200)).body.version;
    expect(version).toBeGreaterThan(6);

    const replay = (await b.http().get(`/api/matches/${match.id}/replay?version=${version}`).expect(200)).body;
    expect(replay).toMatchObject({ replayVersion: version, latestVersion: version });
    const page = (await b.http().get(`/api/matches/${match.id}/events?after=0&limit=3`).expect(200)).body;
    expect(page.version).toBe(version);
    expect((await b.http().get(`/api/matches/${match.id}`).expect(200)).body.version).toBe(version);
    const seat = match.seats[0];
    const view = (await b.http().get(`/api/matches/${match.id}/view`).set('Authorization', `Bearer ${seat.token}`).expect(200)).body;
    expect(view.version).toBe(version);
    // Beyond the log is still refused, with the log's version in the message.
    const beyond = (await b.http().get(`/api/matches/${match.id}/replay?version=${version + 1}`).expect(400)).body;
    expect(beyond.detail).toContain(`at most ${version}`);
  }, 60_000);

  it('one account written from both at once: each write lands once or is refused 409, in a gapless stream both read alike', async () => {
    const created = (await a.http().post('/api/players').send({ name: 'Both' }).expect(201)).body;
    const auth = `Bearer ${created.token}`;
    // Six tokens and two renames at once, half through each instance: every one races the others on
    // the account's stream, and the command handler decides a lost race again on the log.
    const writes = await Promise.all([
      ...[a, b, a, b, a, b].map((t) => t.http().post('/api/players/me/tokens').set('Authorization', auth).send({})),
      a.http().patch('/api/players/me').set('Authorization', auth).send({ name: 'From A' }),
      b.http().patch('/api/players/me').set('Authorization', auth).send({ name: 'From B' }),
    ]);
    for (const w of writes) expect([200, 201, 409]).toContain(w.status);
    const issued = writes.slice(0, 6).filter((w) => w.status === 201).map((w) => w.body.tokenId as string);
    expect(issued.length).toBeGreaterThan(0);

    const log = await a.app.get(EventStore).readStream(created.id);
    expect(log.map((e) => e.version)).toEqual(log.map((_, i) => i + 1));
    // Each accepted token once, and nothing for a refused one; the first came with the account.
    const tokens = log.filter((e) => e.type === 'TokenIssued').map((e) => (e.data as { tokenId: string }).tokenId);
    expect(tokens.slice(1).sort()).toEqual([...issued].sort());
    for (const w of writes.slice(0, 6).filter((w) => w.status === 201)) {
      await b.http().get('/api/players/me').set('Authorization', `Bearer ${w.body.token}`).expect(200);
    }
    // The name is the last rename the log holds, on both instances.
    const renames = log.filter((e) => e.type === 'PlayerRenamed').map((e) => (e.data as { name: string }).name);
    const [fromA, fromB] = await Promise.all([a.http().get(`/api/players/${created.id}`), b.http().get(`/api/players/${created.id}`)]);
    expect(fromA.body.name).toBe(renames.at(-1) ?? 'Both');
    expect(fromB.body).toEqual(fromA.body);
  }, 60_000);
});
