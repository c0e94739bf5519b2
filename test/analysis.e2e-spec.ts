import { SUITS, trickWinner, type Card, type PlayedCard, type Seat } from '@bismarck/rules';
import { solve } from '@bismarck/solver';
import { EventStore } from '@bismarck/event-store';
import { DataSource } from 'typeorm';
import { AnalysesByContent1799000011000, AnalysisTable } from '@bismarck/projections';
import { useTestApp } from './support/app';
import { AnalysisService } from '../apps/api/src/game/analysis/analysis.service';
import { bearer, createMatch, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';

// GET /api/matches/{id}/analysis?deal=N: refused until the deal is scored, then every card valued by
// the solver in a worker thread, computed once and kept. A small node budget keeps the test quick:
// the first tricks of a deal may go over it (null values), the rest is solved.
const ADMIN = 'analysis-admin-token-0123456789';
const ENV = { ANALYSIS_MAX_NODES: '200000', ANALYSIS_WAIT_MS: '0', ANALYSIS_PER_ADDRESS: '1', ADMIN_TOKEN: ADMIN };
const saved: Record<string, string | undefined> = {};
const t = useTestApp(
  () => Object.entries(ENV).forEach(([k, v]) => ((saved[k] = process.env[k]), (process.env[k] = v))),
  () => Object.keys(ENV).forEach((k) => (saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k]))),
);

const pick = seededPick(5);

/** Plays until `deal` deals are scored. */
async function playUntilScored(m: CreatedMatch, deal: number): Promise<void> {
  for (;;) {
    const card = (await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body;
    if (card.deals.length >= deal) return;
    if (!(await playOneAction(t.http, m, pick))) throw new Error('the match ended first');
  }
}

/**
 * Asks until the analysis is done, as a client does: after `Retry-After` on each 202 (or 429: this
 * address's last deal may be stored a moment before it stops counting as computing).
 */
async function analysisOf(m: CreatedMatch, deal: number): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const res = await t.http().get(`/api/matches/${m.id}/analysis?deal=${deal}`);
    if (res.status === 200) return res.body;
    if (res.status === 429 && res.body.code === 'RATE_LIMITED') {
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending', matchId: m.id, deal, retryAfter: 2 });
    expect(res.headers['retry-after']).toBe('2');
    await new Promise((r) => setTimeout(r, 200)); // quicker than Retry-After: a test has no one else to share with
  }
  throw new Error('no analysis after 2 minutes');
}

