import { EventStore } from '@bismarck/event-store';
import { createHash } from 'node:crypto';
import { rebuildDifferences, useTwoTestApps, type TestApp } from './support/app';
import { bearer, playOneAction, seededPick, type CreatedMatch } from './support/player';

// Player accounts (docs/players.md): an event stream per player, tokens shown once and kept only as
// hashes beside the log, revocation at once on every instance, deletion without rewriting the log.
describe('player accounts', () => {
  const { a, b } = useTwoTestApps();

  const register = async (name: string) => (await a.http().post('/api/players').send({ name }).expect(201)).body;
  const me = (t: TestApp, token: string) => t.http().get('/api/players/me').set(...bearer(token));
  const log = (id: string) => a.app.get(EventStore).readStream(id);
  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

  it('registers a player with a token shown once; the token acts as the player on every instance; the profile is public without it', async () => {
    const created = await register('Astrid');
    expect(created).toEqual({ id: expect.stringMatching(/^pl-[0-9a-f-]{36}$/), name: 'Astrid', token: expect.stringMatching(/^bskp_[A-Za-z0-9_-]{32}$/), tokenId: expect.stringMatching(/^tok_[A-Za-z0-9_-]{12}$/) });
    for (const t of [a, b]) {
      const profile = (await me(t, created.token).expect(200)).body;
      expect(profile).toEqual({ id: created.id, name: 'Astrid', rating: { mu: 25, sigma: 25 / 3, ordinal: 0 }, matches: 0, deleted: false, createdAt: expect.any(String) });
      const open = await t.http().get(`/api/players/${created.id}`).expect(200);
      expect(open.body).toEqual(profile);
      expect(open.text).not.toContain(created.token);
      expect(open.text).not.toContain(created.tokenId);
    }
    // The log records the account, never the token or its hash.
    const events = await log(created.id);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['PlayerRegistered', { playerId: created.id, name: 'Astrid' }],
      ['TokenIssued', { tokenId: created.tokenId }],
    ]);
    expect(JSON.stringify(events)).not.toContain(created.token);
    expect(JSON.stringify(events)).not.toContain(sha256(created.token));
  });

  it('renames (the same name again appends nothing), and refuses a bad name with 400 changing nothing', async () => {
    const created = await register('Bjørn');
    const renamed = (await a.http().patch('/api/players/me').set(...bearer(created.token)).send({ name: 'Bjørn B.' }).expect(200)).body;
    expect(renamed.name).toBe('Bjørn B.');
    await a.http().patch('/api/players/me').set(...bearer(created.token)).send({ name: 'Bjørn B.' }).expect(200);
    expect((await log(created.id)).map((e) => e.type)).toEqual(['PlayerRegistered', 'TokenIssued', 'PlayerRenamed']);
    for (const name of ['', '   ', 'x'.repeat(41), 'tab\there', 42]) {
      const res = await a.http().patch('/api/players/me').set(...bearer(created.token)).send({ name }).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    await a.http().post('/api/players').send({ name: ' ' }).expect(400);
    await a.http().post('/api/players').send({}).expect(400);
    expect((await log(created.id)).length).toBe(3);
    expect((await b.http().get(`/api/players/${created.id}`).expect(200)).body.name).toBe('Bjørn B.');
  });

  it('a second token for a second device; a revoked token answers 401 at once on both instances, the other goes on working', async () => {
    const created = await register('Cecilia');
    const second = (await a.http().post('/api/players/me/tokens').set(...bearer(created.token)).expect(201)).body;
    expect(second).toEqual({ token: expect.stringMatching(/^bskp_/), tokenId: expect.stringMatching(/^tok_/) });
    expect((await me(b, second.token).expect(200)).body.id).toBe(created.id);
    await b.http().delete(`/api/players/me/tokens/${created.tokenId}`).set(...bearer(second.token)).expect(204);
    for (const t of [a, b]) {
      const refused = await me(t, created.token).expect(401);
      expect(refused.body.code).toBe('UNAUTHORIZED');
      await me(t, second.token).expect(200);
    }
    // Revoked already, or never the player's: 404, nothing appended.
    const before = (await log(created.id)).length;
    expect((await a.http().delete(`/api/players/me/tokens/${created.tokenId}`).set(...bearer(second.token)).expect(404)).body.code).toBe('TOKEN_NOT_FOUND');
    expect((await a.http().delete('/api/players/me/tokens/nonsense').set(...bearer(second.token)).expect(404)).body.code).toBe('TOKEN_NOT_FOUND');
    expect((await log(created.id)).length).toBe(before);
    // A token may revoke itself.
    await a.http().delete(`/api/players/me/tokens/${second.tokenId}`).set(...bearer(second.token)).expect(204);
    await me(b, second.token).expect(401);
  });

  it('holds at most 20 tokens at once (409 TOO_MANY_TOKENS); revoking one frees a place', async () => {
    const created = await register('Dagny');
    const ids = [created.tokenId];
    for (let i = 1; i < 20; i++) ids.push((await a.http().post('/api/players/me/tokens').set(...bearer(created.token)).expect(201)).body.tokenId);
    expect((await a.http().post('/api/players/me/tokens').set(...bearer(created.token)).expect(409)).body.code).toBe('TOO_MANY_TOKENS');
    await a.http().delete(`/api/players/me/tokens/${ids[5]}`).set(...bearer(created.token)).expect(204);
    await a.http().post('/api/players/me/tokens').set(...bearer(created.token)).expect(201);
  });

  it('deleting the account stops every token and shows "deleted player", without rewriting the log', async () => {
    const created = await register('Eero');
    const second = (await a.http().post('/api/players/me/tokens').set(...bearer(created.token)).expect(201)).body;
    await a.http().delete('/api/players/me').set(...bearer(second.token)).expect(204);
    for (const t of [a, b]) {
      await me(t, created.token).expect(401);
      await me(t, second.token).expect(401);
      expect((await t.http().get(`/api/players/${created.id}`).expect(200)).body).toMatchObject({ id: created.id, name: 'deleted player', deleted: true });
    }
    const events = await log(created.id);
    expect(events.map((e) => e.type)).toEqual(['PlayerRegistered', 'TokenIssued', 'TokenIssued', 'PlayerDeleted']);
    expect(events[0].data).toEqual({ playerId: created.id, name: 'Eero' });
  });

  it('refuses what is not a live player token: none, malformed, a seat token, an unknown one (401); an unknown player is 404', async () => {
    const match = (await a.http().post('/api/matches').send({ players: ['A', 'B', 'C'] }).expect(201)).body;
    for (const auth of [undefined, 'Bearer', 'Bearer not a token', `Bearer ${match.seats[0].token}`, `Bearer bskp_${'x'.repeat(32)}`, 'Basic abc']) {
      const req = a.http().get('/api/players/me');
      const res = await (auth === undefined ? req : req.set('Authorization', auth)).expect(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    for (const id of ['pl-00000000-0000-4000-8000-000000000000', match.id, 'me2', 'pl-%27']) {
      expect((await a.http().get(`/api/players/${id}`).expect(404)).body.code).toBe('PLAYER_NOT_FOUND');
    }
  });

  it('three players play a lobby match with one token each, from either instance; the third from a second client with a fresh token of her own', async () => {
    const [ann, bo, cyd] = [await register('Ann'), await register('Bo'), await register('Cyd')];
    // Binding needs the player's own token: none is 401, another's id is 403, and nothing is created.
    const before = (await a.http().get('/api/matches').expect(200)).body.items.length;
    expect((await a.http().post('/api/matches').send({ players: [{ player: ann.id }, null, null] }).expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await a.http().post('/api/matches').set(...bearer(bo.token)).send({ players: [{ player: ann.id }, null, null] }).expect(403)).body.code).toBe('FORBIDDEN');
    expect((await a.http().post('/api/matches').set(...bearer(ann.token)).send({ players: [{ player: ann.id, name: 'x' }, null, null] }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await a.http().get('/api/matches').expect(200)).body.items.length).toBe(before);

    const created = (await a.http().post('/api/matches').set(...bearer(ann.token)).send({ players: [{ player: ann.id }, null, null], options: { schedule: 'quick' } }).expect(201)).body;
    expect(created.seats).toEqual([{ seat: 0, name: 'Ann', token: expect.stringMatching(/^bsk_/) }]);
    // Bo joins with his player token and no name: the seat is bound and named after him; a second seat for him is refused.
    const joined = (await b.http().post(`/api/matches/${created.id}/seats/1/join`).set(...bearer(bo.token)).send({}).expect(201)).body;
    expect(joined).toMatchObject({ seat: 1, name: 'Bo', status: 'waiting' });
    expect((await a.http().post(`/api/matches/${created.id}/seats/2/join`).set(...bearer(bo.token)).send({}).expect(409)).body.code).toBe('ALREADY_SEATED');
    expect((await a.http().post(`/api/matches/${created.id}/seats/2/join`).set(...bearer(`bskp_${'y'.repeat(32)}`)).send({}).expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await a.http().post(`/api/matches/${created.id}/seats/2/join`).send({}).expect(400)).body.code).toBe('VALIDATION_FAILED');
    // Cyd takes the last seat from a second client, with a token of her own made for it.
    const cydPhone = (await a.http().post('/api/players/me/tokens').set(...bearer(cyd.token)).expect(201)).body;
    await a.http().post(`/api/matches/${created.id}/seats/2/join`).set(...bearer(cydPhone.token)).send({ name: 'Cyd (phone)' }).expect(201);
    const state = (await b.http().get(`/api/matches/${created.id}`).expect(200)).body;
    expect(state.status).toBe('playing');
    expect(state.seats).toEqual([
      { seat: 0, name: 'Ann', bot: null, player: ann.id },
      { seat: 1, name: 'Bo', bot: null, player: bo.id },
      { seat: 2, name: 'Cyd (phone)', bot: null, player: cyd.id },
    ]);

    // Each acts with a player token only (Cyd with her first one and her phone's by turns), on either instance.
    const tokens = [ann.token, bo.token, cyd.token];
    const match = (phone: boolean): CreatedMatch => ({ ...created, seats: [0, 1, 2].map((seat) => ({ seat, name: '', token: seat === 2 && phone ? cydPhone.token : tokens[seat] })) });
    const pick = seededPick(31);
    let step = 0;
    // A stranger's player token watches (public routes) but acts for no seat.
    const stranger = await register('Dag');
    expect((await a.http().get(`/api/matches/${created.id}/view`).set(...bearer(stranger.token)).expect(403)).body.code).toBe('FORBIDDEN');
    await a.http().get(`/api/matches/${created.id}`).set(...bearer(stranger.token)).expect(200);
    let sawMyTurn = false;
    while (await playOneAction(step % 2 === 0 ? a.http : b.http, match(step % 3 === 0), pick)) {
      if (step++ === 5) {
        // My matches, mid-match: it is someone's turn, and only theirs says so.
        const turn = (await a.http().get(`/api/matches/${created.id}`).expect(200)).body.turn;
        for (const [seat, p] of [ann, bo, cyd].entries()) {
          const mine = (await a.http().get('/api/players/me/matches?status=playing').set(...bearer(p.token)).expect(200)).body;
          expect(mine.items).toEqual([{ id: created.id, seat, status: 'playing', yourTurn: seat === turn, opponents: state.seats.filter((s: { seat: number }) => s.seat !== seat), updatedAt: expect.any(String) }]);
          sawMyTurn ||= mine.items[0].yourTurn;
        }
      }
    }
    expect(sawMyTurn).toBe(true);
    const final = (await a.http().get(`/api/matches/${created.id}`).expect(200)).body;
    expect(final.status).toBe('finished');

    for (const [seat, p] of [ann, bo, cyd].entries()) {
      expect((await b.http().get('/api/players/me/matches?status=playing').set(...bearer(p.token)).expect(200)).body.items).toEqual([]);
      const finished = (await b.http().get('/api/players/me/matches?status=finished').set(...bearer(p.token)).expect(200)).body;
      expect(finished.items.map((m: { id: string; seat: number }) => [m.id, m.seat])).toEqual([[created.id, seat]]);
      expect((await a.http().get(`/api/players/${p.id}/matches`).expect(200)).body.items.map((m: { id: string }) => m.id)).toEqual([created.id]);
      expect((await a.http().get(`/api/players/${p.id}`).expect(200)).body.matches).toBe(1);
    }
    // No answer about the match shows a player token.
    const everything = [
      JSON.stringify(final),
      (await a.http().get(`/api/matches/${created.id}/events?limit=1000`).expect(200)).text,
      (await a.http().get(`/api/matches/${created.id}/export`).expect(200)).text,
      (await a.http().get(`/api/matches/${created.id}/notation`).expect(200)).text,
      (await a.http().get(`/api/players/${bo.id}/matches`).expect(200)).text,
    ].join('\n');
    for (const token of [ann.token, bo.token, cyd.token, cydPhone.token]) expect(everything).not.toContain(token);
    expect((await a.http().get(`/api/matches/${created.id}/audit`).expect(200)).body.ok).toBe(true);

    // Play again: the rematch binds the same players, so each one's own token acts there too.
    const rematch = (await b.http().post(`/api/matches/${created.id}/rematch`).set(...bearer(bo.token)).expect(201)).body;
    expect(rematch.seats).toEqual([{ seat: 1, name: 'Bo', token: null }]);
    expect((await a.http().get(`/api/matches/${rematch.id}`).expect(200)).body.seats.map((s: { player?: string }) => s.player)).toEqual([ann.id, bo.id, cyd.id]);
    for (const p of [ann, bo, cyd]) await a.http().get(`/api/matches/${rematch.id}/view`).set(...bearer(p.token)).expect(200);

    // Cyd's phone is lost: its token is revoked, and at once acts for nothing on either instance; her first token still does.
    await a.http().delete(`/api/players/me/tokens/${cydPhone.tokenId}`).set(...bearer(cyd.token)).expect(204);
    for (const t of [a, b]) {
      expect((await t.http().get(`/api/matches/${created.id}/view`).set(...bearer(cydPhone.token)).expect(401)).body.code).toBe('UNAUTHORIZED');
      await t.http().get(`/api/matches/${created.id}/view`).set(...bearer(cyd.token)).expect(200);
    }
  }, 120_000);

  it('pages through my matches with a cursor, and refuses a cursor it did not hand out', async () => {
    const p = await register('Pager');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await a.http().post('/api/matches').set(...bearer(p.token)).send({ players: [{ player: p.id }, { bot: 'random' }, null] }).expect(201)).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = (await a.http().get(`/api/players/me/matches?limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(...bearer(p.token)).expect(200)).body;
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(ids.sort());
    for (const bad of ['nonsense', Buffer.from('[true,"x","y"]').toString('base64url')]) {
      expect((await a.http().get(`/api/players/me/matches?cursor=${bad}`).set(...bearer(p.token)).expect(400)).body.code).toBe('VALIDATION_FAILED');
    }
    expect((await a.http().get('/api/players/me/matches?status=lost').set(...bearer(p.token)).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });

  it('the rebuild reproduces the players table from the log, row for row', async () => {
    const differences = await rebuildDifferences(a.app);
    expect(differences.find((d) => d.table === 'players')).toEqual({ table: 'players', onlyLive: 0, onlyRebuilt: 0 });
    expect(differences.every((d) => d.onlyLive === 0 && d.onlyRebuilt === 0)).toBe(true);
  });
});
