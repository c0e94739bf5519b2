import { EventStore } from '@bismarck/event-store';
import { useTestApp } from './support/app';
import { onRealServer } from './support/database';
import { bearer, createMatch, playOneAction } from './support/player';

const t = useTestApp();

describe('the OpenAPI document', () => {
  it('is served at /docs/openapi.json with every route of the public contract (docs/clients.md), its bodies, responses and problems', async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expect(doc.openapi).toMatch(/^3\./);
    const routes = [
      ['post', '/api/matches'],
      ['get', '/api/matches'],
      ['get', '/api/matches/{id}'],
      ['get', '/api/matches/{id}/view'],
      ['post', '/api/matches/{id}/deal'],
      ['post', '/api/matches/{id}/contract'],
      ['post', '/api/matches/{id}/discard'],
      ['post', '/api/matches/{id}/play'],
      ['get', '/api/matches/{id}/scorecard'],
      ['get', '/api/matches/{id}/events'],
      ['get', '/health'],
      ['get', '/metrics'],
    ];
    for (const [method, path] of routes) {
      const op = doc.paths[path]?.[method];
      expect({ route: `${method} ${path}`, documented: Boolean(op) }).toEqual({ route: `${method} ${path}`, documented: true });
      expect(op.summary).toEqual(expect.any(String));
      const ok = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(ok.length).toBeGreaterThan(0);
    }
    const play = doc.paths['/api/matches/{id}/play'].post;
    expect(play.requestBody.content['application/json'].schema.$ref).toMatch(/PlayCardDto$/);
    expect(play.responses['409'].content['application/problem+json'].examples).toHaveProperty('MUST_FOLLOW_SUIT');
    expect(play.responses['412'].content['application/problem+json'].examples).toHaveProperty('VERSION_MISMATCH');
    expect(play.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['id', 'If-Match', 'Idempotency-Key']));
    expect(doc.components.schemas.PlayCardDto.properties.card.example).toBe('QH');
    expect(doc.components.schemas.SeatViewDto.properties).toHaveProperty('legal');
    expect(doc.components.schemas.ProblemDto.properties).toHaveProperty('code');
    expect(doc.components.securitySchemes).toHaveProperty('seat');
  });

  it('documents on every /api route the 503 DATABASE_UNAVAILABLE (with Retry-After) it answers while the database is away (and the identity provider\'s on an account\'s own routes), and 413 on every POST', async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/api/')) continue;
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const unavailable = op.responses['503'];
        expect({ path, method, examples: Object.keys(unavailable?.content?.['application/problem+json']?.examples ?? {}) }).toEqual({
          path,
          method,
          // The analysis may be busy; an account's own routes may find the identity provider away (a JWT to check).
          examples: path.endsWith('/analysis')
            ? ['ANALYSIS_BUSY', 'DATABASE_UNAVAILABLE']
            : path.startsWith('/api/players/me')
              ? ['SERVICE_UNAVAILABLE', 'DATABASE_UNAVAILABLE']
              : ['DATABASE_UNAVAILABLE'],
        });
        expect(unavailable.headers).toHaveProperty('Retry-After');
        if (method === 'post') expect(Object.keys(op.responses['413'].content['application/problem+json'].examples)).toEqual(['PAYLOAD_TOO_LARGE']);
      }
    }
    expect(operations).toBeGreaterThan(15);
    expect(doc.components.schemas.ProblemDto.properties.retryAfter.description).toMatch(/DATABASE_UNAVAILABLE/);
  });

  it("states the security each route has: the lobby's bot route reads no token (one sent is not looked at), creation and join an optional player token, the other match routes an optional seat or bound player's token", async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expect(doc.paths['/api/matches/{id}/seats/{seat}/bot'].post.security).toEqual([{}]);
    for (const path of ['/api/matches', '/api/matches/{id}/seats/{seat}/join']) expect({ path, security: doc.paths[path].post.security }).toEqual({ path, security: [{}, { player: [] }] });
    for (const path of ['/api/matches/{id}', '/api/matches/{id}/events', '/api/matches/{id}/notation']) expect(doc.paths[path].get.security).toEqual([{}, { seat: [] }, { player: [] }]);
    expect(doc.paths['/api/matches/{id}/fork'].post.security).toEqual([{}, { seat: [] }, { player: [] }]);
    for (const path of ['/api/matches/{id}/view', '/api/matches/{id}/play']) expect(Object.values(doc.paths[path])[0]).toMatchObject({ security: [{ seat: [] }, { player: [] }] });
    expect(doc.paths['/api/players/me'].get.security).toEqual([{ player: [] }]);
    // Two tables, one seat taken at each, so that neither fills and no bot starts to play (the metrics test below counts deals).
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const other = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    await t.http().post(`/api/matches/${table.id}/seats/1/join`).set('Authorization', 'Bearer bsk_unknown').send({ name: 'Guest' }).expect(201);
    await t.http().post(`/api/matches/${other.id}/seats/2/bot`).set('Authorization', 'Bearer bsk_unknown').send({ bot: 'greedy' }).expect(201);
    expect((await t.http().get(`/api/matches/${table.id}`).set('Authorization', 'Bearer bsk_unknown')).status).toBe(401);
  });

  it('has Swagger UI at /docs', async () => {
    const res = await t.http().get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});

