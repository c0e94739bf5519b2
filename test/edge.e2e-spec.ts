import { connect } from 'node:net';
import { startTestApp, type TestApp } from './support/app';
import { listenLocal } from './support/server';
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
let bounded: TestApp;
let proxied: TestApp;
let unproxied: TestApp;
beforeAll(async () => {
  const db = await createTestDatabase({ migrations: [] });
  limited = await withEnv({ RATE_LIMIT_PER_TOKEN: '5', RATE_LIMIT_PER_ADDRESS: '12', RATE_LIMIT_WINDOW_MS: '60000' }, () => startTestApp(db));
  open = await withEnv({ CORS_ORIGINS: 'https://client.example' }, () => startTestApp(db));
  bounded = await withEnv(
    { RATE_LIMIT_CREATES_PER_ADDRESS: '3', RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS: '3', STREAMS_PER_ADDRESS: '3', STREAMS_PER_TOKEN: '1', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' },
    () => startTestApp(db),
  );
  proxied = await withEnv({ TRUST_PROXY: 'loopback', RATE_LIMIT_CREATES_PER_ADDRESS: '1' }, () => startTestApp(db));
  unproxied = await withEnv({ RATE_LIMIT_CREATES_PER_ADDRESS: '1' }, () => startTestApp(db));
}, 60_000);
afterAll(async () => {
  await unproxied?.stopApp();
  await proxied?.stopApp();
  await bounded?.stopApp();
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
    // The cors middleware answers every OPTIONS before the method table (allowed-methods.ts) does; a
    // 405 carries the CORS headers, so a browser client can read it.
    expect(pre.headers.allow).toBeUndefined();
    const refused = await open.http().delete('/api/matches').set('Origin', 'https://client.example').expect(405);
    expect({ allow: refused.headers.allow, origin: refused.headers['access-control-allow-origin'], code: refused.body.code }).toEqual({
      allow: 'GET, HEAD, POST, OPTIONS',
      origin: 'https://client.example',
      code: 'METHOD_NOT_ALLOWED',
    });
  });

  it('sends helmet security headers, and a no-content policy on /api', async () => {
    const res = await open.http().get('/api/matches').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('bounded resources (here: 3 creations and 3 whole-match reads a minute, 3 streams per address, 1 per token, 0.5 s for headers, 1 s per request)', () => {
  let base: string;
  beforeAll(async () => {
    base = await listenLocal(bounded.app);
  });
  it('refuses the 4th match creation from one address with 429 RATE_LIMITED, and creates nothing more', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await bounded.http().post('/api/matches').send({ players: ['A', 'B', 'C'] })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await bounded.http().post('/api/matches').send({ players: ['A', 'B', 'C'] });
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A fork creates a match too: it counts as one.
    const fork = await bounded.http().post('/api/matches/0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a/fork?version=0');
    expect({ status: fork.status, code: fork.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Reads and commands are not creations.
    await bounded.http().get('/api/matches?limit=1').expect(200);
  });

  it('refuses the 4th whole-match read (audit, export, notation) from one address with 429 RATE_LIMITED; other reads go on', async () => {
    const match = await createMatch(open.http);
    const path = `/api/matches/${match.id}`;
    const statuses: number[] = [];
    for (const read of ['audit', 'notation', 'export', 'audit', 'notation', 'export']) statuses.push((await bounded.http().get(`${path}/${read}`)).status);
    // The export of a match in play is 409 (its cards are secret), and counts like any whole-match read.
    expect(statuses).toEqual([200, 200, 409, 429, 429, 429]);
    const refused = await bounded.http().get(`${path}/audit`);
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await bounded.http().get(path).expect(200);
    await bounded.http().get(`${path}/events?limit=10`).expect(200);
    await bounded.http().get(`${path}/scorecard`).expect(200);
  });

  it('caps open live streams per seat token and per address (429 TOO_MANY_STREAMS), and frees a slot when one closes', async () => {
    const match = await createMatch(open.http);
    const controllers: AbortController[] = [];
    const openStream = async (token?: string): Promise<Response> => {
      const controller = new AbortController();
      controllers.push(controller);
      return fetch(`${base}/api/matches/${match.id}/events/stream`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: controller.signal });
    };
    try {
      expect((await openStream(match.seats[0].token)).status).toBe(200);
      const sameToken = await openStream(match.seats[0].token);
      expect(sameToken.status).toBe(429);
      expect((await sameToken.json()).code).toBe('TOO_MANY_STREAMS');
      expect((await openStream()).status).toBe(200);
      expect((await openStream()).status).toBe(200);
      expect((await openStream()).status).toBe(429); // the address has 3 open
      controllers[0].abort();
      let freed = false;
      for (let i = 0; i < 40 && !freed; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const res = await openStream();
        freed = res.status === 200;
      }
      expect(freed).toBe(true);
    } finally {
      for (const c of controllers) c.abort();
    }
  });

  /** The problem+json body of a raw HTTP answer. */
  const problemIn = (answer: string): Record<string, unknown> => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  /** Opens a raw connection, writes `text`, and resolves with how long the server took to close it. */
  const closedAfter = async (text: string): Promise<{ ms: number; answer: string }> => {
    const url = new URL(base);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => resolve({ ms: Date.now() - started, answer }));
      socket.on('error', () => undefined);
      setTimeout(() => reject(new Error('the server kept a slow client for 8 s')), 8_000).unref();
    });
  };

  it('drops a client that trickles its headers (slowloris) once the headers timeout has passed', async () => {
    const { ms } = await closedAfter('GET /api/matches HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(ms).toBeLessThan(3_000);
  });

  it('drops a client whose body does not arrive within the request timeout (408)', async () => {
    const { ms, answer } = await closedAfter('POST /api/matches/00000000-0000-4000-8000-000000000000/seats/1/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"players":');
    expect(ms).toBeLessThan(4_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
    if (answer) expect(problemIn(answer)).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it("answers what Node's HTTP parser refuses with problem+json and a stable code, closes the connection, and creates nothing", async () => {
    const before = (await bounded.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    const post = 'POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    const body = '{"players":["A","B","C"]}';
    // A body's framing is read after the headers, by the route's body parser: a path no limit answers first.
    const join = 'POST /api/matches/00000000-0000-4000-8000-000000000000/seats/1/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    const refused: [string, number, string][] = [
      [`${join}Transfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`, 400, 'MALFORMED_HTTP'], // a chunk size that is no number
      [`${post}Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n\r\n${body}`, 400, 'MALFORMED_HTTP'],
      [`${post}Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`, 400, 'MALFORMED_HTTP'], // the request-smuggling pair
      [`BREW /api/matches HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'MALFORMED_HTTP'],
      [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
      // An expectation other than 100-continue is refused before the route: the body is not read as a command.
      [`${post}Expect: something-else\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 417, 'EXPECTATION_FAILED'],
    ];
    for (const [request, status, code] of refused) {
      const { ms, answer } = await closedAfter(request);
      expect(ms).toBeLessThan(3_000);
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/i);
      expect(problemIn(answer)).toMatchObject({ status, code, type: `https://bismarck.example/problems/${code.toLowerCase().replace(/_/g, '-')}` });
    }
    expect((await bounded.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before);
  });
});

describe('behind a load balancer (TRUST_PROXY; here: 1 creation a minute per address)', () => {
  const create = (t: TestApp, forwardedFor: string): Promise<number> =>
    t.http().post('/api/matches').set('X-Forwarded-For', forwardedFor).send({ players: ['A', 'B', 'C'] }).then((r) => r.status);

  it('with TRUST_PROXY=loopback, counts the client that X-Forwarded-For names, not the proxy', async () => {
    expect([await create(proxied, '203.0.113.7'), await create(proxied, '203.0.113.7'), await create(proxied, '203.0.113.8')]).toEqual([201, 429, 201]);
  });

  it('without it, ignores X-Forwarded-For: a client cannot pick the address it is counted as', async () => {
    expect([await create(unproxied, '203.0.113.7'), await create(unproxied, '203.0.113.8')]).toEqual([201, 429]);
  });
});
