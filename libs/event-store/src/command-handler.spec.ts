import { useTestDatabase } from '../../../test/support/database';
import { CommandHandler, EventStore, type Decision, type HandlerPolicy, type StreamModel } from './index';

jest.setTimeout(60_000);

let store: EventStore;
const t = useTestDatabase({}, () => store?.close());
beforeAll(() => {
  store = new EventStore(t.ds);
});

/** A counter stream: each event adds its `by`; a command that would take the total past 10 is refused. */
interface Counter {
  version: number;
  total: number;
}
type Added = { type: 'Added'; data: { by: number } };
class TooMuch extends Error {}
const EMPTY: Counter = { version: 0, total: 0 };
const foldCounter = (from: Counter, events: readonly Added[]): Counter => events.reduce((c, e) => ({ version: c.version + 1, total: c.total + e.data.by }), from);
const add = (by: number) => (current: Counter): Decision<Added> => {
  if (current.total + by > 10) throw new TooMuch();
  return { events: by === 0 ? [] : [{ type: 'Added', data: { by } }], at: new Date().toISOString() };
};

const policy: HandlerPolicy = {
  attempts: 3,
  exhausted: () => new Error('exhausted'),
  isRefusal: (error) => error instanceof TooMuch,
  notFound: (id) => new Error(`no stream ${id}`),
  versionMismatch: (current, expected) => new Error(`at ${current}, not ${expected}`),
  keyReused: () => new Error('key reused'),
};

/** A model with a cache the test can leave behind the log, and a count of its loads. */
function cachedModel() {
  const cache = new Map<string, Counter>();
  const loads: boolean[] = [];
  const model: StreamModel<Counter, Added> = {
    empty: EMPTY,
    async load(id, fresh) {
      loads.push(fresh);
      if (!fresh && cache.has(id)) return cache.get(id)!;
      const events = await store.readStream(id);
      return events.length === 0 ? null : foldCounter(EMPTY, events as unknown as Added[]);
    },
    fold: (from, events) => foldCounter(from, events),
  };
  return { model, cache, loads };
}

let n = 0;
const streamId = () => `counter-${++n}`;
const command = (by: number, more: Partial<Parameters<CommandHandler<Counter, Added>['handle']>[1]> = {}) => ({
  decide: add(by),
  answer: (w: { after: Counter }) => w.after,
  append: (w: { events: readonly Added[]; at: string }) => ({ events: w.events.map((e) => ({ ...e, metadata: { at: w.at } })) }),
  ...more,
});

describe('CommandHandler', () => {
  it('creates a stream at version 0 once; a second creation is a version mismatch', async () => {
    const { model } = cachedModel();
    const handler = new CommandHandler(store, model, policy);
    const id = streamId();
    expect(await handler.handle(id, command(2, { expectedVersion: 0 }))).toEqual({ version: 1, total: 2 });
    await expect(handler.handle(id, command(3, { expectedVersion: 0 }))).rejects.toThrow('at 1, not 0');
    expect(await store.streamVersion(id)).toBe(1);
  });

  it('answers a command on no stream with the policy\'s not found', async () => {
    const handler = new CommandHandler(store, cachedModel().model, policy);
    await expect(handler.handle(streamId(), command(1))).rejects.toThrow(/no stream/);
  });

  it('decides again on the log when its cached fold lost the race, and appends once', async () => {
    const { model, cache, loads } = cachedModel();
    const handler = new CommandHandler(store, model, policy);
    const id = streamId();
    await handler.handle(id, command(1, { expectedVersion: 0 }));
    cache.set(id, { version: 1, total: 1 });
    await store.append(id, 1, [{ type: 'Added', data: { by: 4 } }]); // another process
    expect(await handler.handle(id, command(2))).toEqual({ version: 3, total: 7 });
    expect(loads.slice(-2)).toEqual([false, true]);
    expect((await store.readStream(id)).map((e) => (e.data as { by: number }).by)).toEqual([1, 4, 2]);
  });

  it('looks at the log before a refusal on a cached fold stands', async () => {
    const { model, cache } = cachedModel();
    const handler = new CommandHandler(store, model, policy);
    const id = streamId();
    await handler.handle(id, command(9, { expectedVersion: 0 }));
    // The cache claims 10, where 2 more is refused; the log has moved on to 1: the refusal is checked
    // against it, and the command decided again.
    cache.set(id, { version: 1, total: 10 });
    await store.append(id, 1, [{ type: 'Added', data: { by: -8 } }]);
    expect(await handler.handle(id, command(2))).toEqual({ version: 3, total: 3 });
    // On the log as it is, the refusal stands.
    await expect(handler.handle(id, command(8))).rejects.toBeInstanceOf(TooMuch);
  });

  it('gives up after the policy\'s attempts when every attempt loses', async () => {
    const id = streamId();
    await store.append(id, 0, [{ type: 'Added', data: { by: 1 } }]);
    let loads = 0;
    const behind: StreamModel<Counter, Added> = { empty: EMPTY, load: async () => (loads++, { version: 0, total: 0 }), fold: (f, e) => foldCounter(f, e) };
    await expect(new CommandHandler(store, behind, policy).handle(id, command(1))).rejects.toThrow('exhausted');
    expect(loads).toBe(3);
  });

  it('answers a retry with the same key from the first answer, and refuses the key for another request', async () => {
    const handler = new CommandHandler(store, cachedModel().model, policy);
    const id = streamId();
    await handler.handle(id, command(1, { expectedVersion: 0 }));
    const idempotency = { scope: 's', key: 'k', requestHash: 'h1' };
    const first = await handler.handle(id, command(2, { idempotency, expectedVersion: 1 }));
    // The same request again, at the version it was first sent at: the first answer, nothing appended.
    expect(await handler.handle(id, command(2, { idempotency, expectedVersion: 1 }))).toEqual(first);
    expect(await store.streamVersion(id)).toBe(2);
    await expect(handler.handle(id, command(3, { idempotency: { ...idempotency, requestHash: 'h2' } }))).rejects.toThrow('key reused');
  });

  it('appends a follow-up decided on the fold the command leaves, in the same append, folding each event once', async () => {
    const { model } = cachedModel();
    let folded = 0;
    const counting: StreamModel<Counter, Added> = { ...model, fold: (f, e) => ((folded += e.length), foldCounter(f, e)) };
    const handler = new CommandHandler(store, counting, policy);
    const id = streamId();
    await handler.handle(id, command(1, { expectedVersion: 0 }));
    folded = 0;
    const seen: Counter[] = [];
    const after = await handler.handle(id, command(2, { followUp: async (state: Counter) => (seen.push(state), add(3)(state)) }));
    expect(seen).toEqual([{ version: 2, total: 3 }]);
    expect(after).toEqual({ version: 3, total: 6 });
    expect(folded).toBe(2);
    const log = await store.readStream(id);
    expect(new Set(log.slice(1).map((e) => e.txId)).size).toBe(1);
  });

  it('appends nothing for a decision without events', async () => {
    const handler = new CommandHandler(store, cachedModel().model, policy);
    const id = streamId();
    await handler.handle(id, command(1, { expectedVersion: 0 }));
    expect(await handler.handle(id, command(0))).toEqual({ version: 1, total: 1 });
    expect(await store.streamVersion(id)).toBe(1);
  });
});