async function computedCount(): Promise<number> {
  const text = (await t.http().get('/metrics').expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith('bismarck_deal_analyses_total{outcome="done"}'));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('GET /api/matches/{id}/analysis', () => {
  let m: CreatedMatch;
  let analysis: any;
  let events: any[];

  beforeAll(async () => {
    m = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'analysis-e2e' });
    await playUntilScored(m, 1);
    // Into deal 2: dealt, its contract chosen and a few cards played.
    for (let i = 0; i < 8; i++) await playOneAction(t.http, m, pick);
    events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
  }, 120_000);

  it('refuses a deal in play, or not played yet, with 409 DEAL_NOT_SCORED and no card', async () => {
    for (const deal of [2, 3]) {
      const res = await t.http().get(`/api/matches/${m.id}/analysis?deal=${deal}`).expect(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 409, code: 'DEAL_NOT_SCORED' });
      expect(res.text).not.toMatch(/[2-9TJQKA][SHDC]/);
    }
    // A seat's token shows no more.
    const seat = await t.http().get(`/api/matches/${m.id}/analysis?deal=2`).set(...bearer(m.seats[0].token)).expect(409);
    expect(seat.body.code).toBe('DEAL_NOT_SCORED');
  });

  it.each([['0'], ['-1'], ['x'], ['1.5'], [''], ['4']])('refuses deal=%p with 400 VALIDATION_FAILED naming the parameter', async (deal) => {
    const res = await t.http().get(`/api/matches/${m.id}/analysis?deal=${deal}`).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [expect.objectContaining({ parameter: 'deal' })] });
  });

  it('refuses a request without deal, and an unknown match with 404', async () => {
    expect((await t.http().get(`/api/matches/${m.id}/analysis`).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await t.http().get('/api/matches/00000000-0000-4000-8000-000000000000/analysis?deal=1').expect(404)).body.code).toBe('MATCH_NOT_FOUND');
    expect((await t.http().get('/api/matches/nope/analysis?deal=1').expect(404)).body.code).toBe('MATCH_NOT_FOUND');
  });

  it('answers 202 pending with Retry-After while computing, then the analysis of a scored deal: one entry per card played', async () => {
    const before = await computedCount();
    const first = await t.http().get(`/api/matches/${m.id}/analysis?deal=1`);
    expect(first.status).toBe(202); // ANALYSIS_WAIT_MS=0: nobody waits
    analysis = await analysisOf(m, 1);
    expect(await computedCount()).toBe(before + 1);

    const played = events.filter((e) => e.type === 'CardPlayed' && e.data.deal === 1).map((e) => e.data);
    const scored = events.find((e) => e.type === 'DealScored' && e.data.deal === 1).data;
    expect(analysis).toMatchObject({ status: 'done', matchId: m.id, deal: 1, contract: scored.contract, trump: scored.trump, forehand: scored.forehand, quotas: scored.quotas, voidedAttempts: 0, maxNodes: 200_000 });
    expect(analysis.actual).toEqual({ tricks: scored.tricks, points: scored.points });
    expect(analysis.goal).toBe(scored.contract === 'pass' ? 'fewest' : 'most');
    expect(analysis.cards.map((c: any) => ({ trick: c.trick, seat: c.seat, card: c.card }))).toEqual(played.map((p: any) => ({ trick: p.trick, seat: p.seat, card: p.card })));
    expect(analysis.cards).toHaveLength(48);
    let solved = 0;
    for (const c of analysis.cards) {
      if (c.overBudget) {
        expect(c.cost).toBeNull();
        continue;
      }
      solved++;
      expect(c.cost).toBeGreaterThanOrEqual(0);
      expect(c.cost).toBe(analysis.goal === 'most' ? c.before - c.after : c.after - c.before);
    }
    expect(solved).toBeGreaterThan(30);
    expect(analysis.cards.slice(-3).map((c: any) => c.cost)).toEqual([0, 0, 0]);
    for (const c of analysis.cards.slice(-3)) expect(c.after).toBe(scored.tricks[c.seat]);
  }, 180_000);

  it('agrees with a direct solve of late positions', () => {
    const played: { seat: Seat; card: Card }[] = events.filter((e) => e.type === 'CardPlayed' && e.data.deal === 1).map((e) => e.data);
    const trump = analysis.trump === null ? -1 : SUITS.indexOf(analysis.trump);
    for (const k of [36, 37, 41]) {
      const hands: [Card[], Card[], Card[]] = [[], [], []];
      for (const p of played.slice(k)) hands[p.seat].push(p.card);
      const done = k - (k % 3);
      const taken = [0, 0, 0];
      for (let i = 0; i < done; i += 3) taken[trickWinner(played.slice(i, i + 3), trump)]++;
      const trick: PlayedCard[] = played.slice(done, k);
      const turn = played[k].seat;
      const options = events.find((e) => e.type === 'MatchCreated').data.options;
      const s = solve({ hands, contract: analysis.contract, trump: analysis.trump, trick, turn, perspective: turn, mustTrump: options.mustTrump });
      expect({ k, before: analysis.cards[k].before, after: analysis.cards[k].after }).toEqual({
        k,
        before: taken[turn] + s.tricks,
        after: taken[turn] + s.cards.find((c) => c.card === played[k].card)!.tricks,
      });
    }
  });

  it('serves a second request from the table: no recompute, the same document', async () => {
    const before = await computedCount();
    const again = await t.http().get(`/api/matches/${m.id}/analysis?deal=1`).expect(200);
    expect(again.body).toEqual(analysis);
    expect(again.body.computedAt).toBe(analysis.computedAt);
    expect(await computedCount()).toBe(before);
  });

  it('keeps the analyses through a rebuild of the projections (derived from the log, never changed)', async () => {
    const before = await computedCount();
    await t.http().post('/api/admin/rebuild').set('Authorization', `Bearer ${ADMIN}`).expect(200);
    const again = await t.http().get(`/api/matches/${m.id}/analysis?deal=1`).expect(200);
    expect(again.body).toEqual(analysis);
    expect(await computedCount()).toBe(before);
  }, 120_000);

  it('keeps the first analysis when two processes race to store one deal (the insert changes nothing the second time)', async () => {
    const table = new AnalysisTable(t.app.get(EventStore).queryable);
    const first = await table.keep('race', 1, 'sha256:race', { by: 'first' }, 1000, 5);
    const second = await table.keep('race', 1, 'sha256:race', { by: 'second' }, 1000, 7);
    expect(second).toEqual(first);
    expect(second.doc).toEqual({ by: 'first' });
    // Another match's deal of the same content names the same solve.
    expect(await table.link('race-fork', 1, 'sha256:race')).toEqual({ ...first, matchId: 'race-fork' });
    expect(await table.link('race-fork', 2, 'sha256:never-solved')).toBeNull();
  });

  it('computes a deal once for concurrent requests', async () => {
    await playUntilScored(m, 2);
    const before = await computedCount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.http().get(`/api/matches/${m.id}/analysis?deal=2`)));
    for (const a of answers) expect([200, 202]).toContain(a.status);
    const done = await analysisOf(m, 2);
    expect(done.cards).toHaveLength(48);
    expect(await computedCount()).toBe(before + 1);
  }, 180_000);
});

