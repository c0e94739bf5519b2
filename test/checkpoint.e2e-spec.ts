import { DataSource } from 'typeorm';
import { streamMatchEvents } from '@bismarck/client';
import { evolve, initialState, nothingSecret, type BismarckEvent, type MatchState } from '@bismarck/rules';
import { Checkpoints1799000005000 } from '@bismarck/projections';
import { rebuildDifferences, useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';
import { collect, listenLocal } from './support/server';

// A client pins the hash chain as it plays (docs/fairness.md §9): the public state, each event page
// and each streamed event carry the newest hash that covers no secret card, and the audit checks a pin.
// These streams read finished matches to their end: without the rematch window (its wait after
// MatchFinished is test/rematch.e2e-spec.ts's and match-channel.spec.ts's), they end at MatchFinished.
const t = useTestApp(
  () => Object.assign(process.env, { REMATCH_WINDOW_MS: '0' }),
  () => delete process.env.REMATCH_WINDOW_MS,
);
let base: string;
beforeAll(async () => {
  base = await listenLocal(t.app);
});

interface Checkpoint {
  version: number;
  hash: string;
}
interface PageEvent {
  version: number;
  type: string;
  data: Record<string, unknown>;
  hash?: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** A field the caller may not see is null: true when the event shows everything it holds. */
function unredacted(e: PageEvent): boolean {
  if (e.type === 'DealStarted') return e.data.deck !== null;
  if (e.type === 'HandsDealt') return (e.data.hands as unknown[]).every((h) => h !== null);
  if (e.type === 'CardsLaidAway') return e.data.cards !== null;
  return true;
}

async function exportedHashes(match: CreatedMatch): Promise<{ hashes: string[]; events: BismarckEvent[] }> {
  const doc = (await t.http().get(`/api/matches/${match.id}/export`).expect(200)).body;
  return {
    hashes: doc.events.map((e: { hash: string }) => e.hash),
    events: doc.events.map((e: { type: string; data: unknown }) => ({ type: e.type, data: e.data }) as BismarckEvent),
  };
}

describe('pinning the hash chain during play', () => {
  it('every step shows a checkpoint whose events are all public, and every pin holds in the final export', async () => {
    const match = await createMatch(t.http, { options: { schedule: 'quick' } });
    const pick = seededPick(7);
    const pins = new Map<number, string>();
    let midDeal = 0;
    for (;;) {
      const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
      const checkpoint: Checkpoint = state.checkpoint;
      expect(checkpoint.hash).toMatch(HEX64);
      expect(checkpoint.version).toBeLessThanOrEqual(state.version);
      if (['contract', 'discard', 'play'].includes(state.phase)) {
        // A deal is under way: its events cover secret cards, so the checkpoint stays before it.
        expect(checkpoint.version).toBeLessThan(state.version);
        midDeal++;
      } else expect(checkpoint.version).toBe(state.version);

      for (const viewer of ['spectator', 0] as const) {
        const req = t.http().get(`/api/matches/${match.id}/events?after=0&limit=1000`);
        const page = (await (viewer === 'spectator' ? req : req.set(...bearer(match.seats[viewer].token))).expect(200)).body;
        expect(page.checkpoint).toEqual(checkpoint);
        for (const e of page.events as PageEvent[]) {
          // A hash exactly up to the checkpoint, and nothing up to there is hidden from anyone.
          expect(e.hash !== undefined).toBe(e.version <= checkpoint.version);
          if (e.version <= checkpoint.version) expect(unredacted(e)).toBe(true);
        }
        expect((page.events as PageEvent[]).find((e) => e.version === checkpoint.version)?.hash).toBe(checkpoint.hash);
      }
      // A seat's view carries the same checkpoint as the public state.
      const view = (await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[1].token)).expect(200)).body;
      expect(view.checkpoint).toEqual(checkpoint);

      if (pins.has(checkpoint.version)) expect(pins.get(checkpoint.version)).toBe(checkpoint.hash);
      pins.set(checkpoint.version, checkpoint.hash);
      if (!(await playOneAction(t.http, match, pick))) break;
    }
    expect(midDeal).toBeGreaterThan(20);
    expect(pins.size).toBeGreaterThanOrEqual(4); // before the first deal, after each of the 3 deals

    const { hashes } = await exportedHashes(match);
    for (const [version, hash] of pins) expect(hashes[version - 1]).toBe(hash);
    const last = [...pins].at(-1)!;
    expect(last[0]).toBe(hashes.length);
  }, 120_000);

  it('a live stream gives each event its hash once nothing up to it is secret', async () => {
    const match = await createMatch(t.http, { options: { schedule: 'quick' } });
    const pick = seededPick(3);
    for (let i = 0; i < 10; i++) await playOneAction(t.http, match, pick); // mid-deal
    const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
    expect(state.checkpoint.version).toBeLessThan(state.version);

    const streamed = collect(streamMatchEvents(base, match.id, { reconnect: false }));
    while (await playOneAction(t.http, match, pick));
    const events = await streamed;
    const { hashes, events: log } = await exportedHashes(match);
    expect(events.map((e) => e.version)).toEqual(log.map((_, i) => i + 1));

    let folded: MatchState = initialState();
    log.forEach((event, i) => {
      folded = evolve(folded, event);
      const sent = events[i];
      if (sent.hash !== undefined) expect(sent.hash).toBe(hashes[i]);
      // Caught up from the log mid-deal: nothing past the checkpoint had a hash then.
      if (sent.version > state.checkpoint.version && sent.version <= state.version) expect(sent.hash).toBeUndefined();
      // Live: a version at which nothing was secret carries its hash.
      if (sent.version > state.version && nothingSecret(folded)) expect(sent.hash).toBe(hashes[i]);
    });
    expect(events.filter((e) => e.hash !== undefined).length).toBeGreaterThan(5);
  }, 120_000);

  it('views written before checkpoints existed get theirs from the migration, as a rebuild computes them', async () => {
    const matches = await Promise.all([
      createMatch(t.http, { options: { schedule: 'quick' } }),
      createMatch(t.http, { options: { schedule: 'quick' } }),
      createMatch(t.http, { options: { schedule: 'quick' } }),
      createMatch(t.http, { players: ['Astrid', null, null] }),
    ]);
    const steps = [0, 12, 20, 200];
    await Promise.all(
      matches.slice(0, 3).map(async (m, i) => {
        for (let k = 0; k < steps[i + 1]; k++) if (!(await playOneAction(t.http, m, seededPick(i + 20)))) break;
      }),
    );
    const db = t.app.get(DataSource);
    const ids = matches.map((m) => m.id);
    const before = await db.query(`SELECT match_id, version, doc->'checkpoint' AS c FROM match_views WHERE match_id = ANY($1) ORDER BY match_id`, [ids]);
    await db.query(`UPDATE match_views SET doc = doc - 'checkpoint' WHERE match_id = ANY($1)`, [ids]);
    const runner = db.createQueryRunner();
    try {
      await new Checkpoints1799000005000().up(runner);
    } finally {
      await runner.release();
    }
    const after = await db.query(`SELECT match_id, version, doc->'checkpoint' AS c FROM match_views WHERE match_id = ANY($1) ORDER BY match_id`, [ids]);
    expect(after).toEqual(before);
    // Some mid-deal (checkpoint before the head), some not.
    const behind = before.filter((r: { version: number; c: { version: number } }) => r.c.version < r.version).length;
    expect(behind).toBeGreaterThan(0);
    expect(behind).toBeLessThan(before.length);
    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 120_000);

  // Last: it rewrites a log, which a rebuild of every projection would then disagree with.
  it('the audit checks a pin: kept, it holds; after a rewrite of the whole chain, it fails', async () => {
    const match = await createMatch(t.http, { options: { schedule: 'quick' } });
    const pick = seededPick(11);
    let pinned: Checkpoint | undefined;
    for (;;) {
      const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
      if (state.dealNumber === 2 && state.phase === 'play') {
        pinned = state.checkpoint;
        // Past the checkpoint: the service never handed such a hash out, and checks none.
        const past = await t.http().get(`/api/matches/${match.id}/audit?pin=${state.version}:${'a'.repeat(64)}`).expect(400);
        expect(past.body.code).toBe('VALIDATION_FAILED');
      }
      if (!(await playOneAction(t.http, match, pick))) break;
    }
    const pin = `${pinned!.version}:${pinned!.hash}`;
    const audit = (await t.http().get(`/api/matches/${match.id}/audit?pin=${pin}`).expect(200)).body;
    expect(audit.ok).toBe(true);
    expect(audit.checks.find((c: { name: string }) => c.name === 'pin')).toMatchObject({ ok: true, failedAt: null });
    const wrong = (await t.http().get(`/api/matches/${match.id}/audit?pin=${pinned!.version}:${'0'.repeat(64)}`).expect(200)).body;
    expect(wrong).toMatchObject({ ok: false, firstFailure: pinned!.version });
    for (const bad of ['abc', '0:' + 'a'.repeat(64), `5:${'g'.repeat(64)}`, `99999999999:${'a'.repeat(64)}`, `5:${'a'.repeat(63)}`]) {
      const res = await t.http().get(`/api/matches/${match.id}/audit?pin=${encodeURIComponent(bad)}`).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }

    // An operator rewrites the first deal's scores and re-hashes the whole chain from there on: the
    // chain alone is consistent again, only the client's pin shows the rewrite.
    const db = t.app.get(DataSource);
    const [{ version: scoredAt }] = await db.query(`SELECT min(version) AS version FROM events WHERE stream_id = $1 AND type = 'DealScored'`, [match.id]);
    await db.query('ALTER TABLE events DISABLE TRIGGER USER');
    try {
      await db.query(`UPDATE events SET data = jsonb_set(data, '{totals}', '[9, 0, -9]') WHERE stream_id = $1 AND version = $2`, [match.id, scoredAt]);
      await db.query(
        `DO $$ DECLARE r record; prev bytea; BEGIN
           FOR r IN SELECT * FROM events WHERE stream_id = '${match.id}' ORDER BY version LOOP
             prev := es_event_hash(prev, r.stream_id, r.version, r.type, r.data, r.metadata, r.recorded_at);
             UPDATE events SET hash = prev WHERE stream_id = r.stream_id AND version = r.version;
           END LOOP; END $$`,
      );
    } finally {
      await db.query('ALTER TABLE events ENABLE TRIGGER USER');
    }
    const rewritten = (await t.http().get(`/api/matches/${match.id}/audit?pin=${pin}`).expect(200)).body;
    expect(rewritten.checks.find((c: { name: string }) => c.name === 'chain').ok).toBe(true);
    expect(rewritten.databaseChain.ok).toBe(true);
    expect(rewritten.checks.find((c: { name: string }) => c.name === 'pin')).toMatchObject({ ok: false, failedAt: pinned!.version });
    expect(rewritten.ok).toBe(false);
  }, 120_000);
});
