import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, type CreatedMatch } from './support/player';

const t = useTestApp();

const state = async (m: CreatedMatch) => (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
const view = async (m: CreatedMatch, seat: number) =>
  (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[seat].token)).expect(200)).body;
const post = (m: CreatedMatch, seat: number | null, path: string, body?: unknown) => {
  const req = t.http().post(`/api/matches/${m.id}/${path}`);
  if (seat !== null) req.set(...bearer(m.seats[seat].token));
  return body === undefined ? req : req.send(body as object);
};

/** Plays actions until the public phase is `phase`. */
async function advanceTo(m: CreatedMatch, phase: string): Promise<any> {
  for (let s = await state(m); ; s = await state(m)) {
    if (s.phase === phase) return s;
    await playOneAction(t.http, m);
  }
}

/** Sends a command, expects a problem with this status and code, and checks that nothing was appended. */
async function refused(m: CreatedMatch, send: () => PromiseLike<any>, status: number, code: string): Promise<{ body: any }> {
  const before = (await state(m)).version;
  const res = await send();
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  expect((await state(m)).version).toBe(before);
  return res;
}

describe('refused commands: status, code, and nothing appended', () => {
  let m: CreatedMatch;
  beforeAll(async () => {
    m = await createMatch(t.http);
  });

  it('deal: not the dealer → 409 NOT_YOUR_TURN', async () => {
    const s = await state(m);
    await refused(m, () => post(m, (s.dealer + 1) % 3, 'deal'), 409, 'NOT_YOUR_TURN');
  });
  it('contract, discard and play before the deal → 409 WRONG_PHASE', async () => {
    const s = await state(m);
    await refused(m, () => post(m, s.forehand, 'contract', { contract: 'pass' }), 409, 'WRONG_PHASE');
    await refused(m, () => post(m, s.forehand, 'discard', { cards: ['2C', '3C', '4C', '5C'] }), 409, 'WRONG_PHASE');
    await refused(m, () => post(m, s.forehand, 'play', { card: '2C' }), 409, 'WRONG_PHASE');
  });
  it('no token → 401 UNAUTHORIZED; unknown token → 401; malformed header → 401', async () => {
    await refused(m, () => post(m, null, 'deal'), 401, 'UNAUTHORIZED');
    await refused(m, () => t.http().post(`/api/matches/${m.id}/deal`).set('Authorization', 'Bearer bsk_nope'), 401, 'UNAUTHORIZED');
    await refused(m, () => t.http().post(`/api/matches/${m.id}/deal`).set('Authorization', 'Basic abc'), 401, 'UNAUTHORIZED');
    const token = m.seats[0].token;
    for (const header of [token, `Bearer${token}`, `Bearer ${token}, Bearer ${m.seats[1].token}`, `Bearer ${token} x`, `Bearer\t${token}`]) {
      await refused(m, () => t.http().get(`/api/matches/${m.id}/view`).set('Authorization', header), 401, 'UNAUTHORIZED');
    }
  });
  it('reads the Bearer scheme in any case and after more than one space (RFC 9110): the same seat', async () => {
    for (const scheme of ['bearer ', 'BEARER ', 'Bearer   ', 'bEaReR ']) {
      const view = await t.http().get(`/api/matches/${m.id}/view`).set('Authorization', `${scheme}${m.seats[2].token}`).expect(200);
      expect(view.body.seat).toBe(2);
    }
  });
  it("another match's token → 403 FORBIDDEN, for commands and views", async () => {
    const other = await createMatch(t.http);
    await refused(m, () => t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(other.seats[0].token)), 403, 'FORBIDDEN');
    const res = await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(other.seats[0].token));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
  it('unknown match → 404 MATCH_NOT_FOUND', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const res of [
      await t.http().get(`/api/matches/${id}`),
      await t.http().get(`/api/matches/${id}/scorecard`),
      await t.http().get(`/api/matches/${id}/events`),
      await t.http().post(`/api/matches/${id}/deal`).set(...bearer(m.seats[0].token)),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'MATCH_NOT_FOUND' });
    }
  });
  it('stale If-Match → 412 VERSION_MISMATCH with the current version; a fresh one is applied', async () => {
    const s = await state(m);
    const stale = await refused(m, () => post(m, s.dealer, 'deal').set('If-Match', `"${s.version - 1}"`), 412, 'VERSION_MISMATCH');
    expect(stale.body.currentVersion).toBe(s.version);
    // The document names that member, so the typed client's problem type has it.
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expect(doc.components.schemas.ProblemDto.properties.currentVersion).toMatchObject({ type: 'integer' });
    expect(doc.paths['/api/matches/{id}/deal'].post.responses['412'].content['application/problem+json'].examples.VERSION_MISMATCH.value).toMatchObject({ currentVersion: 13 });
    const res = await post(m, s.dealer, 'deal').set('If-Match', `"${s.version}"`).expect(200);
    expect(res.body.version).toBe(s.version + 1);
  });
  it('If-Match: * asks for no version (RFC 9110): the command goes through at any version; a list of versions is 400', async () => {
    const other = await createMatch(t.http);
    const s = (await t.http().get(`/api/matches/${other.id}`).expect(200)).body;
    await refused(other, () => t.http().post(`/api/matches/${other.id}/deal`).set(...bearer(other.seats[s.dealer].token)).set('If-Match', `"${s.version}", "${s.version + 1}"`), 400, 'VALIDATION_FAILED');
    const res = await t.http().post(`/api/matches/${other.id}/deal`).set(...bearer(other.seats[s.dealer].token)).set('If-Match', ' * ').expect(200);
    expect(res.body.version).toBeGreaterThan(s.version);
  });
  it('malformed bodies → 400 VALIDATION_FAILED', async () => {
    const s = await state(m);
    const fh = s.forehand;
    await refused(m, () => post(m, fh, 'contract', { contract: 'grand' }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'contract', { contract: 'pass', extra: true }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'contract').set('Content-Type', 'application/json').send('{"contract":'), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'contract', { contract: 'trump' }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'contract', { contract: 'pass', trump: 'H' }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'play', { card: 'XX' }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'discard', { cards: ['2C'] }), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'deal').set('If-Match', 'yesterday'), 400, 'VALIDATION_FAILED');
    await refused(m, () => post(m, fh, 'contract', { contract: 'pass' }).set('Idempotency-Key', 'ä'.repeat(3)), 400, 'VALIDATION_FAILED');
    const big = await t.http().post('/api/matches').send({ players: ['a', 'b', 'x'.repeat(20_000)] });
    expect({ status: big.status, code: big.body.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    const bad = await t.http().post('/api/matches').send({ players: ['a', 'b'] });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    const ctrl = await t.http().post('/api/matches').send({ players: ['a', 'b', 'c\u0007'] });
    expect(ctrl.status).toBe(400);
  });
  it('contract: not forehand → NOT_YOUR_TURN; discard and play before the contract → WRONG_PHASE', async () => {
    const s = await advanceTo(m, 'contract');
    await refused(m, () => post(m, s.dealer, 'contract', { contract: 'pass' }), 409, 'NOT_YOUR_TURN');
    await refused(m, () => post(m, s.forehand, 'discard', { cards: ['2C', '3C', '4C', '5C'] }), 409, 'WRONG_PHASE');
    await refused(m, () => post(m, s.forehand, 'deal'), 409, 'WRONG_PHASE');
  });
  it('play before the lay-away → 409 DISCARD_FIRST; a card not held → CARD_NOT_IN_HAND', async () => {
    const s = await state(m);
    await post(m, s.forehand, 'contract', { contract: 'notrump' }).expect(200);
    const fh = await view(m, s.forehand);
    expect(fh.hand).toHaveLength(20);
    await refused(m, () => post(m, s.forehand, 'play', { card: fh.hand[0] }), 409, 'DISCARD_FIRST');
    const notHeld = ['AS', 'KS', 'QS', 'JS', 'TS', '9S', '8S', '7S', '6S', '5S', '4S', '3S', '2S', 'AH', 'KH', 'QH', 'JH', 'TH', '9H', '8H', '7H', '6H', '5H', '4H', '3H'].filter(
      (c) => !fh.hand.includes(c),
    );
    await refused(m, () => post(m, s.forehand, 'discard', { cards: [...fh.hand.slice(0, 3), notHeld[0]] }), 409, 'CARD_NOT_IN_HAND');
    await refused(m, () => post(m, s.dealer, 'discard', { cards: fh.hand.slice(0, 4) }), 409, 'NOT_YOUR_TURN');
    await post(m, s.forehand, 'discard', { cards: fh.hand.slice(0, 4) }).expect(200);
  });
  it('play: wrong seat → NOT_YOUR_TURN; not following suit → MUST_FOLLOW_SUIT', async () => {
    let s = await state(m);
    await refused(m, () => post(m, (s.turn + 1) % 3, 'play', { card: '2C' }), 409, 'NOT_YOUR_TURN');
    // Find a seat that must follow suit and holds a card it may not play.
    for (let i = 0; i < 48; i++) {
      s = await state(m);
      const v = await view(m, s.turn);
      const illegal = v.hand.filter((c: string) => !v.legal.cards.includes(c));
      if (s.trick.length > 0 && illegal.length > 0) {
        await refused(m, () => post(m, s.turn, 'play', { card: illegal[0] }), 409, 'MUST_FOLLOW_SUIT');
        return;
      }
      await post(m, s.turn, 'play', { card: v.legal.cards[0] }).expect(200);
    }
    throw new Error('no seat ever had to follow suit');
  });
  it('compendium: a contract already played → CONTRACT_ALREADY_PLAYED', async () => {
    const s0 = await state(m);
    const forehand = s0.forehand;
    // Play on until this seat is forehand again and must choose.
    let s = await state(m);
    while (!(s.phase === 'contract' && s.forehand === forehand && s.dealNumber > s0.dealNumber)) {
      await playOneAction(t.http, m);
      s = await state(m);
    }
    await refused(m, () => post(m, forehand, 'contract', { contract: 'notrump' }), 409, 'CONTRACT_ALREADY_PLAYED');
  }, 60_000);
});

