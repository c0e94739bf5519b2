import { generateKeyPair, SignJWT } from 'jose';
import { startTestApp, type TestApp } from './support/app';
import { startIdentityProvider, type TestIdentityProvider } from './support/oidc';
import { listenLocal } from './support/server';

// The issuer's keys as issuers rotate them, and an issuer that does not answer (docs/players.md, "Key
// rotation"; apps/api/src/accounts/players/issuer-keys.ts), against a real OpenID Provider (oidc-provider) that
// counts how often it is asked. The settings are the defaults: fetches at most once per second.
describe('the keys of an OpenID Connect issuer', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let base: string;
  const WINDOW_MS = 1_000; // OIDC_JWKS_COOLDOWN_MS's default
  beforeAll(async () => {
    idp = await startIdentityProvider();
    Object.assign(process.env, { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: 'bismarck' });
    t = await startTestApp().finally(() => {
      delete process.env.OIDC_ISSUER;
      delete process.env.OIDC_AUDIENCE;
    });
    base = await listenLocal(t.app);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  /**
   * GET /api/players/me with this bearer: its status, its body, its Retry-After, and how long it took.
   * Sent once more when a kept-alive connection was reset under it, as HTTP lets a client do for a GET
   * (RFC 9112 §9.3.1): on a busy machine a batch of 250 outlasts the server's keep-alive timeout, and a
   * connection the server is closing can be taken for the next request.
   */
  const me = async (token: string) => {
    const started = performance.now();
    const ask = () => fetch(`${base}/api/players/me`, { headers: { authorization: `Bearer ${token}` } });
    const res = await ask().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
      return ask();
    });
    return { status: res.status, body: (await res.json()) as Record<string, any>, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
  };
  /** Runs `work` over `items`, `width` at a time. */
  const inBatches = async <T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> => {
    const out: R[] = [];
    for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(work))));
    return out;
  };
  /** Tokens for the issuer and this service, signed with a key the issuer never published, each naming another key id. */
  const forged = async (count: number): Promise<string[]> => {
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    return Promise.all(
      Array.from({ length: count }, (_, i) =>
        new SignJWT({ sub: 'mallory', iss: idp.issuer, aud: 'bismarck', iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'RS256', kid: `forged-${i}-${now}` }).sign(privateKey),
      ),
    );
  };

  it('takes a key the issuer publishes right after 1,000 tokens naming unknown keys within 5 s, fetching the keys at most once per window and the discovery document never again', async () => {
    expect((await me(await idp.sign({ sub: 'rolf', name: 'Rolf' }, 600))).status).toBe(200);
    const before = await idp.fetches();
    const tokens = await forged(1_000);
    const started = performance.now();
    const answers = await inBatches(tokens, 250, me);
    expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 401));
    expect(new Set(answers.map((a) => a.body.detail))).toEqual(new Set(['The identity token is signed with a key the issuer does not publish.']));

    // The issuer rotates right after the forger's last fetch: its first token with the new key is taken.
    await idp.rotate();
    const rotated = performance.now();
    const fresh = await me(await idp.sign({ sub: 'rolf' }, 600));
    expect(fresh.status).toBe(200);
    expect(performance.now() - rotated).toBeLessThan(5_000);
    const after = await idp.fetches();
    const windows = Math.ceil((performance.now() - started) / WINDOW_MS);
    expect(after.jwks - before.jwks).toBeGreaterThanOrEqual(1);
    expect(after.jwks - before.jwks).toBeLessThanOrEqual(windows + 1);
    expect(after.discovery).toBe(before.discovery);

    // The same forged key ids again, a window later: refused from the negative cache, with no fetch.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    const again = await inBatches(tokens.slice(0, 200), 100, me);
    expect(again.map((a) => a.status)).toEqual(again.map(() => 401));
    expect((await idp.fetches()).jwks).toBe(after.jwks);
  }, 60_000);

  it('refuses a token issued in the future beyond the 30 s clock tolerance (401), and takes one just within it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const future = await me(await idp.sign({ sub: 'time-traveller', iat: now + 365 * 24 * 3600, exp: now + 366 * 24 * 3600 }, 600));
    expect(future.status).toBe(401);
    expect(future.body).toMatchObject({ code: 'UNAUTHORIZED', detail: 'The identity token is not valid yet (iat).' });
    expect((await me(await idp.sign({ sub: 'time-traveller', iat: now + 60 }, 600))).status).toBe(401);
    expect((await me(await idp.sign({ sub: 'time-traveller', iat: now + 20 }, 600))).status).toBe(200);
  });

  it('waits for a dead issuer once (at most 3 s, the waiting requests together), then answers 503 with Retry-After at once, until it answers again', async () => {
    // A rotation the service has not fetched yet: its token needs the issuer.
    await idp.rotate();
    const token = await idp.sign({ sub: 'patient', name: 'Pat' }, 600);
    await idp.hang(true);
    try {
      const first = await Promise.all(Array.from({ length: 5 }, () => me(token)));
      for (const res of first) {
        expect(res).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE', detail: expect.stringMatching(/identity provider cannot be reached/) } });
        expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(res.ms).toBeGreaterThan(2_000);
        expect(res.ms).toBeLessThan(4_500);
      }
      // Then at once, however many ask, while it stays down.
      const fast = await inBatches(Array.from({ length: 20 }, () => token), 10, me);
      for (const res of fast) {
        expect(res.status).toBe(503);
        expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(res.retryAfter)).toBeLessThanOrEqual(5);
        expect(res.ms).toBeLessThan(1_000);
      }
    } finally {
      await idp.hang(false);
    }
    // It answers again: within the Retry-After (5 s) and one attempt, the token is taken.
    const back = performance.now();
    let res = await me(token);
    while (res.status === 503 && performance.now() - back < 15_000) {
      expect(res.ms).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      res = await me(token);
    }
    expect(res.status).toBe(200);
    expect(performance.now() - back).toBeLessThan(10_000);
  }, 60_000);
});
