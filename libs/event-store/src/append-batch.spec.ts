import { createRecordingInline, useTestDatabase } from '../../../test/support/database';
import { ConcurrencyError, EventStore, START, type NewEvent } from './index';

jest.setTimeout(60_000);

let batched: EventStore;
let single: EventStore;
const t = useTestDatabase({ poolSize: 10 }, async () => {
  await batched?.close();
  await single?.close();
});

beforeAll(async () => {
  // maxInFlight 1: everything that arrives while a statement runs goes into the next batch.
  batched = new EventStore(t.ds, { batchAppends: { maxInFlight: 1 }, notifications: 'none' });
  single = new EventStore(t.ds, { notifications: 'none' });
  await createRecordingInline(t.ds, 'batch_inline', 'batch_inline_rows');
});

let n = 0;
const stream = (label: string) => `${label}-${++n}`;
const ev = (type: string, data: unknown = {}): NewEvent => ({ type, data });

describe('batched appends (batchAppends)', () => {
  it('appends that queue up share one statement and give the results of appending one by one', async () => {
    const streams = Array.from({ length: 30 }, () => stream('batch'));
    const results = await Promise.all(
      streams.map((s, i) =>
        batched.append(s, 0, [ev('A', { i }), ev('B', { i })], {
          inline: { fn: 'batch_inline', arg: { i } },
          idempotency: i % 2 === 0 ? { scope: 'seat:0', key: `k-${s}`, requestHash: 'h', response: { answer: i } } : undefined,
        }),
      ),
    );
    for (const r of results) expect(r).toMatchObject({ status: 'appended', version: 2 });
    // Fewer transactions than appends: they were batched.
    expect(new Set(results.map((r) => (r.status === 'appended' ? r.txId : ''))).size).toBeLessThan(streams.length);
    for (const [i, s] of streams.entries()) {
      expect((await batched.readStream(s)).map((e) => [e.version, e.type, e.data])).toEqual([
        [1, 'A', { i }],
        [2, 'B', { i }],
      ]);
      expect(await batched.verifyStream(s)).toEqual({ ok: true, brokenAt: null, version: 2 });
    }
    const rows = await t.ds.query(`SELECT stream_id, version, arg FROM batch_inline_rows WHERE stream_id = ANY($1)`, [streams]);
    expect(rows).toHaveLength(streams.length);
    // An idempotent retry gets the first answer.
    const retry = await batched.append(streams[0], 0, [ev('A', { i: 0 })], {
      idempotency: { scope: 'seat:0', key: `k-${streams[0]}`, requestHash: 'h', response: null },
    });
    expect(retry).toEqual({ status: 'replayed', response: { answer: 0 }, version: 2 });
  });

  it('a stale expected version in a batch refuses only that append', async () => {
    const streams = Array.from({ length: 10 }, () => stream('conflict'));
    await Promise.all(streams.map((s) => single.append(s, 0, [ev('A')])));
    const outcomes = await Promise.allSettled(streams.map((s, i) => batched.append(s, i === 3 ? 0 : 1, [ev('B')])));
    outcomes.forEach((o, i) => {
      if (i === 3) expect(o).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
      else expect(o).toMatchObject({ status: 'fulfilled', value: { status: 'appended', version: 2 } });
    });
    expect(await batched.streamVersion(streams[3])).toBe(1);
  });

  it('an append whose inline function raises fails alone; the others of its batch are appended', async () => {
    const streams = Array.from({ length: 10 }, () => stream('raises'));
    const outcomes = await Promise.allSettled(
      streams.map((s, i) => batched.append(s, 0, [ev('A')], { inline: { fn: 'batch_inline', arg: { fail: i === 5 ? 'yes' : 'no' } } })),
    );
    outcomes.forEach((o, i) => expect(o.status).toBe(i === 5 ? 'rejected' : 'fulfilled'));
    expect((outcomes[5] as PromiseRejectedResult).reason.message).toMatch(/projection refused/);
    expect(await batched.streamVersion(streams[5])).toBe(0);
    const rows = await t.ds.query(`SELECT count(*)::int AS n FROM batch_inline_rows WHERE stream_id = ANY($1)`, [streams]);
    expect(rows[0].n).toBe(9);
  });

  it('20 parallel appends at the same expected version to one stream: exactly one succeeds, also in one batch', async () => {
    const s = stream('race');
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => batched.append(s, 0, [ev('A', { i })])));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof ConcurrencyError)).toHaveLength(19);
    expect(await batched.streamVersion(s)).toBe(1);
  });

  it("each stream's events stay in version order in the commit-order feed, batched and single appends mixed", async () => {
    const streams = Array.from({ length: 4 }, () => stream('order'));
    const versions = new Map(streams.map((s) => [s, 0]));
    // Two writers per stream, one batching and one not, each appending at the version it last saw.
    const writer = async (store: EventStore, s: string): Promise<void> => {
      for (let k = 0; k < 15; k++) {
        const at = versions.get(s)!;
        try {
          const r = await store.append(s, at, [ev('E')]);
          versions.set(s, Math.max(versions.get(s)!, r.version));
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          versions.set(s, Math.max(versions.get(s)!, error.currentVersion));
        }
      }
    };
    await Promise.all(streams.flatMap((s) => [writer(batched, s), writer(single, s), writer(batched, s)]));
    const seen = new Map<string, number>();
    for (const e of await single.readAll({ after: START, limit: 100_000 })) {
      if (!versions.has(e.streamId)) continue;
      expect(e.version).toBe((seen.get(e.streamId) ?? 0) + 1);
      seen.set(e.streamId, e.version);
    }
    for (const s of streams) expect(seen.get(s)).toBe(await single.streamVersion(s));
  });
});
