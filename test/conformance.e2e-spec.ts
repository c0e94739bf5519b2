import fc from 'fast-check';
import { useTestApp } from './support/app';
import { createMatch, playToEnd, type CreatedMatch } from './support/player';
import { arbitraryFor } from './support/schema-arbitrary';

// Property-based conformance, from the document's side: requests drawn from the OpenAPI document's own
// parameters and request schemas (mostly valid, sometimes not), sent to the app; every answer is no 5xx,
// a status and media type its operation declares, and a body its schema accepts (the app's contract watch,
// test/support/contract.ts, checks the last three on every answer, and fails here at once).

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
// A live stream stays open while its match goes on: test/events-stream.e2e-spec.ts reads those.
const NOT_DRAWN = new Set(['streamEvents']);
const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 400);

const t = useTestApp();
let doc: Json;
let matches: { playing: CreatedMatch; lobby: CreatedMatch; finished: CreatedMatch };

beforeAll(async () => {
  doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
  const playing = await createMatch(t.http);
  const lobby = await createMatch(t.http, { players: ['Astrid', null, null] });
  const finished = await createMatch(t.http, { options: { schedule: 'quick' } });
  await playToEnd(t.http, finished);
  matches = { playing, lobby, finished };
}, 120_000);

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  op: Json;
}

const operations = (): Operation[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Json)[m] && !NOT_DRAWN.has((item as Json)[m].operationId)).map((method) => ({ method, path, op: (item as Json)[method] })),
  );

/** One request for an operation: its path filled in (a real match, often), its query, headers and body drawn from its schemas. */
function requestFor({ method, path, op }: Operation): fc.Arbitrary<{ method: string; url: string; headers: Record<string, string>; body: unknown; hasBody: boolean }> {
  const params = (op.parameters ?? []) as Json[];
  const value = (p: Json): fc.Arbitrary<unknown> => (p.name === 'id' && p.in === 'path' ? matchId() : arbitraryFor(p.schema, doc));
  const optional = (p: Json) => (p.required ? value(p) : fc.option(value(p), { nil: undefined }));
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  return fc.record({
    match: fc.constantFrom('playing', 'lobby', 'finished') as fc.Arbitrary<keyof typeof matches>,
    seat: fc.constantFrom(0, 1, 2),
    token: fc.constantFrom('seat', 'none', 'stranger'),
    values: fc.tuple(...params.map(optional)),
    body: bodySchema ? fc.option(arbitraryFor(bodySchema, doc), { nil: undefined, freq: 8 }) : fc.constant(undefined),
  }).map(({ match, seat, token, values, body }) => {
    let url = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    params.forEach((p, i) => {
      const v = values[i] === 'the match' ? matches[match].id : values[i];
      if (v === undefined) return;
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(text));
      else if (p.in === 'query') query.set(p.name, text);
      else if (p.in === 'header' && /^[\x20-\x7e]*$/.test(text)) headers[p.name] = text;
    });
    const seatToken = matches[match].seats[seat]?.token;
    if (token === 'seat' && seatToken) headers.Authorization = `Bearer ${seatToken}`;
    if (token === 'stranger') headers.Authorization = 'Bearer bsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const search = query.toString();
    return { method, url: search ? `${url}?${search}` : url, headers, body, hasBody: body !== undefined };
  });
}

