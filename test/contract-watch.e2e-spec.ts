import { createHash } from 'node:crypto';
import { useTestApp } from './support/app';
import { createMatch } from './support/player';

// The contract watch (test/support/contract.ts) is what holds every other e2e answer to the document:
// these rows show it refuses what it must, and lets through what the document allows.

const t = useTestApp();
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
let state: Record<string, unknown>;
let id: string;

beforeAll(async () => {
  const match = await createMatch(t.http);
  id = match.id;
  state = (await t.http().get(`/api/matches/${id}`).expect(200)).body;
});

describe('the contract watch', () => {
  it('checked the real answer it saw, and keeps a real state with its nulls (turn, trump, lastTrick, winners)', () => {
    expect(t.contract.checked.get('getMatch')).toBeGreaterThanOrEqual(1);
    expect(state).toMatchObject({ contract: null, trump: null, lastTrick: null, winners: null });
    expect(t.contract.judge('GET', `/api/matches/${id}`, 200, 'application/json; charset=utf-8', json(state))).toEqual([]);
  });

  it.each([
    ['a value the schema refuses (an enum)', { phase: 'dancing' }, /phase/],
    ['null where the schema has no null', { version: null }, /version/],
    ['a field the document does not name', { secretHands: [] }, /unevaluated properties/],
    ['a required field missing', { id: undefined }, /required property 'id'/],
  ])('refuses %s', (_, change, reason) => {
    const reasons = t.contract.judge('GET', `/api/matches/${id}`, 200, 'application/json', json({ ...state, ...change }));
    expect(reasons.join('\n')).toMatch(reason);
  });

  it('refuses a status the operation does not declare, a media type its status does not declare, and an error that is no problem', () => {
    expect(t.contract.judge('GET', `/api/matches/${id}`, 418, 'application/json', json({}))).toEqual([expect.stringMatching(/status 418 is not declared/)]);
    expect(t.contract.judge('GET', `/api/matches/${id}`, 200, 'text/html', Buffer.from('<p>'))).toEqual([expect.stringMatching(/answered text\/html/)]);
    expect(t.contract.judge('GET', '/nowhere', 404, 'text/html', Buffer.from('<p>'))).toEqual([expect.stringMatching(/not problem\+json/)]);
    expect(t.contract.judge('GET', '/nowhere', 404, 'application/problem+json', json({ status: 404 }))[0]).toMatch(/required property/);
  });

  it('keeps a revalidation (304, no body), which browsers send for the table and the viewer', async () => {
    const first = await t.http().get(`/api/matches/${id}`).expect(200);
    await t.http().get(`/api/matches/${id}`).set('If-None-Match', first.headers.etag).expect(304);
    const page = await t.http().get(`/play/${id}`).expect(200);
    await t.http().get(`/play/${id}`).set('If-None-Match', page.headers.etag).expect(304);
    expect(t.contract.judge('GET', `/api/matches/${id}`, 304, undefined, Buffer.alloc(0))).toEqual([]);
    expect(t.contract.violations).toEqual([]);
  });

  it('reads a query string and a HEAD as the operation they are, and lets static files through', () => {
    expect(t.contract.judge('GET', '/api/matches?limit=1', 200, 'application/json', json({ items: [], nextCursor: null }))).toEqual([]);
    expect(t.contract.judge('HEAD', `/api/matches/${id}`, 200, 'application/json', Buffer.alloc(0))).toEqual([]);
    expect(t.contract.judge('GET', '/docs/swagger-ui.css', 200, 'text/css', Buffer.from('body{}'))).toEqual([]);
  });
});

describe('the contract watch, on credentials in answers', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.eyJzdWIiOiJhc3RyaWQifQ.c2lnbmF0dXJlLW5vdC1jaGVja2Vk';

  it.each([
    ["the request's own bearer token", 'bsk_Vq3nY0cJ8mC2fT6kP1xR9wL4hD7sA5eB', { seats: [{ token: 'bsk_Vq3nY0cJ8mC2fT6kP1xR9wL4hD7sA5eB' }] }, /repeats the request's bearer/],
    ["the request's own JWT", jwt, { token: jwt }, /repeats the request's bearer[^]*holds a JWT/],
    ['any JWT, not the bearer', undefined, { note: `signed in as ${jwt}` }, /holds a JWT/],
  ])('refuses an answer that holds %s', (_, bearer, body, reason) => {
    expect(t.contract.credentialsIn(bearer, json(body)).join('\n')).toMatch(reason);
  });

  it("refuses the hash of a bearer token it saw, or of a token an earlier answer handed out, and lets a new token through", async () => {
    const seen = 'bskp_Zb4X0aQm9k2LZb4X0aQm9k2LZb4X0aQm';
    expect(t.contract.credentialsIn(seen, null)).toEqual([]);
    const hash = createHash('sha256').update(seen).digest('hex');
    expect(t.contract.credentialsIn(undefined, json({ tokenHash: hash }))).toEqual(["the answer holds a token's hash"]);
    expect(t.contract.credentialsIn(undefined, json({ tokenHash: hash.toUpperCase() }))).toEqual(["the answer holds a token's hash"]);
    // A new match's seat tokens are handed out once (no violation), and their hashes are caught from then on.
    const match = await createMatch(t.http);
    expect(t.contract.violations).toEqual([]);
    const issued = createHash('sha256').update(match.seats[1].token).digest('hex');
    expect(t.contract.credentialsIn(undefined, json({ hash: issued }))).toEqual(["the answer holds a token's hash"]);
    // Another 64-hex value (an event's hash) is not a token's.
    expect(t.contract.credentialsIn(undefined, json({ hash: 'ab'.repeat(32) }))).toEqual([]);
  });

  it('sees the bearer of a real request: an answer that repeated it would fail the file', async () => {
    const match = await createMatch(t.http);
    await t.http().get(`/api/matches/${match.id}/view`).set('Authorization', `Bearer ${match.seats[0].token}`).expect(200);
    expect(t.contract.violations).toEqual([]);
    const hash = createHash('sha256').update(match.seats[0].token).digest('hex');
    expect(t.contract.credentialsIn(undefined, json([hash]))).toEqual(["the answer holds a token's hash"]);
  });
});
