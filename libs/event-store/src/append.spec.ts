import { createRecordingInline, useTestDatabase } from '../../../test/support/database';
import { ConcurrencyError, EventStore, IdempotencyKeyReuseError, type NewEvent } from './index';

jest.setTimeout(60_000);

let store: EventStore;
const t = useTestDatabase({ poolSize: 25 }, () => store?.close());

beforeAll(async () => {
  store = new EventStore(t.ds);
  await createRecordingInline(t.ds, 'test_inline', 'inline_rows');
});

let n = 0;
const stream = (label: string) => `${label}-${++n}`;
const ev = (type: string, data: unknown = {}): NewEvent => ({ type, data });

describe('append', () => {
  it('appends gapless versions from 1', async () => {
    const s = stream('gapless');
    expect(await store.streamVersion(s)).toBe(0);
    const first = await store.append(s, 0, [ev('A', { i: 1 }), ev('B', { i: 2 })]);
    expect(first).toMatchObject({ status: 'appended', version: 2 });
    const second = await store.append(s, 2, [ev('C', { i: 3 })]);
    expect(second).toMatchObject({ status: 'appended', version: 3 });
    const events = await store.readStream(s);
    expect(events.map((e) => [e.version, e.type, e.data])).toEqual([
      [1, 'A', { i: 1 }],
      [2, 'B', { i: 2 }],
      [3, 'C', { i: 3 }],
    ]);
    expect(await store.streamVersion(s)).toBe(3);
  });

  it('gives the events of one append increasing global positions in version order', async () => {
    const s = stream('positions');
    const r = await store.append(s, 0, [ev('A'), ev('B'), ev('C')]);
    if (r.status !== 'appended') throw new Error('not appended');
    const positions = r.positions.map(BigInt);
    expect(positions[0] < positions[1] && positions[1] < positions[2]).toBe(true);
    expect((await store.readStream(s)).map((e) => e.position)).toEqual(r.positions);
  });

  it('reads a stream after a version, with a limit', async () => {
    const s = stream('paging');
    await store.append(s, 0, [ev('A'), ev('B'), ev('C'), ev('D')]);
    expect((await store.readStream(s, { after: 1, limit: 2 })).map((e) => e.version)).toEqual([2, 3]);
    expect(await store.readStream('no-such-stream')).toEqual([]);
  });

  it('takes recordedAt from metadata.at and keeps the metadata', async () => {
    const s = stream('clock');
    const at = '2024-03-01T12:34:56.789Z';
    await store.append(s, 0, [{ type: 'A', data: {}, metadata: { at, seat: 1 } }, ev('B')]);
    const [a, b] = await store.readStream(s);
    expect(a.recordedAt).toBe(at);
    expect(a.metadata).toEqual({ at, seat: 1 });
    expect(Date.parse(b.recordedAt)).toBeGreaterThan(Date.parse(at));
  });

  it('refuses a stale expected version and writes nothing', async () => {
    const s = stream('stale');
    await store.append(s, 0, [ev('A'), ev('B')]);
    const err = await store.append(s, 1, [ev('X')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ streamId: s, expectedVersion: 1, currentVersion: 2 });
    expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('refuses expected version 0 when the stream exists', async () => {
    const s = stream('exists');
    await store.append(s, 0, [ev('A')]);
    await expect(store.append(s, 0, [ev('A')])).rejects.toMatchObject({ currentVersion: 1 });
  });

  it("appends at the end with expected version 'any'", async () => {
    const s = stream('any');
    await store.append(s, 'any', [ev('A')]);
    expect(await store.append(s, 'any', [ev('B')])).toMatchObject({ status: 'appended', version: 2 });
  });

  it('refuses an empty append and a negative expected version', async () => {
    await expect(store.append(stream('empty'), 0, [])).rejects.toThrow(RangeError);
    await expect(store.append(stream('neg'), -1, [ev('A')])).rejects.toThrow(RangeError);
  });

  it('20 parallel appends at the same expected version: exactly one succeeds', async () => {
    const s = stream('race');
    await store.append(s, 0, [ev('Created')]);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => store.append(s, 1, [ev('Raced', { i }), ev('Raced2', { i })])),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.reason).toMatchObject({ name: 'ConcurrencyError', currentVersion: 3 });
    const events = await store.readStream(s);
    expect(events.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(events[1].data).toEqual(events[2].data);
  });

  it('parallel appends to different streams all succeed', async () => {
    const streams = Array.from({ length: 10 }, () => stream('many'));
    await Promise.all(streams.map((s) => store.append(s, 0, [ev('A')])));
    for (const s of streams) expect(await store.streamVersion(s)).toBe(1);
  });
});

describe('idempotency', () => {
  const idem = (key: string, requestHash = 'h1', response: unknown = { answer: 1 }) => ({
    idempotency: { scope: 'seat-0', key, requestHash, response },
  });

  it('same idempotency key returns the first response and appends nothing', async () => {
    const s = stream('idem');
    const first = await store.append(s, 0, [ev('A')], idem('k1', 'h1', { version: 1, events: ['A'] }));
    expect(first).toMatchObject({ status: 'appended', version: 1 });
    // The retry carries the same key and request, even with a now stale expected version.
    const retry = await store.append(s, 0, [ev('A')], idem('k1', 'h1', { other: true }));
    expect(retry).toEqual({ status: 'replayed', response: { version: 1, events: ['A'] }, version: 1 });
    expect(await store.streamVersion(s)).toBe(1);
  });

  it('parallel retries with one idempotency key append once', async () => {
    const s = stream('idem-par');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.append(s, 0, [ev('A')], idem('k', 'h', { first: true }))),
    );
    expect(results.filter((r) => r.status === 'appended')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'replayed')).toHaveLength(9);
    expect(await store.streamVersion(s)).toBe(1);
  });

  it('the same idempotency key with a different request is refused and appends nothing', async () => {
    const s = stream('idem-reuse');
    await store.append(s, 0, [ev('A')], idem('k2', 'h1'));
    const err = await store.append(s, 1, [ev('B')], idem('k2', 'h2')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyKeyReuseError);
    expect(await store.streamVersion(s)).toBe(1);
  });

  it('keys are scoped: another scope or stream may use the same key', async () => {
    const s = stream('idem-scope');
    await store.append(s, 0, [ev('A')], idem('k3'));
    const other = await store.append(s, 1, [ev('B')], {
      idempotency: { scope: 'seat-1', key: 'k3', requestHash: 'h1', response: {} },
    });
    expect(other).toMatchObject({ status: 'appended', version: 2 });
    expect(await store.append(stream('idem-scope'), 0, [ev('A')], idem('k3'))).toMatchObject({ status: 'appended' });
  });

  it('a refused append stores no idempotency key', async () => {
    const s = stream('idem-refused');
    await store.append(s, 0, [ev('A')]);
    await expect(store.append(s, 0, [ev('B')], idem('k4'))).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await store.lookupIdempotency(s, 'seat-0', 'k4')).toBeNull();
  });

  it('lookupIdempotency returns the stored answer for a late retry', async () => {
    const s = stream('idem-lookup');
    await store.append(s, 0, [ev('A')], idem('k5', 'h5', { version: 1 }));
    expect(await store.lookupIdempotency(s, 'seat-0', 'k5')).toMatchObject({
      requestHash: 'h5',
      response: { version: 1 },
      version: 1,
    });
  });
});