/** Mostly a real match (the string 'the match' stands for it until the match is drawn), else any id. */
const matchId = (): fc.Arbitrary<unknown> => fc.oneof({ weight: 6, arbitrary: fc.constant('the match') }, { weight: 1, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

describe('requests drawn from the OpenAPI document', () => {
  it('get no 5xx and only answers the document declares, on every operation', async () => {
    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(20);
    const statuses = new Map<string, Set<number>>();
    await fc.assert(
      fc.asyncProperty(fc.nat(all.length - 1).chain((i) => requestFor(all[i]).map((request) => ({ i, request }))), async ({ i, request }) => {
        const operation = all[i];
        let call = t.http()[request.method as 'get'](request.url);
        for (const [name, value] of Object.entries(request.headers)) call = call.set(name, value);
        const res = await (request.hasBody ? call.set('Content-Type', 'application/json').send(JSON.stringify(request.body)) : call);
        const reasons = t.contract.judge(request.method, request.url, res.status, res.headers['content-type'], Buffer.from(res.text ?? ''));
        expect({ request, status: res.status, reasons }).toEqual({ request, status: res.status < 500 ? res.status : 'no 5xx', reasons: [] });
        const id = operation.op.operationId as string;
        statuses.set(id, (statuses.get(id) ?? new Set()).add(res.status));
      }),
      { numRuns: RUNS },
    );
    // The draws reached the operations and both sides of them: accepted and refused.
    expect(statuses.size).toBeGreaterThanOrEqual(all.length - 2);
    const seen = [...statuses.values()].flatMap((s) => [...s]);
    expect(seen.some((s) => s < 300)).toBe(true);
    expect(seen.some((s) => s === 400)).toBe(true);
    expect(seen.some((s) => s === 401 || s === 403)).toBe(true);
    expect(seen.some((s) => s === 409)).toBe(true);
  }, 300_000);
});

// Calls racing each other on one account, each answer held to the document as it is (the watch checks
// them all too): the same request three times at once, and every operation on the caller's account at
// once with its deletion. Whichever is decided after the deletion is answered as the credential is a
// moment later (401), never an answer its operation does not declare.
describe('racing calls on one account', () => {
  const ROUNDS = 8;
  type Sent = { method: string; url: string; status: number; contentType: string | undefined; text: string };
  const send = async (method: 'get' | 'post' | 'patch' | 'delete', url: string, token: string, body?: unknown): Promise<Sent> => {
    const call = t.http()[method](url).set('Authorization', `Bearer ${token}`);
    const res = await (body === undefined ? call : call.send(body as object));
    return { method: method.toUpperCase(), url, status: res.status, contentType: res.headers['content-type'], text: res.text ?? '' };
  };
  const judged = (answers: Sent[]) => answers.map((a) => ({ ...a, reasons: t.contract.judge(a.method, a.url, a.status, a.contentType, a.text ? Buffer.from(a.text) : null) }));
  const register = async (name: string): Promise<{ token: string; tokenId: string }> => (await t.http().post('/api/players').send({ name }).expect(201)).body;

  it('DELETE /api/players/me three times at once: one 204, the others 401, each declared', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { token } = await register(`Racer ${round}`);
      const answers = judged(await Promise.all([0, 1, 2].map(() => send('delete', '/api/players/me', token))));
      for (const a of answers) expect({ status: a.status, reasons: a.reasons }).toEqual({ status: a.status === 204 ? 204 : 401, reasons: [] });
      expect(answers.filter((a) => a.status === 204).length).toBeGreaterThanOrEqual(1);
      await t.http().get('/api/players/me').set('Authorization', `Bearer ${token}`).expect(401);
    }
  }, 120_000);

  it("rename, token creation, revocation, the profile and the matches racing the account's deletion: each answer declared by its operation", async () => {
    const seen = new Map<string, Set<number>>();
    for (let round = 0; round < ROUNDS; round++) {
      const { token, tokenId } = await register(`Leaver ${round}`);
      const second = (await t.http().post('/api/players/me/tokens').set('Authorization', `Bearer ${token}`).expect(201)).body;
      const calls: Promise<Sent>[] = [
        send('patch', '/api/players/me', token, { name: `Renamed ${round}` }),
        send('post', '/api/players/me/tokens', token),
        send('delete', `/api/players/me/tokens/${second.tokenId}`, token),
        send('get', '/api/players/me', token),
        send('get', '/api/players/me/matches', token),
        send('delete', `/api/players/me/tokens/${tokenId}`, second.token),
      ];
      // The deletion among them, at a different place each round.
      calls.splice(round % (calls.length + 1), 0, send('delete', '/api/players/me', token));
      for (const a of judged(await Promise.all(calls))) {
        expect({ call: `${a.method} ${a.url}`, status: a.status, reasons: a.reasons }).toEqual({ call: `${a.method} ${a.url}`, status: a.status, reasons: [] });
        expect(a.status).toBeLessThan(500);
        expect(a.status).not.toBe(404);
        const key = `${a.method} ${a.url.replace(/tok_[\w-]+/, '{tokenId}')}`;
        seen.set(key, (seen.get(key) ?? new Set()).add(a.status));
      }
    }
    // The deletion raced something each round: some calls came after it.
    expect([...seen.values()].some((s) => s.has(401))).toBe(true);
  }, 120_000);
});
