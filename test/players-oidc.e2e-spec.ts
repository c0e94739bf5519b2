import { EventStore } from '@bismarck/event-store';
import { SignJWT, UnsecuredJWT } from 'jose';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rebuildDifferences, startTestApp, useTwoTestApps, type TestApp } from './support/app';
import { startIdentityProvider, type TestIdentityProvider } from './support/oidc';
import { bearer, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';
import { listenLocal } from './support/server';

// Signing in with the deployment's identity provider (docs/players.md, "Signing in with an identity
// provider"): a real OpenID Provider (oidc-provider, in a process of its own) issues ID tokens through
// its authorization code flow; the api finds its keys by discovery and verifies them over HTTP.
describe('players from an OpenID Connect issuer', () => {
  let idp: TestIdentityProvider;
  let stranger: TestIdentityProvider;
  const settings = { OIDC_AUDIENCE: 'bismarck', OIDC_JWKS_COOLDOWN_MS: '0', OIDC_JWKS_MAX_AGE_MS: '1000' };
  beforeAll(async () => {
    [idp, stranger] = await Promise.all([startIdentityProvider(), startIdentityProvider()]);
    Object.assign(process.env, settings, { OIDC_ISSUER: idp.issuer });
  }, 30_000);
  const { a, b } = useTwoTestApps();
  beforeAll(() => {
    for (const name of ['OIDC_ISSUER', ...Object.keys(settings)]) delete process.env[name];
  });
  afterAll(async () => {
    await Promise.all([idp?.stop(), stranger?.stop()]);
  });

  const me = (t: TestApp, token: string) => t.http().get('/api/players/me').set(...bearer(token));
  const log = (id: string) => a.app.get(EventStore).readStream(id);
  /** A 401 problem that says `detail` and shows nothing of the token. */
  const refused = (res: { status: number; body: { code: string; detail: string }; text: string }, token: string, detail: RegExp) => {
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.body.detail).toMatch(detail);
    for (const part of token.split('.').filter(Boolean)) expect(res.text).not.toContain(part);
  };

  it('registers the player at the first use of an ID token: one account for the identity, on every instance, named by the token', async () => {
    const token = await idp.idToken('248289761001', { name: 'Astrid', preferred_username: 'astrid' });
    const profile = (await me(a, token).expect(200)).body;
    expect(profile).toEqual({ id: expect.stringMatching(/^pl-[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), name: 'Astrid', rating: { mu: 25, sigma: 25 / 3, ordinal: 0 }, matches: 0, deleted: false, createdAt: expect.any(String) });
    expect((await me(a, token).expect(200)).body).toEqual(profile);
    expect((await me(b, token).expect(200)).body).toEqual(profile);
    // A new sign-in (a new token) is the same player.
    expect((await me(b, await idp.idToken('248289761001', { name: 'Someone else' })).expect(200)).body.id).toBe(profile.id);
    // The identity is in the player's own stream, the token nowhere; the public profile shows neither.
    const events = await log(profile.id);
    expect(events.map((e) => [e.type, e.data])).toEqual([['PlayerRegistered', { playerId: profile.id, name: 'Astrid', identity: { issuer: idp.issuer, subject: '248289761001' } }]]);
    expect(JSON.stringify(events)).not.toContain(token.split('.')[2]);
    const open = (await a.http().get(`/api/players/${profile.id}`).expect(200)).text;
    expect(open).not.toContain('248289761001');
  });

  it('two first uses at once, on two instances, register one account', async () => {
    const token = await idp.idToken('race-1', { name: 'Bjørn' });
    const [one, two] = await Promise.all([me(a, token), me(b, token)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body.id).toBe(two.body.id);
    expect((await log(one.body.id)).map((e) => e.type)).toEqual(['PlayerRegistered']);
  });

  it('names the account from name, else preferred_username, else "Player" (a claim that is no valid name is passed over)', async () => {
    const nameOf = async (sub: string, claims: Record<string, unknown>) => (await me(a, await idp.idToken(sub, claims)).expect(200)).body.name;
    expect(await nameOf('n-1', { preferred_username: 'cecilia_k' })).toBe('cecilia_k');
    expect(await nameOf('n-2', { name: 'x'.repeat(41), preferred_username: 'dagny' })).toBe('dagny');
    expect(await nameOf('n-3', { name: 'tab\there' })).toBe('Player');
    expect(await nameOf('n-4', {})).toBe('Player');
  });

  it("acts as the player everywhere: rename, personal tokens for a bot, creation binding, the lobby's join, seat routes and my matches", async () => {
    const ann = await idp.idToken('ann', { name: 'Ann' });
    const bo = await idp.idToken('bo', { name: 'Bo' });
    const annId = (await me(a, ann).expect(200)).body.id;
    const boId = (await me(a, bo).expect(200)).body.id;
    expect((await a.http().patch('/api/players/me').set(...bearer(ann)).send({ name: 'Ann A.' }).expect(200)).body.name).toBe('Ann A.');
    // A personal token for a script: it acts as the same player, and may be revoked with the JWT.
    const cli = (await b.http().post('/api/players/me/tokens').set(...bearer(ann)).expect(201)).body;
    expect((await me(a, cli.token).expect(200)).body.id).toBe(annId);
    await a.http().delete(`/api/players/me/tokens/${cli.tokenId}`).set(...bearer(ann)).expect(204);
    await me(a, cli.token).expect(401);

    // Binding a seat at creation: the JWT's player only.
    expect((await a.http().post('/api/matches').set(...bearer(ann)).send({ players: [{ player: boId }, null, null] }).expect(403)).body.code).toBe('FORBIDDEN');
    const created = (await a.http().post('/api/matches').set(...bearer(ann)).send({ players: [{ player: annId }, null, null], options: { schedule: 'quick' } }).expect(201)).body;
    expect(created.seats).toEqual([{ seat: 0, name: 'Ann A.', token: expect.stringMatching(/^bsk_/) }]);
    // The lobby's join with a JWT binds the seat and names it after the account.
    expect((await b.http().post(`/api/matches/${created.id}/seats/1/join`).set(...bearer(bo)).send({}).expect(201)).body).toMatchObject({ seat: 1, name: 'Bo' });
    expect((await a.http().post(`/api/matches/${created.id}/seats/2/join`).set(...bearer(bo)).send({}).expect(409)).body.code).toBe('ALREADY_SEATED');
    const cyd = (await a.http().post(`/api/matches/${created.id}/seats/2/join`).send({ name: 'Cyd' }).expect(201)).body;
    expect((await a.http().get(`/api/matches/${created.id}`).expect(200)).body.seats.map((s: { player?: string }) => s.player)).toEqual([annId, boId, undefined]);

    // Both JWTs act for their seats (views, commands), on either instance.
    const match: CreatedMatch = { ...created, seats: [ann, bo, cyd.token].map((token, seat) => ({ seat, name: '', token })) };
    const pick = seededPick(5);
    for (let step = 0; step < 8; step++) expect(await playOneAction(step % 2 ? a.http : b.http, match, pick)).toBe(true);
    const view = (await b.http().get(`/api/matches/${created.id}/view`).set(...bearer(bo)).expect(200)).body;
    expect(view.seat).toBe(1);
    const mine = (await a.http().get('/api/players/me/matches?status=playing').set(...bearer(ann)).expect(200)).body;
    expect(mine.items.map((m: { id: string; seat: number }) => [m.id, m.seat])).toEqual([[created.id, 0]]);
    // Another identity's JWT watches but acts for no seat.
    const dag = await idp.idToken('dag', { name: 'Dag' });
    expect((await a.http().get(`/api/matches/${created.id}/view`).set(...bearer(dag)).expect(403)).body.code).toBe('FORBIDDEN');
    await a.http().get(`/api/matches/${created.id}`).set(...bearer(dag)).expect(200);
    // Nothing about the match shows a JWT or a subject.
    const everything = [(await a.http().get(`/api/matches/${created.id}/events?limit=1000`).expect(200)).text, (await a.http().get(`/api/matches/${created.id}`).expect(200)).text].join('\n');
    for (const secret of [ann.split('.')[2], bo.split('.')[2], '"ann"', '"bo"']) expect(everything).not.toContain(secret);
    // The accounts a sign-in registered rebuild from the log like the others.
    for (const d of await rebuildDifferences(a.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 60_000);

  it('a rematch asked with the JWT answers no credential, and the JWT acts for the same seat there', async () => {
    const token = await idp.idToken('again', { name: 'Agnes' });
    const id = (await me(a, token).expect(200)).body.id;
    const created = (await a.http().post('/api/matches').set(...bearer(token)).send({ players: [{ player: id }, 'Ivo', 'Jon'], options: { schedule: 'quick' } }).expect(201)).body;
    const match: CreatedMatch = { ...created, seats: created.seats.map((s: { seat: number; token: string }, i: number) => ({ ...s, token: i === 0 ? token : s.token })) };
    await playToEnd(a.http, match, seededPick(3));
    const res = await b.http().post(`/api/matches/${created.id}/rematch`).set(...bearer(token)).expect(201);
    expect(res.body.seats).toEqual([{ seat: 0, name: 'Agnes', token: null }]);
    for (const part of token.split('.')) expect(res.text).not.toContain(part);
    expect((await a.http().get(`/api/matches/${res.body.id}/view`).set(...bearer(token)).expect(200)).body.seat).toBe(0);
  }, 60_000);

  it("ends a live stream opened with an ID token when the token expires (with the clock tolerance), and refuses it then", async () => {
    // Expired 25 s ago: within the 30 s tolerance for about 5 s more.
    const token = await idp.sign({ sub: 'short-lived', name: 'Hanna' }, -25);
    const id = (await me(a, token).expect(200)).body.id;
    const created = (await a.http().post('/api/matches').set(...bearer(token)).send({ players: [{ player: id }, 'Ivo', 'Jon'] }).expect(201)).body;
    const base = await listenLocal(a.app);
    const opened = Date.now();
    const res = await fetch(`${base}/api/matches/${created.id}/events/stream`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('event: error');
    expect(Date.now() - opened).toBeLessThan(15_000);
    refused(await me(a, token), token, /has expired/);
  }, 30_000);

  it('refuses with 401 a token for another client (aud), an expired one, one from another issuer, one signed with an unknown key, and unsigned or HMAC ones', async () => {
    const match = (await a.http().post('/api/matches').send({ players: ['A', 'B', 'C'] }).expect(201)).body;
    const everywhere = async (token: string, detail: RegExp) => {
      refused(await me(a, token), token, detail);
      refused(await a.http().get(`/api/matches/${match.id}/view`).set(...bearer(token)), token, detail);
      refused(await a.http().post('/api/matches').set(...bearer(token)).send({ players: [{ player: 'pl-00000000-0000-4000-8000-000000000000' }, null, null] }), token, detail);
    };
    await everywhere(await idp.idToken('eve', { name: 'Eve' }, 'other-app'), /not meant for this service \(aud\)/);
    await everywhere(await idp.sign({ sub: 'eve' }, -120), /has expired/);
    // Within the clock tolerance, a token just expired is still taken.
    await me(a, await idp.sign({ sub: 'eve', name: 'Eve' }, -5)).expect(200);
    // Another provider's token: its key is none of the issuer's (checked first), and a token of the issuer's key naming another issuer.
    await everywhere(await stranger.idToken('eve', { name: 'Eve' }), /key the issuer does not publish/);
    await everywhere(await stranger.sign({ sub: 'eve', iss: idp.issuer }, 600), /key the issuer does not publish/);
    await everywhere(await idp.sign({ sub: 'eve', iss: stranger.issuer }, 600), /not from this deployment's issuer/);
    const now = Math.floor(Date.now() / 1000);
    const hmac = await new SignJWT({ sub: 'eve', iss: idp.issuer, aud: 'bismarck', iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32).fill(7));
    await everywhere(hmac, /asymmetric/);
    const unsigned = new UnsecuredJWT({ sub: 'eve', iss: idp.issuer, aud: 'bismarck' }).setIssuedAt().setExpirationTime('10m').encode();
    refused(await me(a, unsigned), unsigned, /Send the player token/); // `alg: none` has an empty signature: not even a JWT's shape
    // The lobby's join refuses them too, rather than seat an anonymous person.
    const lobby = (await a.http().post('/api/matches').send({ players: ['A', null, null] }).expect(201)).body;
    const expired = await idp.sign({ sub: 'eve' }, -120);
    refused(await a.http().post(`/api/matches/${lobby.id}/seats/1/join`).set(...bearer(expired)).send({ name: 'Eve' }), expired, /has expired/);
    expect((await a.http().get(`/api/matches/${lobby.id}`).expect(200)).body.seats[1].name).toBeNull();
  }, 30_000);

  it("follows the issuer's key rotation: a token of the new key is taken at once, one of the removed key is refused once the keys are fetched again", async () => {
    const before = await idp.idToken('rotating', { name: 'Rolf' });
    const id = (await me(a, before).expect(200)).body.id;
    await idp.rotate();
    const after = await idp.idToken('rotating', { name: 'Rolf' });
    expect(after.split('.')[0]).not.toBe(before.split('.')[0]); // another kid
    expect((await me(a, after).expect(200)).body.id).toBe(id);
    expect((await me(b, after).expect(200)).body.id).toBe(id);
    // OIDC_JWKS_MAX_AGE_MS is 1 s here: after it, the key set is fetched anew and the old key is gone.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    refused(await me(a, before), before, /key the issuer does not publish/);
  });

  it('refuses the JWT of a deleted account (401): the identity is not registered again', async () => {
    const token = await idp.idToken('leaving', { name: 'Lea' });
    const id = (await me(a, token).expect(200)).body.id;
    const cli = (await a.http().post('/api/players/me/tokens').set(...bearer(token)).expect(201)).body;
    await b.http().delete('/api/players/me').set(...bearer(token)).expect(204);
    refused(await me(a, token), token, /account was deleted/);
    const again = await idp.idToken('leaving', { name: 'Lea' });
    refused(await me(b, again), again, /account was deleted/);
    await me(a, cli.token).expect(401);
    expect((await log(id)).map((e) => e.type)).toEqual(['PlayerRegistered', 'TokenIssued', 'PlayerDeleted']);
  });

  it('answers 503 with Retry-After while the issuer cannot be reached (then at once, until an attempt in the background finds it again)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    Object.assign(process.env, { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_AUDIENCE: 'bismarck' });
    const away = await startTestApp(a.db).finally(() => {
      delete process.env.OIDC_ISSUER;
      delete process.env.OIDC_AUDIENCE;
    });
    try {
      const token = await idp.sign({ sub: 'eve', iss: `http://127.0.0.1:${port}` }, 600);
      for (let i = 0; i < 2; i++) {
        const res = await away.http().get('/api/players/me').set(...bearer(token)).expect(503);
        expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', detail: expect.stringMatching(/identity provider cannot be reached/) });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.text).not.toContain(token.split('.')[2]);
      }
    } finally {
      await away.stopApp();
    }
  }, 30_000);

  it('without OIDC_ISSUER a JWT is refused like any unknown token', async () => {
    const plain = await startTestApp(a.db);
    try {
      const token = await idp.idToken('248289761001', { name: 'Astrid' });
      refused(await plain.http().get('/api/players/me').set(...bearer(token)), token, /^Unknown or revoked player token\.$/);
      const match = (await plain.http().post('/api/matches').send({ players: ['A', null, null] }).expect(201)).body;
      refused(await plain.http().get(`/api/matches/${match.id}/view`).set(...bearer(token)), token, /^Unknown seat token\.$/);
      refused(await plain.http().post(`/api/matches/${match.id}/seats/1/join`).set(...bearer(token)).send({ name: 'Astrid' }), token, /player/);
    } finally {
      await plain.stopApp();
    }
  }, 30_000);
});
