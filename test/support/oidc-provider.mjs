// A real OpenID Provider for the tests (test/support/oidc.ts starts it): the certified `oidc-provider`
// package on a random localhost port, in a process of its own (it is ESM and runs as it ships), with
// RSA signing keys this script makes and can rotate. The parent asks over the IPC channel:
//   { id, op: 'idToken', sub, claims, clientId }  → an ID token from a real authorization code flow
//                                                  (sign-in and consent through the provider's own pages, PKCE)
//   { id, op: 'sign', payload, expiresIn }        → a JWT signed with the provider's current key (for an expired one)
//   { id, op: 'rotate' }                          → a new key; the old one is gone from the JWKS at once
//   { id, op: 'fetches' }                         → how many times the discovery document and the JWKS were asked for
//   { id, op: 'hang', on }                        → while on, every request is held unanswered (a dead issuer);
//                                                  off: those held are cut, and it answers again
// and is answered { id, result } or { id, error }. At start: { ready: issuer }.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
/** The service's client (OIDC_AUDIENCE) and another application of the same issuer. */
const CLIENTS = ['bismarck', 'other-app'].map((id) => ({
  client_id: id,
  client_secret: `${id}-secret-for-tests-only`,
  redirect_uris: [REDIRECT_URI],
  grant_types: ['authorization_code'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
}));

const accounts = new Map();
let key = await newKey();
let handler = null;

async function newKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `k-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

const fetched = { discovery: 0, jwks: 0 };
let hanging = null; // the sockets of requests held while the issuer plays dead
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/.well-known/openid-configuration') fetched.discovery++;
  if (path === '/jwks') fetched.jwks++;
  if (hanging) return void hanging.add(req.socket);
  handler(req, res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

function start() {
  const provider = new Provider(issuer, {
    clients: CLIENTS,
    jwks: { keys: [key] },
    cookies: { keys: ['test-cookie-key-not-secret'] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
    // The profile claims in the ID token itself (by default they go to userinfo only).
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...(accounts.get(sub) ?? {}) }) }),
    ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  handler = provider.callback();
}
start();

/** A jar of the provider's cookies, sent back on every request of one flow (all on one origin). */
function jarFetch() {
  const jar = new Map();
  return async (url, init = {}) => {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
}

/** Sign in as `sub` at the provider's own pages, consent, and trade the code for tokens: the ID token. */
async function idToken({ sub, claims = {}, clientId = 'bismarck' }) {
  accounts.set(sub, claims);
  const client = CLIENTS.find((c) => c.client_id === clientId);
  const go = jarFetch();
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: REDIRECT_URI,
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let url = new URL(`${issuer}/auth?${params}`);
  let res = await go(url);
  for (let step = 0; step < 12; step++) {
    if (res.status < 300 || res.status >= 400) throw new Error(`authorization flow: ${res.status} at ${url.pathname}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(res.headers.get('location'), url);
    if (url.href.startsWith(REDIRECT_URI)) break;
    if (url.pathname.startsWith('/interaction/')) {
      const page = await (await go(url)).text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (!prompt) throw new Error(`no prompt on the interaction page: ${page.slice(0, 300)}`);
      const body = new URLSearchParams(prompt === 'login' ? { prompt, login: sub, password: 'any' } : { prompt });
      res = await go(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    } else {
      res = await go(url);
    }
  }
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`no code: ${url.href}`);
  const token = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${client.client_secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  });
  const answer = await token.json();
  if (!answer.id_token) throw new Error(`token endpoint: ${JSON.stringify(answer)}`);
  return answer.id_token;
}

/** A JWT signed with the provider's current key, as its ID tokens are (`payload` over the defaults). */
async function sign({ payload, expiresIn }) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: issuer, aud: 'bismarck', iat: now, exp: now + expiresIn, ...payload })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .sign(await importJWK(key, 'RS256'));
}

async function rotate() {
  key = await newKey();
  start();
  return key.kid;
}

function hang({ on }) {
  if (on) hanging ??= new Set();
  else {
    for (const socket of hanging ?? []) socket.destroy();
    hanging = null;
  }
  return on;
}

const ops = { idToken, sign, rotate, fetches: () => ({ ...fetched }), hang };
process.on('message', async ({ id, op, ...args }) => {
  try {
    process.send({ id, result: await ops[op](args) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: issuer });
