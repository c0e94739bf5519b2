import type { NestExpressApplication } from '@nestjs/platform-express';
import type { GracefulExpressAdapter } from '../apps/api/src/platform/edge/http-adapter';
import { CREATION_ROUTES, WHOLE_MATCH_READ_ROUTES } from '../apps/api/src/platform/edge/rate-limit';
import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase } from './support/database';
import { withEnv } from './support/env';
import { createMatch, type CreatedMatch } from './support/player';

// One route per path (docs/security.md, "Limits"): Express routes strictly and case-sensitively, so
// `/api/Matches` and `/api/matches/` are no route at all (404 problem+json, like any unknown path), and
// every per-route limit counts the route a request reaches, never the text of its path. The limited
// app trusts one proxy (TRUST_PROXY=1), so each check below can be its own client address.

let limited: TestApp;
let free: TestApp;
let match: CreatedMatch;
beforeAll(async () => {
  const db = await createTestDatabase({ migrations: [] });
  free = await startTestApp(db);
  limited = await withEnv({ TRUST_PROXY: '1', RATE_LIMIT_CREATES_PER_ADDRESS: '1', RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS: '1' }, () => startTestApp(db));
  match = await createMatch(free.http);
}, 60_000);
afterAll(async () => {
  await limited?.stopApp();
  await free?.close();
}, 60_000);

let addresses = 0;
/** A client address of its own (the X-Forwarded-For entry the trusted proxy would append). */
const nextAddress = (): string => `198.51.100.${++addresses}`;