describe('one client asking for many deals (here: ANALYSIS_PER_ADDRESS=1)', () => {
  it('computes one new deal at a time for an address: another is 429 RATE_LIMITED with Retry-After until it is done', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'analysis-per-address' });
    await playUntilScored(m, 2);
    const before = await computedCount();
    // Asked at once: both reach the service before either deal is solved.
    const answers = await Promise.all([1, 2].map((deal) => t.http().get(`/api/matches/${m.id}/analysis?deal=${deal}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 4 });
    expect(refused.headers['retry-after']).toBe('4');
    const first = (answers.find((a) => a.status === 202)!.body as { deal: number }).deal;
    const second = 3 - first;
    // The deal being computed is shared with every request for it, from any address.
    expect((await t.http().get(`/api/matches/${m.id}/analysis?deal=${first}`)).status).not.toBe(429);
    expect((await analysisOf(m, first)).cards).toHaveLength(48);
    expect((await analysisOf(m, second)).cards).toHaveLength(48);
    expect(await computedCount()).toBe(before + 2);
  }, 180_000);
});

describe('a voided deal (leadBeforeDiscard: redeal)', () => {
  it('analyses the attempt that was played, and counts the voided one', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick', leadBeforeDiscard: 'redeal' }, seed: 'analysis-void' });
    // Forehand leads before laying away once: the deal is void and dealt again.
    let voided = false;
    while (!voided) {
      const state = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
      const seat = state.turn as number;
      const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[seat].token)).expect(200)).body;
      if (view.legal.action === 'discard') {
        await t.http().post(`/api/matches/${m.id}/play`).set(...bearer(m.seats[seat].token)).send({ card: view.hand[0] }).expect(200);
        voided = true;
      } else {
        await playOneAction(t.http, m, pick);
      }
    }
    expect((await t.http().get(`/api/matches/${m.id}/analysis?deal=1`).expect(409)).body.code).toBe('DEAL_NOT_SCORED');
    await playUntilScored(m, 1);
    const analysis = await analysisOf(m, 1);
    expect(analysis).toMatchObject({ deal: 1, voidedAttempts: 1 });
    expect(analysis.cards).toHaveLength(48);
  }, 180_000);
});

describe('a fork and its source: the same deals, solved once (analyses kept by the deal\'s content)', () => {
  it("answers a fork's deal from its source's solve, and solves a deal asked of both at once once", async () => {
    const source = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'analysis-fork' });
    await playToEnd(t.http, source, pick);
    const { version } = (await t.http().get(`/api/matches/${source.id}`).expect(200)).body;
    const fork: CreatedMatch = (await t.http().post(`/api/matches/${source.id}/fork?version=${version}`).expect(201)).body;
    const before = await computedCount();

    const original = await analysisOf(source, 1);
    expect(await computedCount()).toBe(before + 1);
    const forked = await analysisOf(fork, 1);
    expect(await computedCount()).toBe(before + 1); // no second solve
    expect(forked).toEqual({ ...original, matchId: fork.id }); // the same document, computed once (computedAt)

    // Deal 2 asked of both at once, from two addresses: both accepted, one solve shared.
    const service = t.app.get(AnalysisService);
    await Promise.all([service.analysis(source.id, 2, 'address-1'), service.analysis(fork.id, 2, 'address-2')]);
    const [a, b] = [await analysisOf(source, 2), await analysisOf(fork, 2)];
    expect(b).toEqual({ ...a, matchId: fork.id });
    expect(await computedCount()).toBe(before + 2);
  }, 180_000);
});

describe('migration AnalysesByContent1799000011000', () => {
  it('keeps every analysis kept before it (down, then up again): served as before, without a solve', async () => {
    const db = t.app.get(DataSource);
    const table = new AnalysisTable(t.app.get(EventStore).queryable);
    const keys: { match_id: string; deal: number }[] = await db.query(`SELECT match_id, deal FROM deal_analyses ORDER BY match_id, deal`);
    expect(keys.length).toBeGreaterThan(3);
    const before = await Promise.all(keys.map((k) => table.get(k.match_id, k.deal)));
    // Everything through the runner while it holds its connection: the embedded database has only one.
    const runner = db.createQueryRunner();
    try {
      await new AnalysesByContent1799000011000().down(runner);
      const [{ n }] = await runner.query(`SELECT count(*)::int AS n FROM deal_analyses WHERE doc IS NOT NULL`);
      expect(n).toBe(keys.length);
      await new AnalysesByContent1799000011000().up(runner);
      const legacy = await runner.query(`SELECT count(*)::int AS n FROM deal_analyses WHERE content = 'match:' || match_id || ':' || deal`);
      expect(legacy[0].n).toBe(keys.length);
    } finally {
      await runner.release();
    }
    expect(await Promise.all(keys.map((k) => table.get(k.match_id, k.deal)))).toEqual(before);
    const solved = await computedCount();
    const [first] = keys.filter((k) => !k.match_id.startsWith('race'));
    const again = await t.http().get(`/api/matches/${first.match_id}/analysis?deal=${first.deal}`).expect(200);
    expect(again.body.computedAt).toBe(before[keys.indexOf(first)]!.computedAt);
    expect(await computedCount()).toBe(solved);
  }, 60_000);
});
