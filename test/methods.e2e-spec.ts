import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { createMatch } from './support/player';
import { listenLocal } from './support/server';

// Every path the service has, asked with every common method: a method the path has is never 405;
// any other is 405 problem+json METHOD_NOT_ALLOWED whose `Allow` lists exactly the path's methods
// (RFC 9110 §15.5.6), and changes nothing. The paths come from the served OpenAPI document, so a new
// route joins by being documented; the pages and files it leaves out are listed below. The admin routes
// are on here (ADMIN_TOKEN), so they are paths like any other; off, they answer 404 to every method
// (test/routes.e2e-spec.ts).
// Each test below sends a few hundred requests: on a busy two-core machine that takes longer than
// jest's default 5 s, hence the explicit timeouts.

const t = useTestApp(
  () => (process.env.ADMIN_TOKEN = 'methods-admin-token-0123456789'),
  () => delete process.env.ADMIN_TOKEN,
);
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS'];
/** What the document leaves out, with the methods each answers. */
const UNDOCUMENTED: [path: string, methods: string[]][] = [
  ['/docs/openapi.json', ['GET']],
  ['/asyncapi.json', ['GET']],
  ['/docs', ['GET']],
  ['/docs/swagger-ui.css', ['GET']],
  ['/play/assets/play.js', ['GET']],
  ['/viewer/assets/viewer.css', ['GET']],
];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

let base: string;
let paths: { path: string; url: string; methods: string[] }[];

beforeAll(async () => {
  base = await listenLocal(t.app);
  const doc = (await t.http().get('/docs/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  const match = await createMatch(t.http);
  const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? match.id : '1'));
  paths = [
    ...Object.entries(doc.paths).map(([path, item]) => ({ path, url: fill(path), methods: Object.keys(item).map((m) => m.toUpperCase()) })),
    ...UNDOCUMENTED.map(([path, methods]) => ({ path, url: path, methods })),
  ];
}, 60_000);

/**
 * node:http, not fetch: fetch refuses to send TRACE. A body goes with its Content-Length, as fetch
 * sends it, on a connection of its own. A live stream is answered by its head.
 */
function send(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  if (body !== undefined) headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, { method, headers, agent: false }, (res) => {
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode!, headers: res.headers, text: '' });
      }
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What `Allow` must say: the path's methods, HEAD with GET, and OPTIONS. */
const expectedAllow = (methods: string[]): string[] => [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].sort();
const allowOf = (a: Answer): string[] => (a.headers.allow ?? '').split(',').map((m) => m.trim()).filter(Boolean).sort();
const eventCount = async (): Promise<number> => Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM events'))[0].n);

describe('405 Method Not Allowed, with Allow, on every path the service has', () => {
  it('covers every path of the OpenAPI document and the pages and files beside it', () => {
    expect(paths.length).toBeGreaterThanOrEqual(30);
    expect(paths.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/health', '/metrics', '/api/matches', '/play', '/play/{id}', '/viewer/{id}', '/api/matches/{id}/events/stream', '/api/admin/rebuild']),
    );
  });

  it('never answers 405 to a method the document lists for the path', async () => {
    const refused: string[] = [];
    for (const { path, url, methods } of paths) {
      for (const method of methods.includes('GET') ? [...methods, 'HEAD'] : methods) {
        const res = await send(method, url);
        if (res.status === 405) refused.push(`${method} ${path}`);
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it('answers every other method 405 problem+json METHOD_NOT_ALLOWED with the Allow of the path, and appends nothing', async () => {
    const before = await eventCount();
    const wrong: string[] = [];
    for (const { path, url, methods } of paths) {
      const allow = expectedAllow(methods);
      for (const method of METHODS.filter((m) => !allow.includes(m))) {
        const res = await send(method, url);
        const body = method === 'HEAD' ? null : (JSON.parse(res.text || 'null') as Record<string, unknown> | null);
        const seen = {
          status: res.status,
          type: res.headers['content-type'],
          allow: allowOf(res),
          problem: body && { code: body.code, status: body.status, instance: body.instance, members: Object.keys(body).sort() },
        };
        const expected = {
          status: 405,
          type: 'application/problem+json; charset=utf-8',
          allow,
          problem: method === 'HEAD' ? null : { code: 'METHOD_NOT_ALLOWED', status: 405, instance: url, members: ['code', 'detail', 'instance', 'status', 'title', 'type'] },
        };
        if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push(`${method} ${path}: ${JSON.stringify(seen)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await eventCount()).toBe(before);
  }, 120_000);

  it('answers OPTIONS on a known path 204 with its Allow and no body (CORS off)', async () => {
    for (const { path, url, methods } of paths) {
      const res = await send('OPTIONS', url);
      expect({ path, status: res.status, allow: allowOf(res), text: res.text }).toEqual({ path, status: 204, allow: expectedAllow(methods), text: '' });
    }
  }, 60_000);

  it('refuses the method before reading the body: a body that is not JSON, or not valid, is still 405', async () => {
    const match = await createMatch(t.http);
    const before = await eventCount();
    const text = await send('PUT', '/health', { 'content-type': 'text/plain' }, 'hello');
    const broken = await send('DELETE', `/api/matches/${match.id}`, { 'content-type': 'application/json' }, '{"players": [');
    const tooLarge = await send('PATCH', `/api/matches/${match.id}/play`, { 'content-type': 'application/json' }, JSON.stringify({ card: 'x'.repeat(40_000) }));
    expect([text, broken, tooLarge].map((a) => [a.status, JSON.parse(a.text).code])).toEqual([
      [405, 'METHOD_NOT_ALLOWED'],
      [405, 'METHOD_NOT_ALLOWED'],
      [405, 'METHOD_NOT_ALLOWED'],
    ]);
    expect(await eventCount()).toBe(before);
  }, 60_000);

  it('still answers an unknown path 404 NOT_FOUND, whatever the method, without Allow', async () => {
    for (const [method, url] of [['GET', '/nothing-here'], ['DELETE', '/api/nothing-here'], ['OPTIONS', '/api/matches-nope'], ['POST', '/healthz'], ['PUT', '/play/1/more']]) {
      const res = await send(method, url);
      expect({ url, method, status: res.status, code: JSON.parse(res.text).code, allow: res.headers.allow }).toEqual({ url, method, status: 404, code: 'NOT_FOUND', allow: undefined });
    }
  }, 60_000);
});