/** The path in other letter cases, with a trailing slash, a doubled slash, and a letter percent-encoded. */
function variants(path: string): string[] {
  const segments = path.split('/').slice(1);
  const found = new Set<string>([`${path}/`, `${path}//`, path.toUpperCase(), path.replace(/\/([a-z])/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`)]);
  segments.forEach((segment, i) => {
    const capitalised = segments.map((s, j) => (j === i ? s.charAt(0).toUpperCase() + s.slice(1) : s));
    found.add(`/${capitalised.join('/')}`);
    found.add(`/${capitalised.join('/')}/`);
  });
  found.delete(path);
  return [...found];
}

let names = 0;
/** Each creation route, with a path to send it to and a body it takes (a fork of an unknown match counts before it is refused). */
const CREATIONS = [
  { route: 'POST /api/matches', path: () => '/api/matches', body: () => ({ players: ['A', 'B', 'C'] }) },
  { route: 'POST /api/players', path: () => '/api/players', body: () => ({ name: `Route ${++names}` }) },
  { route: 'POST /api/matches/:id/fork', path: () => '/api/matches/00000000-0000-4000-8000-000000000000/fork', body: () => undefined },
];

const post = (path: string, address: string, body: object | undefined) => {
  const req = limited.http().post(`${path}${path.endsWith('/fork') ? '?version=1' : ''}`).set('X-Forwarded-For', address);
  return body === undefined ? req : req.send(body);
};

describe('one route per path', () => {
  it('names, in its limits, only routes the service has', () => {
    const routes = (limited.app as NestExpressApplication).getHttpAdapter() as GracefulExpressAdapter;
    for (const route of [...CREATION_ROUTES, ...WHOLE_MATCH_READ_ROUTES]) expect({ route, registered: routes.routes.has(route) }).toEqual({ route, registered: true });
    expect(CREATIONS.map((c) => c.route).sort()).toEqual(CREATION_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('counts each creation route against the creation limit (here 1 per address)', async () => {
    for (const { path, body } of CREATIONS) {
      const address = nextAddress();
      const first = await post(path(), address, body());
      const second = await post(path(), address, body());
      expect({ path: path(), first: first.status, second: [second.status, second.body.code] }).toEqual({
        path: path(),
        first: path().endsWith('/fork') ? 404 : 201,
        second: [429, 'RATE_LIMITED'],
      });
    }
  }, 30_000);

  it('answers every case and slash variant of a creation route 404 NOT_FOUND, creating nothing: none gets past the limit', async () => {
    const before = (await free.http().get('/api/matches?limit=100').expect(200)).body.items.length;
    const wrong: string[] = [];
    for (const { path, body } of CREATIONS) {
      for (const variant of variants(path())) {
        // Either the variant is no route (404 NOT_FOUND), or it counted: the route's own path is then over the limit.
        const address = nextAddress();
        const answer = await post(variant, address, body());
        const then = await post(path(), address, body());
        const heldOrCounted = (answer.status === 404 && answer.body.code === 'NOT_FOUND') || then.status === 429;
        if (!heldOrCounted || answer.status !== 404) wrong.push(`${variant}: ${answer.status} ${answer.body.code}, then ${then.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // Only the plain POST /api/matches after each of its variants created a match.
    const created = (await free.http().get('/api/matches?limit=100').expect(200)).body.items.length - before;
    expect(created).toBe(variants('/api/matches').length);
  }, 120_000);

  it('counts a HEAD of a whole-match read as the GET it is routed to, and answers its variants 404 without reading', async () => {
    for (const read of ['audit', 'export', 'notation']) {
      const path = `/api/matches/${match.id}/${read}`;
      for (const variant of [`${path}/`, path.replace(read, read.toUpperCase()), path.replace(read, read[0].toUpperCase() + read.slice(1))]) {
        const address = nextAddress();
        const answer = await limited.http().get(variant).set('X-Forwarded-For', address);
        expect({ variant, status: answer.status, code: answer.body.code }).toEqual({ variant, status: 404, code: 'NOT_FOUND' });
      }
      const address = nextAddress();
      const head = await limited.http().head(path).set('X-Forwarded-For', address);
      const get = await limited.http().get(path).set('X-Forwarded-For', address);
      expect({ read, head: head.status, get: [get.status, get.body.code] }).toEqual({ read, head: read === 'export' ? 409 : 200, get: [429, 'RATE_LIMITED'] });
    }
  }, 30_000);

  it('serves the pages at their one path, and answers their variants 404 problem+json', async () => {
    const pages = ['/play', `/play/${match.id}`, `/viewer/${match.id}`, '/rules', '/docs/', '/docs/openapi.json', '/asyncapi.json', '/health', '/metrics', '/favicon.svg'];
    for (const page of pages) expect({ page, status: (await free.http().get(page)).status }).toEqual({ page, status: 200 });
    // Swagger UI's page is at /docs/: /docs sends there.
    expect((await free.http().get('/docs')).headers.location).toBe('/docs/');
    for (const variant of ['/Play', '/play/', `/Viewer/${match.id}`, `/viewer/${match.id}/`, '/Rules', '/rules/', '/Health', '/health/', '/DOCS/openapi.json']) {
      const answer = await free.http().get(variant);
      expect({ variant, status: answer.status, type: answer.headers['content-type'], code: answer.body.code }).toEqual({
        variant,
        status: 404,
        type: 'application/problem+json; charset=utf-8',
        code: 'NOT_FOUND',
      });
    }
  }, 30_000);
});

describe('admin routes off (ADMIN_TOKEN unset)', () => {
  it('answer every method 404 NOT_FOUND, as an unknown path: no 405, no Allow', async () => {
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const) {
      for (const path of ['/api/admin/rebuild', '/api/admin/rebuild/', '/api/admin']) {
        const answer = await free.http()[method](path);
        expect({ method, path, status: answer.status, allow: answer.headers.allow, type: answer.headers['content-type'], code: method === 'head' ? 'NOT_FOUND' : answer.body.code }).toEqual({
          method,
          path,
          status: 404,
          allow: undefined,
          type: 'application/problem+json; charset=utf-8',
          code: 'NOT_FOUND',
        });
      }
    }
  }, 30_000);
});
