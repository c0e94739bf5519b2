import fc from 'fast-check';
import { auditMatch, jsonbText, type ExportedMatch } from '@bismarck/audit';
import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

const t = useTestApp();

const state = async (m: CreatedMatch) => (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;

/** Plays to the end; the seat on the dealer's right cuts before every deal. */
async function playWithCuts(m: CreatedMatch, cut = true): Promise<void> {
  const pick = seededPick(7);
  for (let s = await state(m); s.status !== 'finished'; s = await state(m)) {
    if (cut && s.phase === 'deal' && s.fairness.cut === null) {
      const cutter = (s.dealer + 2) % 3;
      await t.http().post(`/api/matches/${m.id}/cut`).set(...bearer(m.seats[cutter].token)).send({ cut: `cut-${s.version}` }).expect(200);
    }
    await playOneAction(t.http, m, pick);
  }
}

describe('provably fair deals', () => {
  let m: CreatedMatch;
  let exported: ExportedMatch;
  beforeAll(async () => {
    m = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playWithCuts(m);
    exported = (await t.http().get(`/api/matches/${m.id}/export`).expect(200)).body;
  }, 60_000);

  it('publishes a commitment before each deal, takes the cut, and reveals each seed once the deal is scored', () => {
    const types = exported.events.map((e) => e.type);
    for (let deal = 1; deal <= 3; deal++) {
      const committed = exported.events.findIndex((e) => e.type === 'DeckCommitted' && (e.data as any).deal === deal);
      const cut = exported.events.findIndex((e) => e.type === 'DeckCut' && (e.data as any).deal === deal);
      const started = exported.events.findIndex((e) => e.type === 'DealStarted' && (e.data as any).deal === deal);
      const scored = exported.events.findIndex((e) => e.type === 'DealScored' && (e.data as any).deal === deal);
      const revealed = exported.events.findIndex((e) => e.type === 'SeedRevealed' && (e.data as any).deal === deal);
      expect(0 <= committed && committed < cut && cut < started && started < scored && scored < revealed).toBe(true);
    }
    expect(types.at(-1)).toBe('MatchFinished');
  });

  it('audits clean: chain, commitments, decks, every decision and the scores', async () => {
    const audit = (await t.http().get(`/api/matches/${m.id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(true);
    expect(audit.firstFailure).toBeNull();
    expect(audit.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['chain', true],
      ['complete', true],
      ['commitments', true],
      ['decks', true],
      ['rules', true],
      ['scores', true],
    ]);
    expect(audit.provablyFairDeals).toEqual([1, 2, 3]);
    expect(audit.databaseChain).toEqual({ ok: true, brokenAt: null });
    expect(auditMatch(exported).ok).toBe(true);
  });

  it('catches a changed byte, a dropped event, two reordered events and an altered seed', () => {
    const copy = (): ExportedMatch => JSON.parse(JSON.stringify(exported));
    const played = exported.events.findIndex((e) => e.type === 'CardPlayed');

    const changed = copy();
    const ev = changed.events[played].data as { card: string };
    ev.card = ev.card === '2C' ? '3C' : '2C';
    expect(auditMatch(changed)).toMatchObject({ ok: false, firstFailure: played + 1 });

    const dropped = copy();
    dropped.events.splice(played, 1);
    expect(auditMatch(dropped)).toMatchObject({ ok: false, firstFailure: played + 1 });

    const reordered = copy();
    [reordered.events[played], reordered.events[played + 1]] = [reordered.events[played + 1], reordered.events[played]];
    expect(auditMatch(reordered)).toMatchObject({ ok: false, firstFailure: played + 1 });

    const seed = copy();
    const reveal = seed.events.find((e) => e.type === 'SeedRevealed')!;
    (reveal.data as { seed: string }).seed = 'f'.repeat(64);
    const report = auditMatch(seed);
    expect(report.ok).toBe(false);
    expect(report.firstFailure).toBe(reveal.version);
    expect(report.checks.find((c) => c.name === 'commitments')!.ok).toBe(false);
  });

  it('the online audit catches events deleted from the end of the log (the projection recorded the head)', async () => {
    const victim = await createMatch(t.http, { options: { schedule: 'quick' } });
    const pick = seededPick(5);
    for (let i = 0; i < 12; i++) await playOneAction(t.http, victim, pick);
    const db = t.app.get(DataSource);
    const [{ v }] = await db.query('SELECT max(version)::int AS v FROM events WHERE stream_id = $1', [victim.id]);
    // What an operator with DDL rights could do: the table refuses DELETE unless its trigger is off.
    await db.query('ALTER TABLE events DISABLE TRIGGER USER');
    try {
      await db.query('DELETE FROM events WHERE stream_id = $1 AND version > $2', [victim.id, v - 2]);
    } finally {
      await db.query('ALTER TABLE events ENABLE TRIGGER USER');
    }
    const audit = (await t.http().get(`/api/matches/${victim.id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(false);
    expect(audit.checks.find((c: { name: string }) => c.name === 'complete')).toMatchObject({ ok: false, failedAt: v - 1 });
  });

  it("replays the dealer's events through the rules too: a commitment or a reveal out of place fails the rules check", () => {
    const copy = (): ExportedMatch => JSON.parse(JSON.stringify(exported));
    const rules = (doc: ExportedMatch) => auditMatch(doc).checks.find((c) => c.name === 'rules')!;
    expect(rules(copy())).toMatchObject({ ok: true, detail: expect.stringMatching(/the dealer's included/) });
    // A DeckCommitted moved before the event that precedes it: the rules do not put one there.
    const early = copy();
    const at = early.events.findIndex((e, i) => i > 1 && e.type === 'DeckCommitted');
    [early.events[at - 1], early.events[at]] = [early.events[at], early.events[at - 1]];
    early.events.forEach((e, i) => (e.version = i + 1));
    expect(rules(early)).toMatchObject({ ok: false, failedAt: at });
    // A seed revealed twice.
    const twice = copy();
    const reveal = twice.events.findIndex((e) => e.type === 'SeedRevealed');
    twice.events.splice(reveal, 0, JSON.parse(JSON.stringify(twice.events[reveal])));
    twice.events.forEach((e, i) => (e.version = i + 1));
    expect(rules(twice).ok).toBe(false);
  });

  it('catches a log cut short and a flipped seeded flag (the envelope is covered by no hash)', () => {
    const copy = (): ExportedMatch => JSON.parse(JSON.stringify(exported));
    // The last events dropped, MatchFinished among them: the chain of what is left is intact.
    const cut = copy();
    cut.events.splice(cut.events.length - 3);
    expect(auditMatch(cut).checks.find((c) => c.name === 'chain')!.ok).toBe(true);
    const complete = (report: ReturnType<typeof auditMatch>) => report.checks.find((c) => c.name === 'complete')!;
    expect(auditMatch(cut, { finished: true }).ok).toBe(false);
    expect(complete(auditMatch(cut, { finished: true }))).toMatchObject({ ok: false, failedAt: cut.events.length + 1 });
    expect(complete(auditMatch(cut, { recordedVersion: exported.events.length }))).toMatchObject({ ok: false, failedAt: cut.events.length + 1 });
    expect(auditMatch(exported, { finished: true, recordedVersion: exported.events.length }).ok).toBe(true);

    const flipped = copy();
    flipped.seeded = true;
    const report = auditMatch(flipped);
    expect(report).toMatchObject({ ok: false, seeded: false, firstFailure: 1 });
    // The commitment and deck checks still ran (seeded comes from the hashed MatchCreated).
    expect(report.checks.find((c) => c.name === 'decks')!.detail).toMatch(/re-derived/);
  });

  it('audits a whole modern match clean (every contract chosen, each seat forehand 4 times)', async () => {
    const modern = await createMatch(t.http, { options: { leadBeforeDiscard: 'redeal', mustTrump: true } });
    await playWithCuts(modern);
    const audit = (await t.http().get(`/api/matches/${modern.id}/audit`).expect(200)).body;
    expect(audit.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    expect(audit.provablyFairDeals).toHaveLength(12);
  }, 120_000);

  it('a deal without a cut is audited but not counted as provably fair', async () => {
    const uncut = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playWithCuts(uncut, false);
    const audit = (await t.http().get(`/api/matches/${uncut.id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(true);
    expect(audit.provablyFairDeals).toEqual([]);
  }, 60_000);

  it('a seeded match is reproducible and marked as not provably fair', async () => {
    const a = await createMatch(t.http, { seed: 'club-night', options: { schedule: 'quick' } });
    const b = await createMatch(t.http, { seed: 'club-night', options: { schedule: 'quick' } });
    expect(a.firstDealer).toBe(b.firstDealer);
    await playOneAction(t.http, a);
    await playOneAction(t.http, b);
    expect((await state(a)).tableCards).toEqual((await state(b)).tableCards);
    expect((await state(a)).seeded).toBe(true);
    const audit = (await t.http().get(`/api/matches/${a.id}/audit`).expect(200)).body;
    expect(audit).toMatchObject({ ok: true, seeded: true, provablyFairDeals: [] });
    expect(audit.checks.find((c: { name: string }) => c.name === 'commitments').detail).toMatch(/not provably fair/);
  });
});

describe('replay and export', () => {
  it('replays any moment as the caller may see it; a scored deal reveals every hand', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    // Into the first deal's play.
    for (let s = await state(m); s.phase !== 'play' || s.trick.length < 2; s = await state(m)) await playOneAction(t.http, m);
    const now = await state(m);
    const spectator = (await t.http().get(`/api/matches/${m.id}/replay?version=${now.version}`).expect(200)).body;
    expect(spectator.revealed).toBeNull();
    expect(spectator.view).not.toHaveProperty('hand');
    expect(spectator.view.trick).toEqual(now.trick);
    const seat = (await t.http().get(`/api/matches/${m.id}/replay?version=${now.version}`).set(...bearer(m.seats[0].token)).expect(200)).body;
    expect(seat.view.hand.length).toBeGreaterThan(0);
    const exportEarly = await t.http().get(`/api/matches/${m.id}/export`);
    expect({ status: exportEarly.status, code: exportEarly.body.code }).toEqual({ status: 409, code: 'MATCH_NOT_FINISHED' });

    // Once the deal is scored, the same moment shows all three hands to anyone.
    for (let s = await state(m); s.dealNumber === 1 && s.phase !== 'deal'; s = await state(m)) await playOneAction(t.http, m);
    const later = (await t.http().get(`/api/matches/${m.id}/replay?version=${now.version}`).expect(200)).body;
    expect(later.revealed.deal).toBe(1);
    expect(later.revealed.hands.map((h: string[]) => h.length)).toEqual(expect.arrayContaining([expect.any(Number)]));
    expect(later.revealed.deck).toHaveLength(52);
    const tooFar = await t.http().get(`/api/matches/${m.id}/replay?version=99999`);
    expect({ status: tooFar.status, code: tooFar.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  }, 60_000);
});

describe('the offline hash chain', () => {
  it("reproduces PostgreSQL's jsonb text exactly: key order, spacing, escapes, unicode", async () => {
    const value = {
      zz: 1,
      a: [true, false, null, -3, 0, 1234567890123],
      bb: { 'é': 'Bjørn "the bold"\\', y: 'tab\there\nnew line\u0001\u001f end', x: [] as unknown[], '': {} },
      ab: '🂡 ♠♥♦♣',
    };
    const [row] = await t.app.get(DataSource).query('SELECT ($1::jsonb)::text AS text', [JSON.stringify(value)]);
    expect(jsonbText(value)).toBe(row.text);
  });

  it('agrees with PostgreSQL on random values: keys of one length in any script, strings with any escape', async () => {
    // Every kind of character jsonb text treats its own way (no NUL and no lone surrogate: jsonb holds neither).
    const unit = fc.constantFrom('a', 'b', 'B', 'z', '0', '_', ' ', '~', 'é', 'ø', 'ß', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0001', '\u001f', '\u007f', '\u0080', '\u2028', '🂡', '♠');
    const text = fc.string({ unit, maxLength: 4 });
    const json = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), text),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(text, tie('node'), { maxKeys: 4 })),
    })).node;
    const values = fc.sample(json, { numRuns: 300, seed: 17 });
    const rows: { text: string }[] = await t.app.get(DataSource).query('SELECT (v::jsonb)::text AS text FROM unnest($1::text[]) WITH ORDINALITY AS u(v, n) ORDER BY n', [values.map((v) => JSON.stringify(v))]);
    expect(values.map((v) => jsonbText(v))).toEqual(rows.map((r) => r.text));
  });
});
