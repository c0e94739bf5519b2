import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { onRealServer, openDataSource, useTestDatabase } from '../../../test/support/database';
import {
  EventStore,
  loadCheckpoint,
  saveCheckpoint,
  START,
  type Checkpoint,
  type StoredEvent,
  type Subscription,
} from './index';

jest.setTimeout(60_000);

let store: EventStore;
const t = useTestDatabase({ poolSize: 12 }, () => store?.close());

beforeAll(async () => {
  store = new EventStore(t.ds);
  await t.ds.query(`CREATE TABLE seen (position bigint PRIMARY KEY, stream_id text NOT NULL, version int NOT NULL)`);
});

/** Polls until `check` holds; the deadlines are generous, since a busy machine delivers late but a broken subscription never does. */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Everything in the feed after a checkpoint, paging through readAll. */
async function readEverything(after: Checkpoint = START): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after, limit: 50 });
    if (page.length === 0) return all;
    all.push(...page);
    after = { txId: page[page.length - 1].txId, position: page[page.length - 1].position };
  }
}

const key = (e: StoredEvent) => `${e.streamId}@${e.version}`;
let n = 0;
const stream = (label: string) => `${label}-${++n}`;

describe('readAll', () => {
  it('reads every stream in commit order and pages through a (tx_id, position) checkpoint', async () => {
    const a = stream('feed');
    const b = stream('feed');
    await store.append(a, 0, [{ type: 'A1', data: {} }, { type: 'A2', data: {} }]);
    await store.append(b, 0, [{ type: 'B1', data: {} }]);
    await store.append(a, 2, [{ type: 'A3', data: {} }]);
    const mine = (await readEverything()).filter((e) => e.streamId === a || e.streamId === b);
    expect(mine.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
    // The events of one append share a transaction id; positions order them inside it.
    expect(mine[0].txId).toBe(mine[1].txId);
    const after = { txId: mine[1].txId, position: mine[1].position };
    const rest = (await store.readAll({ after, limit: 1000 })).filter((e) => e.streamId === a || e.streamId === b);
    expect(rest.map((e) => e.type)).toEqual(['B1', 'A3']);
  });

  it('orders by position as a number, not as text (regression: 100 came before 99)', async () => {
    const s = stream('digits');
    await store.append(s, 0, Array.from({ length: 120 }, (_, i) => ({ type: 'E', data: { i } })));
    const mine = (await readEverything()).filter((e) => e.streamId === s);
    expect(mine.map((e) => e.version)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  });

  it('feedHead is the last event of the feed: reading after it gives only what commits later', async () => {
    const s = stream('head');
    await store.append(s, 0, [{ type: 'H1', data: {} }, { type: 'H2', data: {} }]);
    const head = await store.feedHead();
    const everything = await readEverything();
    const last = everything[everything.length - 1];
    expect(head).toEqual({ txId: last.txId, position: last.position });
    await store.append(s, 2, [{ type: 'H3', data: {} }]);
    expect((await store.readAll({ after: head })).map((e) => e.type)).toEqual(['H3']);
  });
});

if (onRealServer) {
  describe('commit order on a real server (defined only when DATABASE_URL is set: PGlite is one session)', () => {
    it('does not skip events written by a slow transaction that began before a faster one (real server only)', async () => {
      const before = await readEverything();
      const from: Checkpoint = before.length
        ? { txId: before[before.length - 1].txId, position: before[before.length - 1].position }
        : START;
      const slow = stream('slow');
      const fast = stream('fast');
      const delivered: StoredEvent[] = [];
      const sub = store.subscribe({
        from,
        batchSize: 10,
        pollIntervalMs: 50,
        handler: async (events) => void delivered.push(...events),
      });
      const t1 = new Client({ connectionString: t.db.url });
      const t2 = new Client({ connectionString: t.db.url });
      await t1.connect();
      await t2.connect();
      try {
        await t1.query('BEGIN');
        await t1.query(`SELECT es_append($1, 0, '[{"type":"Slow","data":{}}]')`, [slow]);
        // T2 starts after T1 has its position, and commits first.
        await t2.query(`SELECT es_append($1, 0, '[{"type":"Fast","data":{}}]')`, [fast]);
        expect((await t2.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1`, [fast])).rows[0].n).toBe(1);
        await new Promise((r) => setTimeout(r, 300)); // let the subscription poll a few times
        const early = await store.readAll({ after: from, limit: 100 });
        expect(early.filter((e) => e.streamId === fast || e.streamId === slow)).toEqual([]);
        expect(delivered.filter((e) => e.streamId === fast || e.streamId === slow)).toEqual([]);
        await t1.query('COMMIT');
        await waitFor(() => delivered.some((e) => e.streamId === fast), 30_000, 'both events');
        expect(delivered.filter((e) => e.streamId === fast || e.streamId === slow).map((e) => e.type)).toEqual([
          'Slow',
          'Fast',
        ]);
      } finally {
        await sub.stop();
        await t1.end();
        await t2.end();
      }
    });

    it('NOTIFY wakes a subscriber on a real server (appends from another process, no polling)', async () => {
      const otherDs = await openDataSource(t.db, { poolSize: 2 });
      const other = new EventStore(otherDs, { notifications: 'none' });
      const s = stream('notify');
      const delivered: StoredEvent[] = [];
      const sub = store.subscribe({
        from: START,
        pollIntervalMs: 600_000,
        handler: async (events) => void delivered.push(...events.filter((e) => e.streamId === s)),
      });
      try {
        await sub.caughtUp();
        expect(store.wakeups.listening).toBe(true);
        await other.append(s, 0, [{ type: 'Poked', data: {} }]);
        await waitFor(() => delivered.length === 1, 30_000, 'the notified event');
        // The LISTEN connection dies; the subscriber reconnects and is woken again.
        await t.ds.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'bismarck-event-store-listen' AND datname = current_database()`,
        );
        await waitFor(() => !store.wakeups.listening, 30_000, 'the connection loss');
        await waitFor(() => store.wakeups.listening, 30_000, 'the reconnect');
        await other.append(s, 1, [{ type: 'PokedAgain', data: {} }]);
        await waitFor(() => delivered.length === 2, 30_000, 'the event after reconnecting');
      } finally {
        await sub.stop();
        await other.close();
        await otherDs.destroy();
      }
    });
  });
}

describe('subscriptions', () => {
  it('an append through the same EventStore wakes its subscribers at once (also on the embedded database)', async () => {
    const s = stream('wake');
    const delivered: StoredEvent[] = [];
    const sub = store.subscribe({
      from: START,
      pollIntervalMs: 600_000,
      handler: async (events) => void delivered.push(...events.filter((e) => e.streamId === s)),
    });
    try {
      await sub.caughtUp();
      const t0 = Date.now();
      await store.append(s, 0, [{ type: 'Woken', data: {} }]);
      await waitFor(() => delivered.length === 1, 30_000, 'the in-process wake-up');
      expect(Date.now() - t0).toBeLessThan(30_000); // woken, not read on its 10-minute poll
    } finally {
      await sub.stop();
    }
  });

  it('with wakeups: false an append does not wake it: it reads on its poll, or when woken by hand', async () => {
    const s = stream('nowake');
    const delivered: StoredEvent[] = [];
    const sub = store.subscribe({
      from: START,
      wakeups: false,
      pollIntervalMs: 600_000,
      handler: async (events) => void delivered.push(...events.filter((e) => e.streamId === s)),
    });
    try {
      await sub.caughtUp();
      await store.append(s, 0, [{ type: 'Quiet', data: {} }]);
      await new Promise((r) => setTimeout(r, 300));
      expect(delivered).toHaveLength(0);
      await sub.caughtUp();
      expect(delivered.map((e) => e.type)).toEqual(['Quiet']);
    } finally {
      await sub.stop();
    }
  });

  it('a subscription delivers every event exactly once in commit order across restarts from its checkpoint', async () => {
    const name = 'exactly-once';
    const streams = Array.from({ length: 5 }, () => stream('once'));
    const delivered: StoredEvent[] = [];
    let batches = 0;
    const handler = async (events: StoredEvent[], checkpoint: Checkpoint) => {
      const mine = events.filter((e) => streams.includes(e.streamId));
      // Projection rows and checkpoint in one transaction: effectively once.
      await t.ds.transaction(async (m) => {
        for (const e of mine) {
          await m.query(`INSERT INTO seen (position, stream_id, version) VALUES ($1, $2, $3)`, [
            e.position,
            e.streamId,
            e.version,
          ]);
        }
        await saveCheckpoint(m, name, checkpoint);
      });
      delivered.push(...mine);
      batches++;
    };
    const options = { name, checkpoints: 'manual' as const, batchSize: 7, pollIntervalMs: 50, handler };
    const writers = streams.map(async (s) => {
      let version = 0;
      for (let i = 0; i < 15; i++) {
        const events = Array.from({ length: 1 + (i % 2) }, (_, j) => ({ type: 'Tick', data: { i, j } }));
        const r = await store.append(s, version, events);
        version = r.version;
      }
    });
    let sub: Subscription = store.subscribe(options);
    await waitFor(() => batches >= 3, 30_000, 'three batches');
    await sub.stop();
    const checkpoint = await loadCheckpoint(t.ds, name);
    expect(checkpoint).not.toEqual(START);
    sub = store.subscribe(options); // restarts from the stored checkpoint
    await Promise.all(writers);
    const total = 5 * (8 * 1 + 7 * 2);
    try {
      await waitFor(async () => delivered.length >= total, 30_000, 'every event');
      await sub.caughtUp();
    } finally {
      await sub.stop();
    }
    expect(delivered).toHaveLength(total);
    expect(new Set(delivered.map(key)).size).toBe(total);
    const rows = (await t.ds.query(`SELECT count(*)::int AS n FROM seen`)) as { n: number }[];
    expect(rows[0].n).toBe(total);
    // Each stream in version order, and the whole in the feed's (tx_id, position) order.
    for (const s of streams) {
      expect(delivered.filter((e) => e.streamId === s).map((e) => e.version)).toEqual(
        Array.from({ length: 22 }, (_, i) => i + 1),
      );
    }
    const feed = (await readEverything()).filter((e) => streams.includes(e.streamId));
    expect(delivered.map(key)).toEqual(feed.map(key));
  });

  it('a handler that throws gets the same batch again, and the checkpoint does not move', async () => {
    const s = stream('retry');
    await store.append(s, 0, [{ type: 'A', data: {} }]);
    const seen: string[] = [];
    let failures = 0;
    const sub = store.subscribe({
      name: 'retrying',
      from: START,
      pollIntervalMs: 20,
      onError: () => undefined,
      handler: async (events) => {
        const mine = events.filter((e) => e.streamId === s);
        if (mine.length && failures < 2) {
          failures++;
          throw new Error('not yet');
        }
        seen.push(...mine.map(key));
      },
    });
    try {
      await waitFor(() => seen.length === 1, 30_000, 'the retried batch');
      expect(failures).toBe(2);
      expect(seen).toEqual([`${s}@1`]);
      await waitFor(async () => (await loadCheckpoint(t.ds, 'retrying')).position !== '0', 30_000, 'auto checkpoint');
    } finally {
      await sub.stop();
    }
  });

  it('saveCheckpoint and loadCheckpoint round-trip, and a missing checkpoint is START', async () => {
    expect(await loadCheckpoint(t.ds, 'never-saved')).toEqual(START);
    const cp = { txId: '123456789012', position: '42' };
    await saveCheckpoint(t.ds, 'saved', cp);
    expect(await loadCheckpoint(t.ds, 'saved')).toEqual(cp);
    await saveCheckpoint(t.ds, 'saved', { txId: '123456789013', position: '43' });
    expect(await loadCheckpoint(t.ds, 'saved')).toEqual({ txId: '123456789013', position: '43' });
  });
});
