import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase } from './support/database';
import { bearer, createMatch } from './support/player';

/** Starts the app with some environment variables set (read once, at start-up). */
async function withEnv(env: Record<string, string>, start: () => Promise<TestApp>): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

let limited: TestApp;
let open: TestApp;
beforeAll(async () => {
  const db = await createTestDatabase({ migrations: [] });
  limited = await withEnv({ RATE_LIMIT_PER_TOKEN: '5', RATE_LIMIT_PER_ADDRESS: '12', RATE_LIMIT_WINDOW_MS: '60000' }, () => startTestApp(db));
  open = await withEnv({ CORS_ORIGINS: 'https://client.example' }, () => startTestApp(db));
}, 60_000);
afterAll(async () => {
  await open?.stopApp();
  await limited?.close();
});

describe('rate limits (here: 5 per token and 12 per address a minute)', () => {
  it('answers 429 problem+json RATE_LIMITED with Retry-After once a token is over its limit', async () => {
    const match = await createMatch(open.http); // created on the unlimited instance: same database
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await limited.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0].headers['ratelimit']).toMatch(/^limit=5, remaining=4, reset=\d+$/);
    expect(answers[0].headers['ratelimit-policy']).toBe('5;w=60');
    const refused = answers[5];
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another token is counted on its own (until the address limit).
    await limited.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[1].token)).expect(200);
  });

  it('limits an address too, whatever tokens it sends, and leaves /health alone', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await limited.http().get('/api/matches?limit=1')).status);
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(12);
    await limited.http().get('/health').expect(200);
  });
});

describe('CORS and security headers', () => {
  it('is off by default: no Access-Control-Allow-Origin', async () => {
    const res = await limited.http().get('/health').set('Origin', 'https://elsewhere.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows the configured origins (CORS_ORIGINS), with the headers a client needs', async () => {
    const pre = await open.http().options('/api/matches').set('Origin', 'https://client.example').set('Access-Control-Request-Method', 'POST');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://client.example');
    expect(pre.headers['access-control-allow-headers']).toMatch(/Idempotency-Key/);
    const res = await open.http().get('/api/matches').set('Origin', 'https://client.example').expect(200);
    expect(res.headers['access-control-expose-headers']).toMatch(/ETag/);
    const other = await open.http().get('/api/matches').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends helmet security headers, and a no-content policy on /api', async () => {
    const res = await open.http().get('/api/matches').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