describe('options that refuse', () => {
  it('spadesInFreeTrump=false: naming spades → SPADES_NOT_ALLOWED', async () => {
    const m = await createMatch(t.http, { options: { spadesInFreeTrump: false } });
    const s = await advanceTo(m, 'contract');
    await refused(m, () => post(m, s.forehand, 'contract', { contract: 'trump', trump: 'S' }), 409, 'SPADES_NOT_ALLOWED');
  });
  it('a fourth round outside the traditional schedule → 400 VALIDATION_FAILED', async () => {
    const res = await t.http().post('/api/matches').send({ players: ['a', 'b', 'c'], options: { fourthRound: 'freeTrump' } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });
});

describe('who sees what', () => {
  it('a seat sees only its own hand; a spectator sees no hand; views need a token', async () => {
    const m = await createMatch(t.http, { options: { contractChoice: 'informed' } });
    await advanceTo(m, 'contract');
    const hands = await Promise.all([0, 1, 2].map(async (seat) => (await view(m, seat)).hand as string[]));
    expect(hands.map((h) => h.length).sort()).toEqual([16, 16, 16]);
    const all = new Set(hands.flat());
    expect(all.size).toBe(48);
    const spectator = JSON.stringify((await t.http().get(`/api/matches/${m.id}`).expect(200)).body);
    const events = JSON.stringify((await t.http().get(`/api/matches/${m.id}/events`).expect(200)).body);
    for (const card of all) {
      expect(spectator).not.toContain(`"${card}"`);
      expect(events).not.toContain(`"${card}"`);
    }
    // Seat 0 sees its own cards in the log, never another seat's.
    const seat0 = JSON.stringify((await t.http().get(`/api/matches/${m.id}/events`).set(...bearer(m.seats[0].token)).expect(200)).body);
    for (const card of hands[1].concat(hands[2])) expect(seat0).not.toContain(`"${card}"`);
    for (const card of hands[0]) expect(seat0).toContain(`"${card}"`);
    const res = await t.http().get(`/api/matches/${m.id}/view`);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('a command answers with its events as the caller may see them', async () => {
    const m = await createMatch(t.http);
    const s = await advanceTo(m, 'contract');
    const res = await post(m, s.forehand, 'contract', { contract: 'pass' }).expect(200);
    const dealt = res.body.events.find((e: { type: string }) => e.type === 'HandsDealt');
    const own = dealt.data.hands[s.forehand];
    expect(own).toHaveLength(16);
    expect(dealt.data.hands.filter((h: unknown) => h === null)).toHaveLength(2);
    expect(res.body.version).toBe(s.version + res.body.events.length);
  });
});

describe('concurrency and retries', () => {
  it('the same play sent 20 times in parallel appends exactly one event', async () => {
    const m = await createMatch(t.http);
    const s = await advanceTo(m, 'play');
    const v = await view(m, s.turn);
    const card = v.legal.cards[0];
    const results = await Promise.all(Array.from({ length: 20 }, () => post(m, s.turn, 'play', { card })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.status).toBe(409);
    const after = await state(m);
    expect(after.version).toBe(s.version + 1);
    const log = (await t.http().get(`/api/matches/${m.id}/events?after=${s.version}`).expect(200)).body;
    expect(log.events.map((e: { type: string }) => e.type)).toEqual(['CardPlayed']);
  });

  it('with an Idempotency-Key, 20 parallel retries all get the first answer and one event is appended', async () => {
    const m = await createMatch(t.http);
    const s = await advanceTo(m, 'play');
    const v = await view(m, s.turn);
    const card = v.legal.cards[0];
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(m, s.turn, 'play', { card }).set('Idempotency-Key', 'retry-me-1')),
    );
    for (const r of results) expect(r.status).toBe(200);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    expect((await state(m)).version).toBe(s.version + 1);
    // A late retry, after other commands moved the match on, still gets the first answer.
    await playOneAction(t.http, m);
    const late = await post(m, s.turn, 'play', { card }).set('Idempotency-Key', 'retry-me-1').expect(200);
    expect(late.body).toEqual(results[0].body);
    // Byte for byte, keys in the same order: a client may hash or diff the answers.
    const first = results.find((r) => r.text !== late.text);
    expect(first?.text).toBeUndefined();
    // The same key for another command is refused.
    const other = await post(m, s.turn, 'play', { card: v.hand.find((c: string) => c !== card) }).set('Idempotency-Key', 'retry-me-1');
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});