describe('operations', () => {
  it('/health checks the database', async () => {
    expect((await t.http().get('/health').expect(200)).body).toEqual({ status: 'ok', database: 'up' });
  });

  it(`/health is 503 while the LISTEN connection is down (${onRealServer ? 'a real server: it listens' : 'embedded: nothing to listen to'})`, async () => {
    const wakeups = t.app.get(EventStore).wakeups;
    expect(wakeups.listening).toBe(onRealServer);
    const down = jest.spyOn(wakeups, 'listening', 'get').mockReturnValue(false);
    try {
      const res = await t.http().get('/health');
      expect(res.status).toBe(onRealServer ? 503 : 200);
      if (onRealServer) expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', detail: expect.stringMatching(/listening/) });
    } finally {
      down.mockRestore();
    }
    await t.http().get('/health').expect(200);
  });

  it('/health documents both answers as they are sent: { status, database } and a problem+json 503 SERVICE_UNAVAILABLE', async () => {
    const doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    const responses = doc.paths['/health'].get.responses;
    expect(responses['200'].content['application/json'].schema).toMatchObject({ required: ['status', 'database'] });
    expect(responses['503'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDto' });
    const ping = jest.spyOn(t.app.get(EventStore), 'ping').mockRejectedValue(new Error('down'));
    try {
      const res = await t.http().get('/health').expect(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', detail: 'The database does not answer.' });
      expect(Object.keys(responses['503'].content['application/problem+json'].examples)).toEqual([res.body.code]);
    } finally {
      ping.mockRestore();
    }
  });

  it('/metrics counts commands by type and outcome, with a latency histogram', async () => {
    // Counted from here: the app is shared with the tests above, whose bot seats may have dealt already.
    const count = (text: string, outcome: string) => Number(new RegExp(`bismarck_commands_total\\{type="deal",outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    const before = (await t.http().get('/metrics').expect(200)).text;
    const m = await createMatch(t.http);
    await playOneAction(t.http, m); // a deal, accepted
    await t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(m.seats[0].token)); // refused one way or another
    const text = (await t.http().get('/metrics').expect(200)).text;
    expect(count(text, 'accepted') - count(before, 'accepted')).toBe(1);
    expect(count(text, 'refused') - count(before, 'refused')).toBe(1);
    expect(text).toMatch(/bismarck_command_duration_seconds_bucket\{le="0.005",type="deal",outcome="accepted"\}/);
    // Every write goes through the same measure: creation and joins too.
    expect(text).toMatch(/bismarck_commands_total\{type="createMatch",outcome="accepted"\} [1-9]/);
  });

  it('unknown routes answer problem+json 404', async () => {
    const res = await t.http().get('/api/nothing-here').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  it('echoes a sane X-Request-Id, or makes one', async () => {
    expect((await t.http().get('/health').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await t.http().get('/health')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
