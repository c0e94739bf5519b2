import { connect, type Socket } from 'node:net';
import { edgeConfig } from '../apps/api/src/platform/config/edge.config';
import { SettingError } from '../apps/api/src/platform/config/env';
import { LINGER } from '../apps/api/src/platform/edge/json-body';
import { startTestApp, type TestApp } from './support/app';
import { withEnv } from './support/env';
import { listenLocal } from './support/server';
import { createTestDatabase } from './support/database';
import { bearer, createMatch } from './support/player';

/** How long a connection the server must drop may take to close on a loaded machine (the timeouts here are 0.5 and 1 s). */
const SLACK_MS = 10_000;

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
  proxied = await withEnv({ TRUST_PROXY: '1', RATE_LIMIT_CREATES_PER_ADDRESS: '1' }, () => startTestApp(db));
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
      setTimeout(() => reject(new Error('the server kept a slow client for 30 s')), 30_000).unref();
    });
  };

  it('drops a client that trickles its headers (slowloris) once the headers timeout has passed', async () => {
    const { ms } = await closedAfter('GET /api/matches HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    // 0.5 s configured; the bound leaves a loaded machine its slack (without the timeout: never closed).
    expect(ms).toBeLessThan(SLACK_MS);
  });

  it('drops a client whose body does not arrive within the request timeout (408)', async () => {
    const { ms, answer } = await closedAfter('POST /api/matches/00000000-0000-4000-8000-000000000000/seats/1/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"players":');
    expect(ms).toBeLessThan(SLACK_MS);
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
      expect(ms).toBeLessThan(SLACK_MS);
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

  it('with TRUST_PROXY=1, counts the address the one proxy appended, whatever a client wrote before it', async () => {
    // This test is the proxy: the last entry is what it appended, the rest came from the client.
    const statuses = [
      await create(proxied, '203.0.113.7'),
      await create(proxied, '198.51.100.1, 203.0.113.7'),
      await create(proxied, 'unknown, 198.51.100.2, 10.0.0.1, 203.0.113.7'),
      await create(proxied, '203.0.113.8'),
    ];
    expect(statuses).toEqual([201, 429, 429, 201]);
  });

  it('without it, ignores X-Forwarded-For: a client cannot pick the address it is counted as', async () => {
    expect([await create(unproxied, '203.0.113.7'), await create(unproxied, '203.0.113.8')]).toEqual([201, 429]);
  });

  it.each([['loopback'], ['uniquelocal'], ['linklocal'], ['10.0.0.0/8'], ['fd00::/8'], ['127.0.0.1, loopback'], ['true'], ['api-gateway'], ['11']])(
    'refuses TRUST_PROXY=%s at start, naming the variable, the value and what to write instead',
    async (value) => {
      const config = withEnv({ TRUST_PROXY: value }, () => edgeConfig());
      await expect(config).rejects.toThrow(SettingError);
      await expect(config).rejects.toThrow(new RegExp(`^TRUST_PROXY must be the number of proxies in front of the service .*got "${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
      if (value !== '11') await expect(config).rejects.toThrow(/TRUST_PROXY=1 behind one nginx/);
    },
  );
});

describe('a body over BODY_LIMIT (413), refused by its Content-Length', () => {
  const join = 'POST /api/matches/00000000-0000-4000-8000-000000000000/seats/1/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await listenLocal(open.app)).port);
  });

  /**
   * A client that declares `declared` bytes and goes on sending them (`chunk` bytes at a time, `pauseMs`
   * apart) without waiting for an answer, reading whatever comes back, until the connection closes.
   * `stubborn`: it does not end its side when the server ends its own (a client that ignores the answer).
   */
  function sendOn(declared: number, chunk: number, pauseMs: number, stubborn: boolean): Promise<{ answer: string; sent: number; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let answer = '';
      let sent = 0;
      let closed = false;
      const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: stubborn }, async () => {
        socket.write(`${join}Content-Length: ${declared}\r\n\r\n`);
        const bytes = Buffer.alloc(chunk, 0x20);
        while (!closed && sent < declared) {
          sent += chunk;
          if (!socket.write(bytes)) await new Promise((r) => socket.once('drain', r).once('close', r));
          if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
        }
      });
      socket.on('data', (data) => (answer += data.toString('latin1')));
      socket.on('error', () => undefined); // the server closing while the client writes: expected
      socket.on('close', () => {
        closed = true;
        resolve({ answer, sent, ms: Date.now() - started });
      });
      setTimeout(() => reject(new Error(`the server kept the connection for 15 s (${sent} bytes sent)`)), 15_000).unref();
    });
  }

  const expect413 = (answer: string): void => {
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  };

  it('a client that reads as it sends gets its 413 and ends: the connection closes then', async () => {
    const { answer, ms } = await sendOn(1 << 20, 1024, 20, false);
    expect413(answer);
    expect(ms).toBeLessThan(LINGER.ms);
  }, 30_000);

  it('a client that goes on sending fast still reads its 413; the server reads on a bounded amount, then closes', async () => {
    for (let i = 0; i < 3; i++) {
      const { answer, sent } = await sendOn(1 << 30, 64 * 1024, 0, true);
      expect413(answer);
      // The server read on at most LINGER.bytes after its answer: what the client got out beyond that
      // sat in the two TCP buffers (a few MiB on loopback) when the connection closed.
      expect(sent).toBeLessThan(LINGER.bytes + 32 * 1024 * 1024);
    }
  }, 60_000);

  it('a client that goes on sending slowly still reads its 413; the server closes once the linger time is over', async () => {
    const { answer, ms } = await sendOn(1 << 20, 1024, 50, true);
    expect413(answer);
    expect(ms).toBeGreaterThanOrEqual(LINGER.ms - 100);
    expect(ms).toBeLessThan(LINGER.ms + 5_000);
  }, 30_000);

  it('a client that sends its whole body before it reads (within the linger) gets its 413 and an orderly close, no reset', async () => {
    for (let i = 0; i < 3; i++) {
      const outcome = await new Promise<{ answer: string; error?: string }>((resolve) => {
        let answer = '';
        let error: string | undefined;
        const chunk = Buffer.alloc(32 * 1024, 0x20);
        const chunks = LINGER.bytes / 2 / chunk.length;
        const socket = connect({ port, host: '127.0.0.1' }, async () => {
          socket.pause(); // reads nothing until its body is out, as a blocking client does
          socket.write(`${join}Content-Length: ${chunks * chunk.length}\r\n\r\n`);
          for (let k = 0; k < chunks && error === undefined; k++) {
            await new Promise((r) => socket.write(chunk, r));
            await new Promise((r) => setTimeout(r, 10));
          }
          socket.resume();
        });
        socket.on('data', (data) => (answer += data.toString('latin1')));
        socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
        socket.on('close', () => resolve({ answer, error }));
      });
      expect(outcome.error).toBeUndefined();
      expect413(outcome.answer);
    }
  }, 30_000);
});
