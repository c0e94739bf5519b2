import { useTestDatabase } from '../../../test/support/database';
import { EventStore } from './index';

jest.setTimeout(60_000);

let store: EventStore;
const t = useTestDatabase({}, () => store?.close());

beforeAll(async () => {
  store = new EventStore(t.ds);
  await store.append('s-1', 0, [
    { type: 'A', data: { n: 1 } },
    { type: 'B', data: { n: 2 } },
    { type: 'C', data: { n: 3 } },
  ]);
});

describe('the events table is append-only', () => {
  it.each([
    ['UPDATE', `UPDATE events SET data = '{"n": 99}' WHERE stream_id = 's-1' AND version = 2`],
    ['DELETE', `DELETE FROM events WHERE stream_id = 's-1' AND version = 3`],
    ['TRUNCATE', `TRUNCATE events`],
    ['UPDATE of no row', `UPDATE events SET type = 'X' WHERE false`],
  ])('the database refuses UPDATE and DELETE (and TRUNCATE) on events: %s', async (_name, sql) => {
    await expect(t.ds.query(sql)).rejects.toThrow(/events is append-only/);
    expect((await store.readStream('s-1')).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('rejects a duplicate (stream, version) even when written around es_append', async () => {
    await expect(
      t.ds.query(`INSERT INTO events (stream_id, version, type, data, hash) VALUES ('s-1', 2, 'X', '{}', '\\x00')`),
    ).rejects.toThrow(/events_stream_version_key/);
  });
});

describe('tamper evidence', () => {
  it('a tampered event breaks the hash chain at its version', async () => {
    expect(await store.verifyStream('s-1')).toMatchObject({ ok: true });
    // Only someone able to switch the trigger off (a superuser) can do this, and it shows.
    await t.ds.query(`ALTER TABLE events DISABLE TRIGGER events_append_only`);
    try {
      await t.ds.query(`UPDATE events SET data = '{"n": 20}' WHERE stream_id = 's-1' AND version = 2`);
    } finally {
      await t.ds.query(`ALTER TABLE events ENABLE TRIGGER events_append_only`);
    }
    expect(await store.verifyStream('s-1')).toEqual({ ok: false, brokenAt: 2, version: 3 });
  });
});
