import type { Queryable } from '@bismarck/event-store';
import { isListTime, MatchReader } from './reader';
import { SecretReader } from './secrets';

/** A Queryable that records each statement and answers with the next canned result. */
function fakeDb(...results: unknown[]): Queryable & { calls: { sql: string; params?: unknown[] }[] } {
  const calls: { sql: string; params?: unknown[] }[] = [];
  return {
    calls,
    query: async (sql, params) => {
      calls.push({ sql, params });
      return results.shift() ?? [];
    },
  };
}

const row = (id: string, createdAt: string) => ({ id, version: 1, status: 'playing', created_at: createdAt, updated_at: createdAt });

describe('MatchReader', () => {
  it('reads a document in one statement, from pg ({ rows }) or TypeORM (an array) alike; null for no match', async () => {
    const db = fakeDb({ rows: [{ version: 7, doc: { a: 1 } }] }, [{ version: 8, doc: { b: 2 } }], { rows: [] });
    const reader = new MatchReader(db);
    expect(await reader.publicState('m')).toEqual({ version: 7, body: { a: 1 } });
    expect(await reader.seatView('m', 2)).toEqual({ version: 8, body: { b: 2 } });
    expect(await reader.scorecard('m')).toBeNull();
    expect(db.calls.map((c) => c.params)).toEqual([['m'], ['m', 2], ['m']]);
  });

  it('asks the list for one row more than the page, and says where the next page starts only when there is one', async () => {
    const t = '2026-01-01T12:00:00.000000Z';
    const db = fakeDb([row('c', t), row('b', t), row('a', t)], [row('a', t)]);
    const reader = new MatchReader(db);
    const first = await reader.list(2, { status: 'playing' });
    expect(first.items.map((m) => m.id)).toEqual(['c', 'b']);
    expect(first.next).toEqual({ createdAt: t, id: 'b' });
    const second = await reader.list(2, { status: 'playing' }, first.next!);
    expect(second).toMatchObject({ items: [{ id: 'a' }], next: null });
    expect(db.calls.map((c) => c.params)).toEqual([
      [3, 'playing'],
      [3, 'playing', t, 'b'],
    ]);
  });

  it('takes as a list time only the list\'s own format naming a real instant', () => {
    expect(isListTime('2026-01-01T12:00:00.123456Z')).toBe(true);
    for (const bad of ['2020-02-30T00:00:00.000000Z', '2026-01-01T24:00:00.000000Z', '2026-01-01T12:00:00Z', '1969-12-31T23:59:59.000000Z', 42]) {
      expect(isListTime(bad)).toBe(false);
    }
  });
});

describe('SecretReader', () => {
  it('answers null or false when nothing is stored, in one statement each', async () => {
    const db = fakeDb();
    const secrets = new SecretReader(db);
    expect(await secrets.seedOf('m', 'c')).toBeNull();
    expect(await secrets.seedsOfDeal('m', 1)).toEqual([]);
    expect(await secrets.sandboxSeed('m')).toBeNull();
    expect(await secrets.tokenHashes('m')).toEqual([]);
    expect(await secrets.tokenElsewhere('ab')).toBe(false);
    expect(db.calls).toHaveLength(5);
  });
});
