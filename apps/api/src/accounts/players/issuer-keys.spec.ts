import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
import { IdentityProviderUnavailable, IssuerKeys, type IssuerKeySettings } from './issuer-keys';

// The issuer's key set as issuers rotate it (issuer-keys.ts), with a key set in memory for the issuer
// and a short window: each guarantee in a title, each counted in fetches.

const SETTINGS: IssuerKeySettings = { windowMs: 100, maxAgeMs: 60_000, timeoutMs: 200, retryAfterMs: 300 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signingKey(kid: string): Promise<{ jwk: JWK; sign: (kidOverride?: string) => Promise<string> }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const sign = (kidOverride = kid) => new SignJWT({ sub: 's' }).setProtectedHeader({ alg: 'ES256', kid: kidOverride }).setExpirationTime('5m').sign(privateKey);
  return { jwk, sign };
}

/** An issuer in memory: its published keys, how often they were fetched, and whether it answers. */
function issuer(published: JWK[]) {
  const state = { published, fetches: 0, answers: true as boolean };
  const load = async (signal: AbortSignal): Promise<unknown> => {
    state.fetches++;
    if (!state.answers) return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('timed out'))));
    return { keys: [...state.published] };
  };
  return { state, keys: new IssuerKeys(load, SETTINGS) };
}

const verdict = (keys: IssuerKeys, token: string): Promise<string> =>
  jwtVerify(token, keys.getKey).then(
    () => 'taken',
    (error: Error) => (error instanceof IdentityProviderUnavailable ? 'unavailable' : error.constructor.name),
  );

describe('an issuer key set', () => {
  it('fetches once for 1,000 tokens naming unknown key ids at once, and not again for the same ids', async () => {
    const real = await signingKey('real');
    const forger = await signingKey('forger');
    const { state, keys } = issuer([real.jwk]);
    expect(await verdict(keys, await real.sign())).toBe('taken');
    await sleep(SETTINGS.windowMs);
    const forged = await Promise.all(Array.from({ length: 1_000 }, (_, i) => forger.sign(`forged-${i}`)));
    expect(new Set(await Promise.all(forged.map((t) => verdict(keys, t))))).toEqual(new Set(['JWKSNoMatchingKey']));
    expect(state.fetches).toBe(2);
    await sleep(SETTINGS.windowMs * 2);
    await Promise.all(forged.map((t) => verdict(keys, t)));
    expect(state.fetches).toBe(2);
  });

  it('takes a key published right after a fetch forced by a forged key id, at the next window', async () => {
    const old = await signingKey('old');
    const next = await signingKey('next');
    const forger = await signingKey('forger');
    const { state, keys } = issuer([old.jwk]);
    expect(await verdict(keys, await old.sign())).toBe('taken');
    await sleep(SETTINGS.windowMs);
    expect(await verdict(keys, await forger.sign('forged'))).toBe('JWKSNoMatchingKey');
    state.published = [next.jwk];
    const started = Date.now();
    expect(await verdict(keys, await next.sign())).toBe('taken');
    expect(Date.now() - started).toBeLessThan(1_000); // the window, not a long cooldown
    expect(state.fetches).toBe(3);
  });

  it('does not refuse a real key for a forged token that names it with another algorithm', async () => {
    const real = await signingKey('real');
    const { keys } = issuer([real.jwk]);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ sub: 's' }).setProtectedHeader({ alg: 'RS256', kid: 'real' }).setExpirationTime('5m').sign(privateKey);
    expect(await verdict(keys, forged)).toBe('JWKSNoMatchingKey');
    expect(await verdict(keys, await real.sign())).toBe('taken');
  });

  it('waits for an issuer that does not answer once, then answers unavailable at once until a background attempt finds it again', async () => {
    const old = await signingKey('old');
    const next = await signingKey('next');
    const { state, keys } = issuer([old.jwk]);
    expect(await verdict(keys, await old.sign())).toBe('taken');
    state.published = [next.jwk];
    state.answers = false;
    await sleep(SETTINGS.windowMs);
    let started = Date.now();
    expect(await Promise.all([1, 2, 3].map(async () => verdict(keys, await next.sign())))).toEqual(['unavailable', 'unavailable', 'unavailable']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SETTINGS.timeoutMs - 10);
    expect(state.fetches).toBe(2);
    started = Date.now();
    expect(await verdict(keys, await next.sign())).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(SETTINGS.timeoutMs); // no second wait
    // A key already fetched still works meanwhile.
    expect(await verdict(keys, await old.sign())).toBe('taken');
    state.answers = true;
    await sleep(SETTINGS.retryAfterMs);
    expect(await verdict(keys, await next.sign())).toBe('unavailable'); // starts the background attempt
    let answer = 'unavailable';
    for (let i = 0; i < 100 && answer === 'unavailable'; i++) {
      await sleep(10);
      answer = await verdict(keys, await next.sign());
    }
    expect(answer).toBe('taken');
    expect(state.fetches).toBe(3);
  });
});
