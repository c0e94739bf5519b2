import { auditMatch } from '@bismarck/audit';
import { rebuildDifferences, useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';

const t = useTestApp();

describe('lobby tables: open seats, joins, waiting', () => {
  it('creates a table with open seats: only the named seats get tokens, status waiting, listed as open', async () => {
    const res = await t.http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick' } }).expect(201);
    expect(res.body).toMatchObject({ status: 'waiting', seats: [{ seat: 0, name: 'Astrid', token: expect.stringMatching(/^bsk_/) }] });
    expect(res.body.seats).toHaveLength(1);
    const state = (await t.http().get(`/api/matches/${res.body.id}`).expect(200)).body;
    expect(state).toMatchObject({ status: 'waiting', turn: null, seats: [{ seat: 0, name: 'Astrid' }, { seat: 1, name: null }, { seat: 2, name: null }] });
    const open = (await t.http().get('/api/matches?status=waiting&limit=100').expect(200)).body;
    expect(open.items.find((m: { id: string }) => m.id === res.body.id)).toMatchObject({ status: 'waiting', players: ['Astrid', null, null] });
  });

  it('joins seat by seat; a taken seat is 409 SEAT_TAKEN; the last join starts the match', async () => {
    const created = (await t.http().post('/api/matches').send({ players: [null, 'Bjørn', null] }).expect(201)).body;
    const join1 = await t.http().post(`/api/matches/${created.id}/seats/0/join`).send({ name: 'Astrid' }).expect(201);
    expect(join1.body).toMatchObject({ id: created.id, seat: 0, name: 'Astrid', status: 'waiting', token: expect.stringMatching(/^bsk_/) });
    const taken = await t.http().post(`/api/matches/${created.id}/seats/1/join`).send({ name: 'Eve' }).expect(409);
    expect(taken.headers['content-type']).toMatch(/problem\+json/);
    expect(taken.body.code).toBe('SEAT_TAKEN');
    // Before the table is full: a seat token works for views, but commands are refused.
    await t.http().get(`/api/matches/${created.id}/view`).set(...bearer(join1.body.token)).expect(200);
    const early = await t.http().post(`/api/matches/${created.id}/deal`).set(...bearer(join1.body.token)).expect(409);
    expect(early.body.code).toBe('MATCH_NOT_STARTED');

    const join2 = await t.http().post(`/api/matches/${created.id}/seats/2/join`).send({ name: 'Cecilia' }).expect(201);
    expect(join2.body.status).toBe('playing');
    const state = (await t.http().get(`/api/matches/${created.id}`).expect(200)).body;
    expect(state).toMatchObject({ status: 'playing', phase: 'deal', seats: [{ name: 'Astrid' }, { name: 'Bjørn' }, { name: 'Cecilia' }] });
    expect(state.turn).toEqual(expect.any(Number));

    // Every seat's token now acts for its seat, and the match plays.
    const match: CreatedMatch = {
      id: created.id,
      version: join2.body.version,
      firstDealer: created.firstDealer,
      seats: [
        { seat: 0, name: 'Astrid', token: join1.body.token },
        created.seats[0],
        { seat: 2, name: 'Cecilia', token: join2.body.token },
      ],
    };
    for (let i = 0; i < 5; i++) expect(await playOneAction(t.http, match)).toBe(true);
    const again = await t.http().post(`/api/matches/${created.id}/seats/0/join`).send({ name: 'Eve' }).expect(409);
    expect(again.body.code).toBe('SEAT_TAKEN');
    // The log shows the joins to everyone.
    const log = (await t.http().get(`/api/matches/${created.id}/events`).expect(200)).body;
    expect(log.events.filter((e: { type: string }) => e.type === 'SeatJoined').map((e: { data: unknown }) => e.data)).toEqual([
      { seat: 0, name: 'Astrid' },
      { seat: 2, name: 'Cecilia' },
    ]);
  });

  it('two players racing for the same seat: exactly one gets it', async () => {
    const created = (await t.http().post('/api/matches').send({ players: ['A', 'B', null] }).expect(201)).body;
    const answers = await Promise.all(['X', 'Y', 'Z'].map((name) => t.http().post(`/api/matches/${created.id}/seats/2/join`).send({ name })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  });

  it('a table with every seat open: a token of another match is 403, a bogus one 401, an unknown match 404', async () => {
    const created = (await t.http().post('/api/matches').send({ players: [null, null, null] }).expect(201)).body;
    expect(created.seats).toEqual([]);
    const other: CreatedMatch = await createMatch(t.http);
    await t.http().get(`/api/matches/${created.id}`).set(...bearer(other.seats[0].token)).expect(403);
    await t.http().get(`/api/matches/${created.id}`).set(...bearer('bsk_unknown')).expect(401);
    await t.http().post('/api/matches/00000000-0000-4000-8000-000000000000/seats/0/join').send({ name: 'A' }).expect(404);
  });

  it.each([
    ['a seat that is not 0, 1 or 2', '3', { name: 'A' }],
    ['a blank name', '0', { name: '  ' }],
    ['no name', '0', {}],
    ['an unknown field', '0', { name: 'A', token: 'x' }],
  ])('refuses %s: 400 VALIDATION_FAILED', async (_name, seat, body) => {
    const created = (await t.http().post('/api/matches').send({ players: [null, null, null] }).expect(201)).body;
    const res = await t.http().post(`/api/matches/${created.id}/seats/${seat}/join`).send(body).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses players that are neither names nor null', async () => {
    for (const players of [['A', 'B'], ['A', 'B', 3], ['A', '', null], ['A', 'B', 'C', 'D']]) {
      const res = await t.http().post('/api/matches').send({ players }).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('a lobby match played to the end audits clean, verifies offline, lists its players, and equals its rebuild', async () => {
    const created = (await t.http().post('/api/matches').send({ players: ['Host', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    const joined = [];
    for (const [seat, name] of [[2, 'Cecilia'], [1, 'Bjørn']] as const) {
      joined[seat] = (await t.http().post(`/api/matches/${created.id}/seats/${seat}/join`).send({ name }).expect(201)).body;
    }
    const match: CreatedMatch = {
      id: created.id,
      version: joined[1].version,
      firstDealer: created.firstDealer,
      seats: [created.seats[0], { seat: 1, name: 'Bjørn', token: joined[1].token }, { seat: 2, name: 'Cecilia', token: joined[2].token }],
    };
    const listed = async () => (await t.http().get('/api/matches?limit=100').expect(200)).body.items.find((m: { id: string }) => m.id === created.id);
    // Listed with its players as soon as they join, not only at creation.
    expect((await listed()).players).toEqual(['Host', 'Bjørn', 'Cecilia']);
    await playToEnd(t.http, match, seededPick(16));

    const state = (await t.http().get(`/api/matches/${created.id}`).expect(200)).body;
    expect(await listed()).toMatchObject({ status: 'finished', players: ['Host', 'Bjørn', 'Cecilia'], version: state.version, totals: state.totals });
    const audit = (await t.http().get(`/api/matches/${created.id}/audit`).expect(200)).body;
    expect(audit.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    expect(audit).toMatchObject({ ok: true, firstFailure: null });
    const exported = (await t.http().get(`/api/matches/${created.id}/export`).expect(200)).body;
    expect(auditMatch(exported)).toMatchObject({ ok: true, seeded: false });

    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 120_000);

  it('refuses open seats in a seeded match (400 SEED_WITH_OPEN_SEATS) and creates nothing', async () => {
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    for (const players of [['Host', null, 'Guest'], [null, null, null]]) {
      const res = await t.http().post('/api/matches').send({ players, seed: 'sandbox-1' }).expect(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe('SEED_WITH_OPEN_SEATS');
    }
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before);
    // Three named seats with a seed are still a sandbox match.
    await t.http().post('/api/matches').send({ players: ['A', 'B', 'C'], seed: 'sandbox-1' }).expect(201);
  });
});
