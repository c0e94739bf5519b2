import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  ConcurrencyError,
  EventStore,
  IdempotencyKeyReuseError,
  START,
  type AppendResult,
  type Checkpoint,
  type NewEvent,
  type StoredEvent,
} from '@bismarck/event-store';
import { PROJECTION_TABLES, ProjectionRebuilder } from '@bismarck/projections';
import { ALL_MIGRATIONS } from '../apps/api/src/platform/database/database.module';
import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase, onRealServer, openDataSource, type TestDatabase } from './support/database';
import { EVENT_STORE_TABLES, MATCH_TABLES, partitionByMatch, partitionOf } from './support/partitioned';
import { createMatch, playOneAction, seededPick } from './support/player';

/**
 * The event store and the read side on tables partitioned by match id (`PARTITION BY HASH`, four
 * partitions: test/support/partitioned.ts says what had to differ from the migrations and why), side
 * by side with the ordinary tables: the same appends give the same streams, hashes, answers and
 * commit-order feed, and a rebuild gives the same rows. docs/sharding.md draws the consequences.
 * Runs on the embedded PGlite by default and on the real server with DATABASE_URL.
 */
jest.setTimeout(120_000);

const PARTITIONS = 4;

interface Side {
  db: TestDatabase;
  ds: DataSource;
  store: EventStore;
}

async function openSide(migrations: typeof ALL_MIGRATIONS | undefined, partitioned: readonly { table: string; key: string }[]): Promise<Side> {
  const db = await createTestDatabase(migrations ? { migrations } : {});
  const ds = await openDataSource(db, { poolSize: 12 });
  if (partitioned.length > 0) await partitionByMatch(ds, partitioned, PARTITIONS);
  return { db, ds, store: new EventStore(ds) };
}

async function closeSide(side: Side | undefined): Promise<void> {
  await side?.store.close();
  await side?.ds.destroy();
  await side?.db.drop();
}

/** What must be equal on both sides: everything but position and txId (numbered by each database). */
const content = (e: StoredEvent) => ({ streamId: e.streamId, version: e.version, type: e.type, data: e.data, metadata: e.metadata, recordedAt: e.recordedAt, hash: e.hash });
const key = (e: StoredEvent) => `${e.streamId}@${e.version}`;
const at = (...parts: number[]) => new Date(Date.UTC(2026, 0, 1) + parts.reduce((ms, p) => ms * 100 + p, 0) * 1000).toISOString();

/** Everything in the feed after a checkpoint, paging through readAll in small pages (pages cross partitions). */
async function feedAfter(store: EventStore, after: Checkpoint, streams: readonly string[]): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after, limit: 7 });
    if (page.length === 0) return all.filter((e) => streams.includes(e.streamId));
    all.push(...page);
    after = { txId: page[page.length - 1].txId, position: page[page.length - 1].position };
  }
}

