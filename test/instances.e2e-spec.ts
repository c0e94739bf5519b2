import { fold, type BismarckEvent } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { MatchStreams } from '../apps/api/src/matches/match-streams.service';
import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { createMatch, playOneAction, seededPick } from './support/player';

// Two api processes on one database (docs/operations.md): each keeps its own folds of the matches it
// served. When the other one moved a match on, a command meets a stale fold, loses the version check,
// and the fold catches up by reading only the events it lacks.
describe('two api instances on one database', () => {
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
  });

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
      const known = await t.app.get(MatchStreams).load(match.id, true);
      expect(known?.version).toBe(log.length);
      expect(known?.state).toEqual(folded);
    }
    const [viewA, viewB] = await Promise.all([a.http().get(`/api/matches/${match.id}`), b.http().get(`/api/matches/${match.id}`)]);
    expect(viewA.body).toEqual(viewB.body);
    expect(viewA.body.version).toBe(log.length);
  }, 60_000);
});