describe('inline projection function', () => {
  const rows = async (s: string) =>
    (await t.ds.query(`SELECT version, arg FROM inline_rows WHERE stream_id = $1 ORDER BY version`, [s])) as {
      version: number;
      arg: unknown;
    }[];

  it('the inline function runs in the append transaction with the new version', async () => {
    const s = stream('inline');
    await store.append(s, 0, [ev('A'), ev('B')], { inline: { fn: 'test_inline', arg: { x: 1 } } });
    expect(await rows(s)).toEqual([{ version: 2, arg: { x: 1 } }]);
  });

  it('the inline function runs in the append transaction (its rows roll back with a conflict)', async () => {
    const s = stream('inline-conflict');
    await store.append(s, 0, [ev('A')]);
    await expect(
      store.append(s, 0, [ev('B')], { inline: { fn: 'test_inline', arg: { x: 2 } } }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await rows(s)).toEqual([]);
  });

  it('when the inline function raises, neither its rows nor the events are written', async () => {
    const s = stream('inline-fail');
    await expect(
      store.append(s, 0, [ev('A')], {
        inline: { fn: 'test_inline', arg: { fail: 'yes' } },
        idempotency: { scope: 'x', key: 'k', requestHash: 'h', response: {} },
      }),
    ).rejects.toThrow(/projection refused/);
    expect(await rows(s)).toEqual([]);
    expect(await store.streamVersion(s)).toBe(0);
    expect(await store.lookupIdempotency(s, 'x', 'k')).toBeNull();
  });

  it('refuses an inline function name that is not a plain (schema.)name or does not exist', async () => {
    const s = stream('inline-bad');
    await expect(
      store.append(s, 0, [ev('A')], { inline: { fn: 'test_inline(text); DROP TABLE events; --', arg: {} } }),
    ).rejects.toThrow(/not a function name/);
    await expect(store.append(s, 0, [ev('A')], { inline: { fn: 'no_such_fn', arg: {} } })).rejects.toThrow(
      /no function/,
    );
    expect(await store.streamVersion(s)).toBe(0);
  });
});

describe('tamper evidence', () => {
  it("each event's hash chains to its predecessor and a stream verifies", async () => {
    const s = stream('chain');
    await store.append(s, 0, [ev('A', { a: 1 }), ev('B', { b: [1, 2] })]);
    await store.append(s, 2, [{ type: 'C', data: { c: 'x' }, metadata: { at: '2024-01-01T00:00:00Z' } }]);
    expect(await store.verifyStream(s)).toEqual({ ok: true, brokenAt: null, version: 3 });
  });
});
