import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { createMatch, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';
import { listenLocal } from './support/server';

// A hostile client against every operation the OpenAPI document lists, new ones included as they
// come: odd ids and seats in the path, odd query values, odd headers (tokens of other seats and
// matches, If-Match, Idempotency-Key, Last-Event-ID), odd bodies, on matches in every state (a
// lobby, one in play, one against bots, a finished one). Whatever it sends, the answer is one the
// document promises: never a 5xx it does not list, a refusal is problem+json whose status and
// `code` the operation documents, and a refusal appends nothing.

const t = useTestApp(
  () => Object.assign(process.env, { ANALYSIS_MAX_NODES: '20000' }),
  () => delete process.env.ANALYSIS_MAX_NODES,
);
// More with EVERY_ROUTE_RUNS; a failure names its seed (EVERY_ROUTE_SEED replays it).
const RUNS = Number(process.env.EVERY_ROUTE_RUNS ?? 30);
const SEED = Number(process.env.EVERY_ROUTE_SEED ?? Math.floor(Math.random() * 2 ** 31));

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

let base: string;
let doc: Json;
let operations: Operation[];
const fixtures: { name: string; match: CreatedMatch }[] = [];
let tokens: string[];

beforeAll(async () => {
  base = await listenLocal(t.app);
  doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
  operations = Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Json })));
  // A match in every state a client meets.
  const finished = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'every-route' });
  await playToEnd(t.http, finished, seededPick(1));
  const playing = await createMatch(t.http, { options: { schedule: 'quick', contractChoice: 'informed' } });
  for (let i = 0; i < 12; i++) await playOneAction(t.http, playing, seededPick(2));
  const lobby = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null] }).expect(201)).body as CreatedMatch;
  const bots = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'random' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body as CreatedMatch;
  fixtures.push({ name: 'finished', match: finished }, { name: 'playing', match: playing }, { name: 'lobby', match: lobby }, { name: 'bots', match: bots });
  tokens = fixtures.flatMap((f) => f.match.seats.map((s) => s.token));
}, 120_000);

// ---- what a hostile client sends ------------------------------------------------------------------

/** URL-encoded; a lone surrogate goes as U+FFFD, as a browser sends it. */
const encode = (s: string): string => encodeURIComponent(Buffer.from(s).toString());
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '..', '../..', 'constructor', '__proto__', 'null', 'undefined', 'NaN', '-0', '1e309', '0x10', '１', '\u0000', '\uD83D', 'a'.repeat(5000), "' OR 1=1 --", '<script>'),
);
/** A path segment as sent: encoded, or raw and broken (a lone %, a bad escape, an encoded NUL or slash). */
// (Never empty, `.` or `..`: the URL would name another route, not this operation.)
const dotSegment = (s: string): boolean => /^(\.|%2e){0,2}$/i.test(s);
const segment = (valid: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 3, arbitrary: hostileText.map(encode).filter((s) => !dotSegment(s)) }, { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', '..%2f..', '%C0%AF', '...') });
const number = fc.oneof(fc.integer({ min: -3, max: 400 }).map(String), fc.constantFrom('1.5', '1e3', '01', '+1', '2147483648', '9007199254740993', '-0', '0x1f', ''), hostileText);
const queryValue = (schema: Json | undefined): fc.Arbitrary<string> => (schema?.type === 'integer' ? number : fc.oneof(printable, hostileText));

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function request(o: Operation): fc.Arbitrary<Sent> {
  const params: Json[] = o.op.parameters ?? [];
  const ids = fc.constantFrom(...fixtures.map((f) => f.match.id), randomUUID(), randomUUID().toUpperCase());
  const pathValues = fc.record(
    Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, segment(p.name === 'id' ? ids : fc.constantFrom('0', '1', '2'))])),
  );
  const queries = fc.array(fc.tuple(fc.constantFrom(...params.filter((p) => p.in === 'query').map((p) => p as Json), { name: 'unknown' }), fc.nat()), { maxLength: 3 });
  // (A header carries visible ASCII: what fetch would refuse to send is no test of the service.)
  const header = (name: string, values: fc.Arbitrary<string>) => fc.option(values.filter((v) => /^[\x20-\x7e]*$/.test(v)).map((v) => [name, v] as const), { nil: undefined });
  const token = fc.oneof(fc.constantFrom(...tokens), printable);
  const headers = fc.tuple(
    header('authorization', fc.oneof(token.map((x) => `Bearer ${x}`), printable, fc.constantFrom('Bearer', 'Basic YTpi', `Bearer ${tokens[0]} ${tokens[1]}`))),
    header('if-match', fc.oneof(number.map((v) => `"${v}"`), fc.constantFrom('*', 'W/"3"', '"1", "2"'), printable)),
    header('idempotency-key', fc.oneof(printable, fc.constant('k'.repeat(300)))),
    header('last-event-id', number),
  );
  const examples = Object.values((o.op.requestBody?.content?.['application/json']?.examples ?? {}) as Json).map((e) => e.value);
  const jsonBody = fc.oneof(
    ...(examples.length ? [fc.constantFrom(...examples)] : []),
    fc.jsonValue({ maxDepth: 3 }),
    ...(examples.length ? [fc.tuple(fc.constantFrom(...examples), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([e, k, v]) => (e && typeof e === 'object' ? { ...e, [k]: v } : e))] : []),
  );
  const body = o.method === 'GET' ? fc.constant(undefined) : fc.option(jsonBody.map((b) => JSON.stringify(b)), { nil: undefined, freq: 5 });
  return fc.record({ pathValues, queries, headers, body, rawBody: fc.boolean() }).chain(({ pathValues, queries, headers, body, rawBody }) =>
    fc.tuple(...queries.map(([p]) => queryValue(p.schema)), fc.constant(null)).map((values) => {
      const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => (pathValues as Record<string, string>)[name]);
      const query = queries.map(([p], i) => `${encode(p.name)}=${encode(values[i] as string)}`).join('&');
      const h: Record<string, string> = Object.fromEntries(headers.filter((x) => x !== undefined));
      if (body !== undefined) h['content-type'] = rawBody && body.length % 3 === 0 ? 'text/plain' : 'application/json';
      return { url: `${base}${path}${query ? `?${query}` : ''}`, method: o.method, headers: h, body };
    }),
  );
}