/** Each stream's events in version order, 1…n, and each event once. */
function expectEachStreamInOrder(feed: readonly StoredEvent[], lengths: Record<string, number>): void {
  expect(new Set(feed.map(key)).size).toBe(feed.length);
  for (const [s, n] of Object.entries(lengths)) {
    expect(feed.filter((e) => e.streamId === s).map((e) => e.version)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How an append ended, as both sides must agree on it: the answer, or the refusal with what it carries. */
interface Outcome {
  status?: string;
  version?: number;
  events?: number;
  response?: unknown;
  error?: string;
  currentVersion?: number;
}

async function outcome(append: Promise<AppendResult>): Promise<Outcome> {
  try {
    const r = await append;
    return r.status === 'appended' ? { status: r.status, version: r.version, events: r.positions.length } : r;
  } catch (err) {
    if (err instanceof ConcurrencyError) return { error: err.code, currentVersion: err.currentVersion };
    if (err instanceof IdempotencyKeyReuseError) return { error: err.code };
    throw err;
  }
}

const count = (outcomes: readonly Outcome[], what: Outcome) =>
  outcomes.filter((o) => Object.entries(what).every(([k, v]) => o[k as keyof Outcome] === v)).length;

describe('the event store on tables partitioned by match id, beside the ordinary tables', () => {
  let plain: Side;
  let partitioned: Side;
  const both = (): Side[] => [plain, partitioned];

  beforeAll(async () => {
    plain = await openSide(undefined, []);
    partitioned = await openSide(undefined, EVENT_STORE_TABLES);
  }, 120_000);
  afterAll(async () => {
    await closeSide(plain);
    await closeSide(partitioned);
  });

  it('the partitioned side is hash-partitioned by stream id into four partitions (and the ordinary side is not)', async () => {
    const layout = (ds: DataSource) =>
      ds.query(
        `SELECT c.relname AS table, pg_get_partkeydef(c.oid) AS key,
                (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS partitions
           FROM pg_class c WHERE c.relname IN ('events', 'idempotency_keys', 'subscription_checkpoints') ORDER BY c.relname`,
      );
    expect(await layout(partitioned.ds)).toEqual([
      { table: 'events', key: 'HASH (stream_id)', partitions: PARTITIONS },
      { table: 'idempotency_keys', key: 'HASH (stream_id)', partitions: PARTITIONS },
      { table: 'subscription_checkpoints', key: null, partitions: 0 },
    ]);
    expect((await layout(plain.ds)).map((r: { key: unknown }) => r.key)).toEqual([null, null, null]);
  });

  it('the same appends give the same answers, streams, hashes, idempotency and commit-order feed', async () => {
    const streams = Array.from({ length: 8 }, (_, i) => `script-${i}`);
    const run = async ({ store }: Side) => {
      const from = await store.feedHead();
      const answers: Outcome[] = [];
      const version = new Map(streams.map((s) => [s, 0]));
      for (let round = 0; round < 3; round++) {
        for (const [i, s] of streams.entries()) {
          const events: NewEvent[] = Array.from({ length: 1 + ((i + round) % 3) }, (_, j) => ({ type: `Round${round}`, data: { i, j }, metadata: { at: at(round, i, j) } }));
          const idempotency = round === 1 ? { scope: 'seat', key: `k-${i}`, requestHash: `h-${i}`, response: { i } } : undefined;
          const answer = await outcome(store.append(s, version.get(s)!, events, { idempotency }));
          version.set(s, answer.version!);
          answers.push(answer);
        }
      }
      for (const [i, s] of streams.entries()) {
        const retry = { scope: 'seat', key: `k-${i}`, requestHash: `h-${i}`, response: 'ignored' };
        answers.push(await outcome(store.append(s, 1, [{ type: 'Retry', data: {} }], { idempotency: retry })));
        answers.push(await outcome(store.append(s, 1, [{ type: 'Reused', data: {} }], { idempotency: { ...retry, requestHash: 'other' } })));
        answers.push(await outcome(store.append(s, 1, [{ type: 'Stale', data: {} }])));
        answers.push(await outcome(store.append(s, 0, [{ type: 'Exists', data: {} }])));
      }
      const read = async (s: string) => ({
        all: (await store.readStream(s)).map(content),
        page: (await store.readStream(s, { after: 2, limit: 3 })).map((e) => e.version),
        version: await store.streamVersion(s),
        verified: await store.verifyStream(s),
        key: await store.lookupIdempotency(s, 'seat', `k-${streams.indexOf(s)}`).then((k) => k && { ...k, createdAt: undefined }),
      });
      const feed = await feedAfter(store, from, streams);
      return { answers, streams: await Promise.all(streams.map(read)), feed: feed.map(key) };
    };
    const onPlain = await run(plain);
    const onPartitioned = await run(partitioned);
    expect(onPartitioned).toEqual(onPlain);
    // And they are not empty answers: every append was either appended or refused as expected.
    expect(count(onPartitioned.answers, { status: 'appended' })).toBe(24);
    expect(count(onPartitioned.answers, { status: 'replayed' })).toBe(8);
    expect(count(onPartitioned.answers, { error: 'VERSION_MISMATCH' })).toBe(16);
    expect(count(onPartitioned.answers, { error: 'IDEMPOTENCY_KEY_REUSED' })).toBe(8);
    expect(onPartitioned.streams.every((s) => s.verified.ok && s.all.length === s.version)).toBe(true);
    // The streams really are spread: the eight ids land in more than one partition (the hash is fixed).
    const used = await partitioned.ds.query(`SELECT DISTINCT tableoid::regclass::text AS p FROM events WHERE stream_id LIKE 'script-%'`);
    expect(used.length).toBeGreaterThan(1);
    for (const s of streams) {
      const [row] = await partitioned.ds.query(`SELECT DISTINCT tableoid::regclass::text AS p FROM events WHERE stream_id = $1`, [s]);
      expect(row.p).toBe(`events_p${await partitionOf(partitioned.ds, 'events', s, PARTITIONS)}`);
    }
  });

  it('20 parallel appends at the same expected version: exactly one wins, on both', async () => {
    const run = async ({ store }: Side) => {
      const s = 'race-1';
      await store.append(s, 0, [{ type: 'Created', data: {} }]);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => outcome(store.append(s, 1, [{ type: 'Move', data: { i } }]))));
      const stored = await store.readStream(s);
      return { winners: count(answers, { status: 'appended' }), losers: answers.filter((a) => a.error === 'VERSION_MISMATCH'), versions: stored.map((e) => e.version), types: stored.map((e) => e.type) };
    };
    const onPlain = await run(plain);
    const onPartitioned = await run(partitioned);
    expect(onPartitioned).toEqual(onPlain);
    expect(onPartitioned.winners).toBe(1);
    expect(onPartitioned.losers).toEqual(Array.from({ length: 19 }, () => ({ error: 'VERSION_MISMATCH', currentVersion: 2 })));
    expect(onPartitioned.versions).toEqual([1, 2]);
  });

  it('parallel writers to streams in every partition: each stream the same on both, each in version order in the feed and in a subscription that restarts from its checkpoint', async () => {
    const streams = Array.from({ length: 10 }, (_, i) => `writer-${i}`);
    const appends = 8;
    const run = async ({ store }: Side) => {
      const from = await store.feedHead();
      const delivered: StoredEvent[] = [];
      let batches = 0;
      const options = {
        name: 'partitioned-writers',
        from,
        batchSize: 7,
        pollIntervalMs: 50,
        handler: async (events: StoredEvent[]) => {
          delivered.push(...events.filter((e) => streams.includes(e.streamId)));
          batches++;
        },
      };
      let sub = store.subscribe(options);
      const writers = Promise.all(
        streams.map(async (s, i) => {
          for (let n = 0; n < appends; n++) {
            const events = Array.from({ length: 1 + ((i + n) % 2) }, (_, j) => ({ type: 'Tick', data: { n, j }, metadata: { at: at(i, n, j) } }));
            await store.append(s, await store.streamVersion(s), events);
          }
        }),
      );
      await waitFor(() => batches >= 3, 'three batches');
      await sub.stop();
      // Restart from the checkpoint it stored (`from` only applies when none is stored).
      sub = store.subscribe({ ...options, from: undefined });
      await writers;
      const lengths = Object.fromEntries(streams.map((s, i) => [s, Array.from({ length: appends }, (_, n) => 1 + ((i + n) % 2)).reduce((a, b) => a + b)]));
      const total = Object.values(lengths).reduce((a, b) => a + b);
      try {
        await waitFor(() => delivered.length >= total, 'every event');
        await sub.caughtUp();
      } finally {
        await sub.stop();
      }
      const feed = await feedAfter(store, from, streams);
      expectEachStreamInOrder(feed, lengths);
      expect(delivered.map(key)).toEqual(feed.map(key));
      return Promise.all(streams.map(async (s) => (await store.readStream(s)).map(content)));
    };
    const onPlain = await run(plain);
    const onPartitioned = await run(partitioned);
    expect(onPartitioned).toEqual(onPlain);
    const used = await partitioned.ds.query(`SELECT DISTINCT tableoid::regclass::text AS p FROM events WHERE stream_id LIKE 'writer-%' ORDER BY 1`);
    expect(used.map((r: { p: string }) => r.p)).toEqual(Array.from({ length: PARTITIONS }, (_, r) => `events_p${r}`));
  });

  it('a transaction still writing in one partition holds back a later commit in another, and neither is skipped', async () => {
    const { ds, store, db } = partitioned;
    const slow = 'slow-1';
    let fast = 'fast-0';
    const slowPartition = await partitionOf(ds, 'events', slow, PARTITIONS);
    for (let i = 1; (await partitionOf(ds, 'events', fast, PARTITIONS)) === slowPartition; i++) fast = `fast-${i}`;
    const from = await store.feedHead();
    const t1 = new Client({ connectionString: db.url });
    await t1.connect();
    try {
      await t1.query('BEGIN');
      await t1.query(`SELECT es_append($1, 0, '[{"type":"Slow","data":{}}]')`, [slow]);
      // T2 begins after T1 and commits first. On the embedded PGlite (one session) it cannot run
      // beside T1 at all: it waits for T1's commit, so there the feed's order is simply the commit order.
      const fastAppend = store.append(fast, 0, [{ type: 'Fast', data: {} }]);
      if (onRealServer) {
        await fastAppend;
        expect(await store.streamVersion(fast)).toBe(1);
        expect(await feedAfter(store, from, [slow, fast])).toEqual([]);
      }
      await t1.query('COMMIT');
      await fastAppend;
    } finally {
      await t1.end();
    }
    expect((await feedAfter(store, from, [slow, fast])).map((e) => e.type)).toEqual(['Slow', 'Fast']);
  });

  it('the log stays append-only on every partition, and (stream, version) stays unique around es_append', async () => {
    const { ds, store } = partitioned;
    await store.append('guarded-1', 0, [{ type: 'A', data: {} }]);
    const p = `events_p${await partitionOf(ds, 'events', 'guarded-1', PARTITIONS)}`;
    for (const sql of [`UPDATE ${p} SET type = 'B'`, `DELETE FROM ${p}`, `TRUNCATE ${p}`, `UPDATE events SET type = 'B'`, `DELETE FROM events`, 'TRUNCATE events']) {
      await expect(ds.query(sql)).rejects.toMatchObject({ driverError: { code: 'ES001' } });
    }
    await expect(
      ds.query(`INSERT INTO events (stream_id, version, type, data, hash) VALUES ('guarded-1', 1, 'Forged', '{}', '\\x00')`),
    ).rejects.toMatchObject({ driverError: { code: '23505', constraint: `${p}_stream_id_version_key` } });
    expect((await store.readStream('guarded-1')).map((e) => e.type)).toEqual(['A']);
  });
});

describe('projections on tables partitioned by match id: the rebuild gives the live rows, and the same rows as on the ordinary tables', () => {
  let app: TestApp;
  let replica: Side;

  beforeAll(async () => {
    const db = await createTestDatabase({ migrations: ALL_MIGRATIONS });
    const ds = await openDataSource(db, { poolSize: 1 });
    try {
      await partitionByMatch(ds, MATCH_TABLES, PARTITIONS);
    } finally {
      await ds.destroy();
    }
    app = await startTestApp(db);
    replica = await openSide(ALL_MIGRATIONS, []);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await closeSide(replica);
  });

  const rebuildOn = async (store: EventStore, ds: DataSource) => {
    const rebuilder = new ProjectionRebuilder(store, ds, (work) => ds.transaction((m) => work(m)));
    return { rebuilder, stats: await rebuilder.rebuild() };
  };
  const rows = (ds: DataSource, table: string) =>
    ds.query(`SELECT * FROM ${table} ORDER BY ${PROJECTION_TABLES.find((t) => t.table === table.replace(/^rebuild_/, ''))!.key.join(', ')}`);

  it('matches played through the api on partitioned tables rebuild to their live rows, and their log replayed into ordinary tables rebuilds to the same rows', async () => {
    const matches = await Promise.all(Array.from({ length: 6 }, (_, i) => createMatch(app.http, { options: { schedule: i % 2 ? 'quick' : 'modern' } })));
    await Promise.all(
      matches.map(async (m, i) => {
        const pick = seededPick(i + 1);
        for (let k = 0; k < 70; k++) if (!(await playOneAction(app.http, m, pick))) break;
      }),
    );
    const liveDs = app.app.get(DataSource);
    const liveStore = app.app.get(EventStore);

    const live = await rebuildOn(liveStore, liveDs);
    expect(live.stats.matches).toBe(6);
    expect(live.stats.events).toBeGreaterThan(6 * 60);
    for (const d of await live.rebuilder.compare()) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });

    // The partitioned log, replayed in its commit order into the ordinary tables through es_append:
    // the same events (each append's events together, metadata.at kept) give the same hashes.
    const log = await feedAfter(liveStore, START, matches.map((m) => m.id));
    expect(log).toHaveLength(live.stats.events);
    for (let i = 0; i < log.length; ) {
      let j = i + 1;
      while (j < log.length && log[j].txId === log[i].txId && log[j].streamId === log[i].streamId) j++;
      await replica.store.append(log[i].streamId, log[i].version - 1, log.slice(i, j).map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })));
      i = j;
    }
    for (const m of matches) expect((await replica.store.readStream(m.id)).map(content)).toEqual((await liveStore.readStream(m.id)).map(content));

    const ordinary = await rebuildOn(replica.store, replica.ds);
    expect(ordinary.stats).toMatchObject({ events: live.stats.events, matches: 6 });
    for (const { table } of PROJECTION_TABLES) {
      const rebuiltHere = await rows(replica.ds, `rebuild_${table}`);
      // Only matches were played here: no account.
      if (table !== 'players') expect(rebuiltHere.length).toBeGreaterThan(0);
      expect(rebuiltHere).toEqual(await rows(liveDs, `rebuild_${table}`));
      expect(rebuiltHere).toEqual(await rows(liveDs, table));
    }
    await ordinary.rebuilder.dropRebuildTables();

    // Swapping the rebuilt rows in works on the partitioned tables too: it repairs a damaged row.
    const damaged = matches[0].id;
    const before = (await app.http().get(`/api/matches/${damaged}`).expect(200)).body;
    await liveDs.query(`UPDATE match_views SET doc = jsonb_set(doc, '{totals}', '[99,99,99]') WHERE match_id = $1`, [damaged]);
    await live.rebuilder.swap();
    expect((await app.http().get(`/api/matches/${damaged}`).expect(200)).body).toEqual(before);
    // Co-located: a match's events, idempotency keys and rows are in the same-numbered partition of
    // each table (one hash of the match id), so every statement of its append touches one partition.
    for (const m of matches) {
      const places = await liveDs.query(
        MATCH_TABLES.map(({ table, key }) => `SELECT DISTINCT '${table}' AS t, tableoid::regclass::text AS p FROM ${table} WHERE ${key} = $1`).join(' UNION ALL '),
        [m.id],
      );
      const remainder = await partitionOf(liveDs, 'events', m.id, PARTITIONS);
      expect(places.length).toBeGreaterThanOrEqual(6);
      for (const { t, p } of places) expect(p).toBe(`${t}_p${remainder}`);
    }
  });
});
