import fc from 'fast-check';
import { connect } from 'node:net';
import { listenLocal } from './support/server';
import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, type CreatedMatch } from './support/player';
import { SEAT_ENTRY } from '../apps/api/src/accounts/names/seat-names.validator';

// A campaign of hostile and malformed requests: every answer must be a 4xx problem+json, nothing may
// be appended, and the service must stay healthy.
const t = useTestApp();
let matches: CreatedMatch[];
let other: CreatedMatch;

beforeAll(async () => {
  // Matches in several phases: deal, contract, discard, play.
  matches = [];
  for (const actions of [0, 1, 2, 3, 10]) {
    const m = await createMatch(t.http, { options: { contractChoice: 'informed' } });
    for (let i = 0; i < actions; i++) await playOneAction(t.http, m);
    matches.push(m);
  }
  other = await createMatch(t.http);
}, 120_000);

const eventCount = async (): Promise<number> =>
  Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM events'))[0].n);

const MISSING = Symbol('missing');

/** The value a JSON Pointer (RFC 6901) points at in `doc`, or MISSING. */
function resolvePointer(doc: unknown, pointer: string): unknown {
  let value = doc;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return MISSING;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The fields each body may have (a required one left out is pointed at too). */
const OPTION_FIELDS = ['schedule', 'scoring', 'contractChoice', 'spadesInFreeTrump', 'mustTrump', 'leadBeforeDiscard', 'fourthRound'];
const BODY_FIELDS: Record<string, string[]> = {
  create: ['players', 'options', 'seed', ...OPTION_FIELDS],
  join: ['name'],
  cut: ['cut'],
  deal: [],
  contract: ['contract', 'trump'],
  discard: ['cards'],
  play: ['card'],
};

/**
 * A VALIDATION_FAILED answer to a body names its fields in `errors`: each entry is a JSON Pointer into
 * the body as sent (`sent`: the parsed body, {} when there was none) at a value that is there (an
 * invalid or unknown one) or, for a field left out, under a value that is there and named as a field
 * of the route; and each entry's detail is in the problem's detail.
 */
function expectBodyFieldErrors(problem: { detail: string; errors?: unknown }, sent: unknown, route: string): void {
  expect(problem.errors).toEqual(expect.arrayContaining([expect.anything()]));
  for (const entry of problem.errors as { pointer: string; detail: string }[]) {
    expect(entry).toEqual({ pointer: expect.any(String), detail: expect.any(String) });
    for (const part of entry.detail.split('; ')) expect(problem.detail).toContain(part);
    if (resolvePointer(sent, entry.pointer) !== MISSING) continue;
    const cut = entry.pointer.lastIndexOf('/');
    const parent = cut < 0 ? MISSING : resolvePointer(sent, entry.pointer.slice(0, cut));
    const field = entry.pointer.slice(cut + 1);
    expect({ pointer: entry.pointer, parentThere: typeof parent === 'object' && parent !== null, known: BODY_FIELDS[route].includes(field) }).toEqual({
      pointer: entry.pointer,
      parentThere: true,
      known: true,
    });
  }
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    "'; DROP TABLE events; --",
    '" OR 1=1 --',
    '\u0000\u0007\u001b[31m',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    'AS; DELETE FROM seat_views',
    '🂡',
    'Ａ♠',
    '\uD800',
    'a\uDFFFb',
    '\u0000',
    'AS ',
    ' as',
    'as',
    '10H',
    'ZZ',
    '',
  ),
);
const card = fc.oneof(fc.constantFrom('AS', 'TH', '2C', 'KD', 'QS', '9H'), hostileString);
const value = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(hostileString, { maxLength: 6 }), fc.object());

const bodies: Record<string, fc.Arbitrary<unknown>> = {
  contract: fc.oneof(
    fc.record({ contract: fc.oneof(fc.constantFrom('spades', 'trump', 'notrump', 'pass'), value), trump: fc.oneof(fc.constantFrom('S', 'H', 'D', 'C', 'X', 's'), value) }, { requiredKeys: [] }),
    fc.record({ contract: fc.constantFrom('spades', 'notrump', 'pass'), extra: value }),
    value,
  ),
  discard: fc.oneof(
    fc.record({ cards: fc.array(card, { maxLength: 8 }) }),
    fc.record({ cards: fc.constant(['AS', 'AS', 'AS', 'AS']) }),
    fc.record({ cards: value, unknown: value }, { requiredKeys: [] }),
    value,
  ),
  play: fc.oneof(fc.record({ card }), fc.record({ card, extra: value }), fc.record({ card: fc.array(card) }), value),
  cut: fc.oneof(fc.record({ cut: hostileString }), fc.record({ cut: value }), value),
  deal: fc.oneof(fc.constant(undefined), fc.record({ cards: value }), value),
};

