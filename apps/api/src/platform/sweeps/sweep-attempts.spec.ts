import { eachBounded, SweepAttempts } from './sweep-attempts';

const options = { firstMs: 1_000, maxMs: 4_000, parkAfter: 4, parkMs: 60_000 };

describe('SweepAttempts: a match a sweep cannot move on waits longer each time, then is parked', () => {
  let now = 0;
  const attempts = () => new SweepAttempts(options, () => now);
  beforeEach(() => (now = 0));

  it('leaves a tried match out of the next read until its wait is over, doubling the wait, then parks it', () => {
    const a = attempts();
    expect(a.tried('m', 7)).toBe('first');
    expect(a.waiting()).toEqual({ ids: ['m'], versions: [7] });
    now = 999;
    expect(a.waiting().ids).toEqual(['m']);
    now = 1_000;
    expect(a.waiting().ids).toEqual([]);
    expect(a.tried('m', 7)).toBe('again'); // waits 2 s
    now = 2_999;
    expect(a.waiting().ids).toEqual(['m']);
    now = 3_000;
    expect(a.tried('m', 7)).toBe('again'); // 4 s, the longest
    now = 7_000;
    expect(a.parked).toBe(0);
    expect(a.tried('m', 7)).toBe('parked');
    expect(a.parked).toBe(1);
    now = 66_999;
    expect(a.waiting().ids).toEqual(['m']);
    now = 67_000;
    // Tried again after the parking, with a fresh count.
    expect(a.waiting().ids).toEqual([]);
    expect(a.parked).toBe(0);
    expect(a.tried('m', 7)).toBe('first');
  });

  it('starts afresh at a new version: a match that moved on is not held against', () => {
    const a = attempts();
    a.tried('m', 7);
    now = 1_000;
    a.tried('m', 7);
    now = 3_000;
    expect(a.tried('m', 9)).toBe('first');
    expect(a.waiting()).toEqual({ ids: ['m'], versions: [9] });
  });

  it('forgets a match the read no longer finds once its wait is over, and keeps one still waiting', () => {
    const a = attempts();
    a.tried('gone', 1);
    a.tried('kept', 1);
    now = 500;
    a.forget(new Set());
    expect(a.waiting().ids.sort()).toEqual(['gone', 'kept']);
    now = 1_000;
    a.forget(new Set(['kept']));
    // 'gone' is forgotten: found again, it is a first try.
    expect(a.tried('gone', 1)).toBe('first');
    expect(a.tried('kept', 1)).toBe('again');
  });
});

describe('eachBounded', () => {
  it('runs every item, never more than the bound at once, and reports a failure after all are done', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    await expect(
      eachBounded(items, 7, async (i) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, i % 3));
        running--;
        done.push(i);
        if (i === 10) throw new Error('ten');
      }),
    ).rejects.toThrow('ten');
    expect(most).toBe(7);
    expect(done.sort((a, b) => a - b)).toEqual(items);
  });
});