// ---- what it must get back ------------------------------------------------------------------------

const pool = (): DataSource => t.app.get(DataSource);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * What a refusal must leave as it was: the number of matches, and the log of the match it named
 * (unless bots play that match: they move on their own).
 */
async function logOf(id: string | undefined): Promise<string> {
  const [row] = await pool().query(
    `SELECT (SELECT count(DISTINCT stream_id) FROM events)::int AS matches,
            (SELECT count(*) FROM events WHERE stream_id = $1)::int AS events,
            EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND ((type = 'MatchCreated' AND data->'bots' IS NOT NULL AND data->'bots' <> '[null,null,null]'::jsonb) OR (type = 'SeatJoined' AND data->>'bot' IS NOT NULL))) AS bots`,
    [id && UUID.test(id) ? id.toLowerCase() : null],
  );
  return row.bots ? `${row.matches} matches` : `${row.matches} matches, ${row.events} events in the match named`;
}

/** The codes an operation documents for a status (the examples of its problem answer). */
const documented = (o: Operation, status: number): string[] | null => {
  const response = o.op.responses?.[String(status)];
  if (!response) return null;
  return Object.values((response.content?.['application/problem+json']?.examples ?? {}) as Json).map((e) => e.value?.code);
};

async function send(s: Sent): Promise<{ status: number; type: string; text: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const res = await fetch(s.url, { method: s.method, headers: s.headers, body: s.body, signal: controller.signal });
    const type = res.headers.get('content-type') ?? '';
    // A live stream stays open: its head is the answer.
    const text = type.startsWith('text/event-stream') ? '' : await res.text();
    controller.abort();
    return { status: res.status, type, text };
  } finally {
    clearTimeout(timer);
  }
}

describe('every operation of the OpenAPI document, against a hostile client', () => {
  it('lists the operations this campaign reaches (a new route joins it by being documented)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(['POST /api/matches/{id}/play', 'GET /api/matches/{id}/analysis', 'POST /api/matches/{id}/seats/{seat}/bot']));
  });

  it('answers only what the document promises, and a refusal appends nothing', async () => {
    const broken: string[] = [];
    for (const o of operations) {
      if (o.method === 'POST' && o.path === '/api/admin/rebuild') continue; // needs ADMIN_TOKEN; test/rebuild covers it
      await fc.assert(
        fc.asyncProperty(request(o), async (s) => {
          const id = /\/api\/matches\/([^/?]+)/.exec(s.url)?.[1];
          const before = await logOf(id);
          const res = await send(s);
          const after = await logOf(id);
          const what = `${s.method} ${s.url.slice(base.length, base.length + 160)} ${JSON.stringify(s.headers).slice(0, 160)} ${(s.body ?? '').slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`;
          const problem = (why: string) => broken.push(`${o.method} ${o.path}: ${why} (EVERY_ROUTE_SEED=${SEED}): ${what}`);
          if (res.status >= 500 && documented(o, res.status) === null) return void problem('a 5xx the operation does not document');
          if (res.status < 400) return;
          if (!res.type.startsWith('application/problem+json')) return void problem(`a refusal as ${res.type || 'no content type'}`);
          const code = (JSON.parse(res.text) as { code?: unknown }).code;
          const codes = documented(o, res.status);
          if (codes === null) problem(`status ${res.status} is not documented (documented: ${Object.keys(o.op.responses).join(', ')})`);
          else if (!codes.includes(code as string)) problem(`code ${String(code)} is not documented for ${res.status} (documented: ${codes.join(', ')})`);
          if (after !== before) problem(`a refusal changed the log: ${before} before, ${after} after`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
    expect(broken.slice(0, 15)).toEqual([]);
  }, 600_000);
});