const tokenKind = fc.constantFrom('none', 'malformed', 'unknown', 'otherMatch', 'wrongSeat', 'basic', 'empty');

function authHeader(kind: string, m: CreatedMatch, actingSeat: number | null): string | undefined {
  switch (kind) {
    case 'malformed':
      return 'Bearer not a token at all';
    case 'unknown':
      return 'Bearer bsk_0000000000000000000000000000000000000000';
    case 'otherMatch':
      return `Bearer ${other.seats[0].token}`;
    case 'wrongSeat':
      return `Bearer ${m.seats[((actingSeat ?? 0) + 1) % 3].token}`;
    case 'basic':
      return 'Basic dXNlcjpwYXNz';
    case 'empty':
      return 'Bearer ';
    default:
      return undefined;
  }
}

describe('the bad-input campaign', () => {
  it('answers malformed, hostile and misdirected commands with a 4xx problem, and appends nothing', async () => {
    const before = await eventCount();
    let sent = 0;
    let fieldChecked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: matches.length - 1 }),
        fc.constantFrom('contract', 'discard', 'play', 'cut', 'deal'),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        tokenKind,
        fc.constantFrom('json', 'raw', 'text'),
        fc.string({ maxLength: 30 }),
        async (mi, route, seat, useSeatToken, kind, encoding, raw) => {
          const m = matches[mi];
          const body = fc.sample(bodies[route], { numRuns: 1, seed: sent })[0];
          const state = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
          const req = t.http().post(`/api/matches/${m.id}/${route}`);
          const auth = useSeatToken ? `Bearer ${m.seats[seat].token}` : authHeader(kind, m, state.turn);
          if (auth !== undefined) req.set('Authorization', auth);
          let res;
          if (encoding === 'raw') res = await req.set('Content-Type', 'application/json').send(`{"card": ${raw}`);
          else if (encoding === 'text') res = await req.set('Content-Type', 'text/plain').send(raw);
          else res = body === undefined ? await req : await req.set('Content-Type', 'application/json').send(JSON.stringify(body));
          sent++;
          // A well-formed, legal command from the right seat may go through; everything else must not.
          if (res.status === 200) {
            await t.http().get('/health').expect(200);
            return;
          }
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(res.body.code).toMatch(/^[A-Z_]+$/);
          // A body that is not JSON is refused as such, before the token or the fields are looked at.
          if (encoding === 'text' && raw !== '') expect({ status: res.status, code: res.body.code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
          if (res.body.code === 'VALIDATION_FAILED') {
            const text = encoding === 'raw' ? `{"card": ${raw}` : encoding === 'json' && body !== undefined ? JSON.stringify(body) : undefined;
            let parsed: unknown = {};
            if (text !== undefined) {
              try {
                parsed = JSON.parse(text);
              } catch {
                parsed = undefined; // not JSON: the entry points at the whole body ("")
              }
            }
            expectBodyFieldErrors(res.body, parsed, route);
            fieldChecked++;
          }
          expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(state.version);
        },
      ),
      { numRuns: 250, seed: 20261129 },
    );
    expect(fieldChecked).toBeGreaterThan(20);
    // Whatever went through was a legal command: count the answers above, not the log, for refusals.
    const after = await eventCount();
    expect(after).toBeGreaterThanOrEqual(before);
    await t.http().get('/health').expect(200);
  }, 240_000);

  it('refuses malformed match creations and queries with 400, creating nothing', async () => {
    const [{ n: before }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ players: fc.array(hostileString, { minLength: 0, maxLength: 5 }) }),
          fc.record({ players: fc.constant(['a', 'b', 'c']), options: fc.record({ schedule: value, scoring: value, mustTrump: value, jokers: value }, { requiredKeys: [] }) }),
          fc.record({
            players: fc.constant(['a', 'b', 'c']),
            seed: fc.oneof(fc.constant(''), fc.string({ minLength: 129, maxLength: 200 }), fc.integer(), fc.constantFrom('x\u0000', '\uD83D', 'a\uDC00', null)),
          }),
          fc.record({ players: fc.constant(['a', 'b', 'c\u0000']) }),
          value,
        ),
        async (body) => {
          const res = await t.http().post('/api/matches').set('Content-Type', 'application/json').send(JSON.stringify(body));
          if (res.status === 201) {
            // Only a body that is valid after all may create a match; it must then be well-formed.
            expect(res.body.seats).toHaveLength(3);
            return;
          }
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('VALIDATION_FAILED');
          expectBodyFieldErrors(res.body, JSON.parse(JSON.stringify(body)), 'create');
        },
      ),
      { numRuns: 150, seed: 7 },
    );
    for (const q of ['limit=0', 'limit=abc', 'limit=1000', 'status=done', 'cursor=%27%3B--', 'cursor=' + 'x'.repeat(300)]) {
      const res = await t.http().get(`/api/matches?${q}`);
      expect({ q, status: res.status, code: res.body.code }).toEqual({ q, status: 400, code: 'VALIDATION_FAILED' });
      // Query parameters are named, not pointed at (the service's own cursor check too).
      expect(res.body.errors).toEqual([{ parameter: q.split('=')[0], detail: expect.any(String) }]);
    }
    for (const q of ['after=-1', 'after=x', 'limit=0', 'limit=5000']) {
      const res = await t.http().get(`/api/matches/${matches[0].id}/events?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
    for (const id of ["'; DROP TABLE events; --", 'x'.repeat(300), '%00']) {
      const res = await t.http().get(`/api/matches/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
    }
    const [{ n: after }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    expect(after).toBeGreaterThanOrEqual(before);
    await t.http().get('/health').expect(200);
  }, 240_000);
});

describe('the viewer\'s assets', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'viewer.html', '..%2Fviewer.controller.js', '.hidden', 'viewer.js.map'])(
    'answers 404 problem+json for %s (no prototype lookup, no path from the request)',
    async (name) => {
      const res = await t.http().get(`/viewer/assets/${name}`).expect(404);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe('NOT_FOUND');
    },
  );

  it('serves the page, its script and its style with their types', async () => {
    expect((await t.http().get('/viewer/some-match').expect(200)).headers['content-type']).toMatch(/^text\/html/);
    expect((await t.http().get('/viewer/assets/viewer.js').expect(200)).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await t.http().get('/viewer/assets/viewer.css').expect(200)).headers['content-type']).toMatch(/^text\/css/);
  });
});

const cursorOf = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

// Each row once made PostgreSQL refuse a value and the service answer 500.
describe('input that only the database used to refuse', () => {
  const id = () => matches[0].id;

  it.each([
    ['a lone high surrogate in a name', { players: ['a\uD800', 'b', 'c'] }],
    ['a lone low surrogate in a name', { players: ['a', '\uDFFF', 'c'] }],
    ['a NUL byte in a seed', { players: ['a', 'b', 'c'], seed: 'club\u0000night' }],
    ['a lone surrogate in a seed', { players: ['a', 'b', 'c'], seed: 'club\uD800' }],
  ])('creating a match with %s: 400 VALIDATION_FAILED', async (_name, body) => {
    const res = await t.http().post('/api/matches').set('Content-Type', 'application/json').send(JSON.stringify(body)).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  // `null` is not a left-out seed: it once passed @IsOptional and reached the first dealer's HMAC (500).
  it.each([
    ['three names', ['a', 'b', 'c']],
    ['an open seat', ['a', null, null]],
  ])('a null seed with %s: 400 VALIDATION_FAILED at /seed, nothing created', async (_name, players) => {
    const [{ n: before }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    const res = await t.http().post('/api/matches').set('Content-Type', 'application/json').send(JSON.stringify({ players, seed: null }));
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.errors).toEqual([{ pointer: '/seed', detail: expect.stringContaining('seed must be') }]);
    const [{ n: after }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    expect(after).toBe(before);
  });

  it('a lone surrogate in a joining name: 400 VALIDATION_FAILED', async () => {
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const res = await t.http().post(`/api/matches/${table.id}/seats/1/join`).set('Content-Type', 'application/json').send('{"name":"x\\ud800"}');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it.each([
    ['get', 'audit'],
    ['get', 'events'],
    ['get', 'scorecard'],
    ['get', 'view'],
    ['get', 'replay?version=1'],
    ['get', 'export'],
    ['get', 'events/stream'],
    ['post', 'deal'],
    ['post', 'play'],
    ['post', 'seats/1/join'],
    ['post', 'fork?version=0'],
  ])('a NUL byte in the match id (%s …/%s): 404 MATCH_NOT_FOUND', async (method, path) => {
    const req = method === 'get' ? t.http().get(`/api/matches/%00/${path}`) : t.http().post(`/api/matches/%00/${path}`).send(path === 'play' ? { card: 'AS' } : path === 'deal' ? {} : { name: 'A' });
    const res = await req.set('Authorization', `Bearer ${matches[0].seats[0].token}`);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'MATCH_NOT_FOUND' });
  });

  it.each(['after=2147483648', 'after=99999999999', 'after=1e30'])('events?%s: 400 VALIDATION_FAILED', async (q) => {
    const res = await t.http().get(`/api/matches/${id()}/events?${q}`);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it.each(['version=2147483648', 'version=1e30'])('replay?%s: 400 VALIDATION_FAILED', async (q) => {
    const res = await t.http().get(`/api/matches/${id()}/replay?${q}`);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it.each(['version=2147483648', 'version=1e30', 'version=', 'version=1&version=2', ''])('fork?%s: 400 VALIDATION_FAILED, nothing created', async (q) => {
    const res = await t.http().post(`/api/matches/${id()}/fork?${q}`);
    expect({ status: res.status, code: res.body.code, parameter: res.body.errors?.[0]?.parameter }).toEqual({ status: 400, code: 'VALIDATION_FAILED', parameter: 'version' });
  });

  // Every integer of a query is read as the headers' versions are: decimal digits, nothing else.
  it.each([
    ['get', '/api/matches', 'limit'],
    ['get', 'events', 'after'],
    ['get', 'events', 'limit'],
    ['get', 'events/stream', 'after'],
    ['get', 'replay', 'version'],
    ['get', 'analysis', 'deal'],
    ['post', 'fork', 'version'],
  ])('%s %s?%s= in hex, with an exponent, a sign, a space, a fraction or empty: 400 VALIDATION_FAILED naming it, nothing done', async (method, path, name) => {
    const url = (value: string) => `${path.startsWith('/') ? path : `/api/matches/${id()}/${path}`}?${name}=${encodeURIComponent(value)}`;
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    for (const value of ['0x1', '1e0', '+1', ' 1', '1 ', '1.0', '-0', '', '١']) {
      const res = await (method === 'get' ? t.http().get(url(value)) : t.http().post(url(value)));
      expect({ value, status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
        value,
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ parameter: name, detail: expect.stringMatching(new RegExp(`^${name} must be a whole number from \\d+ to \\d+, in decimal digits$`)) }],
      });
    }
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before);
  });

  it.each(['1', '2020-02-30T00:00:00.000000Z', 'March 7', '+275760-09-13T00:00:00.000Z', '2026-01-01T00:00:00.000Z'])(
    'a list cursor whose time is %j: 400 VALIDATION_FAILED',
    async (time) => {
      const res = await t.http().get(`/api/matches?cursor=${cursorOf([time, id()])}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    },
  );

  it('a cursor the list handed out still pages', async () => {
    const first = (await t.http().get('/api/matches?limit=1').expect(200)).body;
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = (await t.http().get(`/api/matches?limit=1&cursor=${first.nextCursor}`).expect(200)).body;
    expect(next.items[0].id).not.toBe(first.items[0].id);
  });

  it.each(['0x1', '%20', '1.0', '01', '1e0', '-0'])('joining seat %s: 400 VALIDATION_FAILED (only 0, 1 or 2)', async (seat) => {
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const res = await t.http().post(`/api/matches/${table.id}/seats/${seat}/join`).send({ name: 'Eve' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.errors).toEqual([{ parameter: 'seat', detail: 'seat must be 0, 1 or 2' }]);
  });
});

describe('bodies that are hostile in shape or size', () => {
  const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

  it.each([
    ['7,000 nested arrays in 14 kB', `{"players":${deep(7000)}}`, ['/players' + '/0'.repeat(31)]],
    ['an own __proto__ key', '{"players":["a","b","c"],"__proto__":{"admin":true}}', ['/__proto__']],
    ['a constructor key', '{"players":["a","b","c"],"constructor":{"prototype":{"x":1}}}', ['/constructor']],
    ['a prototype key inside the options', '{"players":["a","b","c"],"options":{"prototype":1}}', ['/options/prototype']],
    ['two of them', '{"players":["a","b","c"],"prototype":1,"options":{"__proto__":1}}', ['/prototype', '/options/__proto__']],
  ])('creating a match with %s: 400 VALIDATION_FAILED, nothing created', async (_name, raw, pointers) => {
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    const res = await t.http().post('/api/matches').set('Content-Type', 'application/json').send(raw);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(pointers.sort());
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before);
  });

  it('a command with a __proto__ key: 400, nothing appended', async () => {
    const m = matches[4];
    const state = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    const res = await t.http().post(`/api/matches/${m.id}/play`).set(...bearer(m.seats[state.turn ?? 0].token))
      .set('Content-Type', 'application/json').send('{"card":"AS","__proto__":{"card":"KS"}}');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(state.version);
  });

  it('a body declared as 2 GB is refused (413) at once, and the connection closed after reading on a bounded amount', async () => {
    const base = new URL(await listenLocal(t.app));
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(base.port), base.hostname, () => {
        socket.write('POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n{"players":');
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      setTimeout(() => socket.destroy(new Error('the server kept the connection open')), 5_000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toMatch(/PAYLOAD_TOO_LARGE/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('errors by field', () => {
  /** A fresh match moved on by `actions` actions, and the seat to act with its legal action and hand. */
  async function matchAt(actions: number) {
    const m = await createMatch(t.http, { options: { contractChoice: 'informed' } });
    for (let i = 0; i < actions; i++) await playOneAction(t.http, m);
    const state = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[state.turn].token)).expect(200)).body;
    return { m, state, view, auth: bearer(m.seats[state.turn].token) };
  }

  it('a match creation with several wrong fields: one entry each, unknown ones included', async () => {
    const body = { players: ['Astrid', 'Bjørn', 'Cecilia'], seed: '', options: { schedule: 'weekly', jokers: true }, colour: 'red' };
    const res = await t.http().post('/api/matches').send(body).expect(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/seed', detail: expect.stringContaining('seed must be') },
        { pointer: '/options/schedule', detail: expect.stringContaining('schedule must be one of') },
        { pointer: '/options/jokers', detail: 'property jokers should not exist' },
        { pointer: '/colour', detail: 'property colour should not exist' },
      ]),
    );
    expect(res.body.errors).toHaveLength(4);
    expect(res.body.detail).toMatch(/seed.*options\.schedule|options\.schedule.*seed/);
    expectBodyFieldErrors(res.body, body, 'create');
  });

  it('the cards of a discard that fail: each at its index', async () => {
    const { m, state, auth } = await matchAt(2);
    expect(state.phase).toBe('discard');
    const res = await t.http().post(`/api/matches/${m.id}/discard`).set(...auth).send({ cards: ['AS', 'XX', 'KS', 5] }).expect(400);
    expect(res.body.errors).toEqual([
      { pointer: '/cards/1', detail: 'each card must be rank then suit, e.g. QH' },
      { pointer: '/cards/3', detail: expect.stringContaining('each card must be rank then suit') },
    ]);
  });

  it('a wrong player name: the entry at its index; a list of the wrong length: the list', async () => {
    const bad = await t.http().post('/api/matches').send({ players: ['Astrid', ' ', null] }).expect(400);
    expect(bad.body.errors).toEqual([{ pointer: '/players/1', detail: `each entry of players must be ${SEAT_ENTRY}` }]);
    for (const players of [['Astrid', 'Bjørn'], 'Astrid', 3]) {
      const res = await t.http().post('/api/matches').send({ players }).expect(400);
      expect({ players, errors: res.body.errors }).toEqual({
        players,
        errors: [{ pointer: '/players', detail: `players must be 3 entries, each ${SEAT_ENTRY}` }],
      });
    }
  });

  it('a wrong header or query checked by the service itself names its parameter, and changes nothing', async () => {
    const { m, state, auth } = await matchAt(0);
    const expectParameter = (res: { status: number; body: { code: string; detail: string; errors: unknown } }, parameter: string) =>
      expect({ status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        errors: [{ parameter, detail: res.body.detail }],
      });
    const act = () => t.http().post(`/api/matches/${m.id}/deal`).set(...auth).send({});
    expectParameter(await act().set('If-Match', 'twelve'), 'If-Match');
    expectParameter(await act().set('Idempotency-Key', 'with space'), 'Idempotency-Key');
    expectParameter(await t.http().get(`/api/matches/${m.id}/events/stream`).set('Last-Event-ID', 'yesterday'), 'Last-Event-ID');
    expectParameter(await t.http().get(`/api/matches/${m.id}/replay?version=${state.version + 1}`), 'version');
    expectParameter(await t.http().get(`/api/matches/${m.id}/audit?pin=1:beef`), 'pin');
    expectParameter(await t.http().get(`/api/matches/${m.id}/audit?pin=${state.version + 5}:${'0'.repeat(64)}`), 'pin');
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(state.version);
  });

  type View = { hand: string[] };
  it.each<[string, string, number, (view: View) => object, string]>([
    ['create', 'a fourth round outside the traditional schedule', 0, () => ({ players: ['a', 'b', 'c'], options: { fourthRound: 'freeTrump' } }), '/options/fourthRound'],
    ['contract', 'trump without a suit', 1, () => ({ contract: 'trump' }), '/trump'],
    ['contract', 'a suit without trump', 1, () => ({ contract: 'pass', trump: 'H' }), '/trump'],
    ['discard', 'the same card four times', 2, (view) => ({ cards: Array(4).fill(view.hand[0]) }), '/cards'],
  ])('a refusal of the rules names its field (%s: %s)', async (route, _name, actions, body, pointer) => {
    let res;
    if (route === 'create') {
      const before = await eventCount();
      res = await t.http().post('/api/matches').send(body({ hand: [] }));
      expect(await eventCount()).toBe(before);
    } else {
      const { m, state, view, auth } = await matchAt(actions);
      res = await t.http().post(`/api/matches/${m.id}/${route}`).set(...auth).send(body(view));
      expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(state.version);
    }
    expect({ status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: [{ pointer, detail: res.body.detail }],
    });
  });
});

describe('bodies that are not JSON: 415', () => {
  const bodies: [string, string][] = [
    ['application/x-www-form-urlencoded', 'card=AS&cut=abc&name=Eve&players=a'],
    ['text/plain', '{"card":"AS"}'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="card"\r\n\r\nAS\r\n--x--\r\n'],
    ['application/xml', '<card>AS</card>'],
  ];

  it.each(bodies)('%s: 415 UNSUPPORTED_MEDIA_TYPE on every route that takes a body, and on deal, appending nothing', async (type, raw) => {
    const m = await createMatch(t.http);
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const dealer = bearer(m.seats[m.firstDealer].token);
    const before = await eventCount();
    const routes: [string, [string, string] | null][] = [
      ['/api/matches', null],
      [`/api/matches/${table.id}/seats/1/join`, null],
      // The dealer's deal would go through with no body: a body it cannot read still stops it.
      [`/api/matches/${m.id}/deal`, dealer],
      [`/api/matches/${m.id}/cut`, bearer(m.seats[(m.firstDealer + 2) % 3].token)],
      [`/api/matches/${m.id}/contract`, dealer],
      [`/api/matches/${m.id}/discard`, dealer],
      [`/api/matches/${m.id}/play`, dealer],
    ];
    for (const [path, auth] of routes) {
      const req = t.http().post(path).set('Content-Type', type);
      if (auth) req.set(...auth);
      const res = await req.send(raw);
      expect({ path, status: res.status, code: res.body.code, acceptPost: res.headers['accept-post'] }).toEqual({
        path,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        acceptPost: 'application/json',
      });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toContain(type.split(';')[0]);
    }
    expect(await eventCount()).toBe(before);
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(m.version);
    expect((await t.http().get(`/api/matches/${table.id}`).expect(200)).body.version).toBe(table.version);
  });

  it('a JSON body in a charset other than UTF-8: 415, appending nothing', async () => {
    const m = await createMatch(t.http);
    const before = (await t.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    for (const charset of ['latin1', 'utf-16le', 'UTF-16', 'utf-32', 'utf8']) {
      const res = await t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(m.seats[m.firstDealer].token))
        .set('Content-Type', `application/json; charset=${charset}`).send('{}');
      expect({ charset, status: res.status, code: res.body.code }).toEqual({ charset, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      // A body that really is UTF-16, declared as such, is refused too, not decoded.
      const utf16 = Buffer.from(JSON.stringify({ players: ['A', 'B', 'C'] }), 'utf16le');
      const created = await t.http().post('/api/matches').set('Content-Type', `application/json; charset=${charset}`).send(utf16);
      expect({ charset, status: created.status, code: created.body.code }).toEqual({ charset, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
      await t.http().post('/api/matches').set('Content-Type', `application/json; charset=${charset}`).send(JSON.stringify({ players: ['A', 'B', 'C'] })).expect(201);
    }
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(m.version);
    expect((await t.http().get('/api/matches?limit=100').expect(200)).body.items.length).toBe(before + 3);
  });

  it.each([
    ['no body and no Content-Type', undefined],
    ['an empty body with a text Content-Type', 'text/plain'],
    ['an empty JSON body', 'application/json'],
  ])('a deal with %s still deals', async (_name, type) => {
    const m = await createMatch(t.http);
    const req = t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(m.seats[m.firstDealer].token));
    if (type) req.set('Content-Type', type);
    const res = await req;
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { type: string }) => e.type)).toContain('DealStarted');
  });

  it('a deal or a fork with a body that says something: 400 VALIDATION_FAILED at each field, nothing dealt or forked ({} is no body)', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const finished = await createMatch(t.http, { options: { schedule: 'quick' } });
    while (await playOneAction(t.http, finished));
    const [{ n: before }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    const deal = () => t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(m.seats[m.firstDealer].token)).set('Content-Type', 'application/json');
    const fork = () => t.http().post(`/api/matches/${finished.id}/fork?version=0`).set('Content-Type', 'application/json');
    for (const send of [deal, fork]) {
      // A careless client's body (a deal is not a discard; a fork takes its version in the query): refused, not ignored.
      const fields = await send().send(JSON.stringify({ cards: ['AS', 'KS', 'QS', 'JS'], version: 3 }));
      expect({ status: fields.status, code: fields.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      expect(fields.body.errors).toEqual([
        { pointer: '/cards', detail: 'property cards should not exist' },
        { pointer: '/version', detail: 'property version should not exist' },
      ]);
      const list = await send().send('[1]');
      expect({ status: list.status, code: list.body.code, errors: list.body.errors }).toEqual({ status: 400, code: 'VALIDATION_FAILED', errors: [{ pointer: '', detail: 'this operation takes no body' }] });
    }
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version).toBe(m.version);
    const [{ n: after }] = await t.app.get(DataSource).query('SELECT count(DISTINCT stream_id)::int AS n FROM events');
    expect(after).toBe(before);
    // An empty object says nothing: the deal and the fork go through.
    await deal().send('{}').expect(200);
    await fork().send('{}').expect(201);
  }, 60_000); // it plays a whole quick match first

  it('the OpenAPI document lists 415 on every POST, PATCH and DELETE of the api (a body that is not JSON is refused even where none is read, as above), on no other operation, and `errors` in the problem', async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => ({ op: `${method} ${path}`, post: ['post', 'patch', 'delete'].includes(method) && path.startsWith('/api/'), body: op.requestBody !== undefined, lists415: '415' in op.responses })),
    );
    expect(operations.filter((o) => o.body).length).toBeGreaterThanOrEqual(6);
    // Every operation that reads a body is a POST or a PATCH of the api.
    for (const o of operations) if (o.body) expect(o).toMatchObject({ post: true });
    for (const o of operations) expect(o).toEqual({ ...o, lists415: o.post });
    expect(doc.components.schemas.ProblemDto.properties.errors).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/FieldErrorDto' } });
    expect(doc.components.schemas.FieldErrorDto).toMatchObject({ required: ['detail'], properties: { pointer: { type: 'string' }, parameter: { type: 'string' } } });
  });

  it('a JSON type with a +json suffix is read as JSON', async () => {
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const res = await t.http().post(`/api/matches/${table.id}/seats/1/join`).set('Content-Type', 'application/merge-patch+json').send('{"name":"Eve"}');
    expect(res.status).toBe(201);
  });
});
