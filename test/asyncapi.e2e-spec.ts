import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseSse, type SseMessage } from '@bismarck/client';
import { referencedFrom, toAsyncApiSchema } from '../apps/api/src/web/docs/asyncapi';
import { useTestApp } from './support/app';
import { createMatch, playToEnd, seededPick } from './support/player';
import { collect, listenLocal } from './support/server';

// GET /asyncapi.json: the live stream's AsyncAPI 3 document, against the OpenAPI document the same
// app serves and against what a real stream sends.
type Json = Record<string, any>;
const run = promisify(execFile);
const REDOCLY = join(__dirname, '..', 'node_modules', '.bin', 'redocly');

const t = useTestApp();
let base: string;
let doc: Json;
let openapi: Json;

beforeAll(async () => {
  base = await listenLocal(t.app);
  const res = await t.http().get('/asyncapi.json').expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.body;
  openapi = (await t.http().get('/docs/openapi.json').expect(200)).body;
});

/** A local `$ref` (`#/a/b`) of the document. */
const resolve = (ref: string): unknown => ref.slice(2).split('/').reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);

describe('GET /asyncapi.json', () => {
  it('is an AsyncAPI 3 document whose every $ref resolves, each operation to its channel and that channel\'s messages', () => {
    expect(doc.asyncapi).toBe('3.1.0');
    const refs: string[] = [];
    JSON.stringify(doc, (key, value) => (key === '$ref' && refs.push(value), value));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect([ref, resolve(ref)]).toEqual([ref, expect.anything()]);
    const operations = Object.values(doc.operations) as Json[];
    expect(operations).toHaveLength(1);
    for (const op of operations) {
      expect(op.action).toBe('receive');
      expect(op.channel.$ref).toMatch(/^#\/channels\/[^/]+$/);
      for (const m of op.messages) expect(m.$ref.startsWith(`${op.channel.$ref}/messages/`)).toBe(true);
    }
  });

  it('names the real route: the address is the OpenAPI path of the SSE operation, with the same path parameters', () => {
    const channel = resolve(doc.operations.receiveMatchEvents.channel.$ref) as Json;
    expect(channel.address).toBe('/api/matches/{id}/events/stream');
    const get = openapi.paths[channel.address]?.get;
    expect(get).toBeDefined();
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/event-stream']);
    const pathParams = get.parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
    expect(Object.keys(channel.parameters)).toEqual(pathParams);
    expect([...channel.address.matchAll(/\{(\w+)\}/g)].map((m) => m[1])).toEqual(pathParams);
    const after = get.parameters.find((p: Json) => p.name === 'after');
    expect(doc.operations.receiveMatchEvents.bindings.http).toMatchObject({ method: 'GET', query: { properties: { after: toAsyncApiSchema(after.schema) } } });
    expect(get.parameters.map((p: Json) => p.name)).toContain('Last-Event-ID');
    expect(doc.operations.receiveMatchEvents.description).toMatch(/Last-Event-ID/);
  });

  it("carries the OpenAPI document's own EventDto, and every schema it references, as the event payload", () => {
    expect(doc.channels.matchEvents.messages.event.payload).toEqual({ $ref: '#/components/schemas/EventDto' });
    const served = openapi.components.schemas;
    const names = referencedFrom('EventDto', served);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...names].sort());
    for (const name of names) expect([name, doc.components.schemas[name]]).toEqual([name, toAsyncApiSchema(served[name])]);
  });

  it('describes what a real stream sends: `id:` = version, data an EventDto, then `event: end` (after RematchOffered)', async () => {
    const match = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playToEnd(t.http, match, seededPick(7));
    // A finished match's stream waits for its rematch (REMATCH_WINDOW_MS), then ends: asked for here.
    await t.http().post(`/api/matches/${match.id}/rematch`).set('authorization', `Bearer ${match.seats[1].token}`).expect(201);
    const address = doc.channels.matchEvents.address.replace('{id}', match.id);
    const res = await fetch(`${base}${address}`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${match.seats[0].token}` } });
    expect(res.status).toBe(200);
    const messages: SseMessage[] = await collect(parseSse(res.body!));
    const byName = new Map((Object.values(doc.channels.matchEvents.messages) as Json[]).map((m) => [m.name, m]));
    // Presence first (no `id:`: the seat's own stream, so its seat is connected), then the log, then the end.
    expect([...new Set(messages.map((m) => m.event))]).toEqual(['presence', 'message', 'end']);
    const presence = byName.get('presence')!.payload;
    expect(messages[0]).toEqual({ id: undefined, event: 'presence', data: JSON.stringify({ connected: [true, false, false] }) });
    expect(Object.keys(JSON.parse(messages[0].data))).toEqual(presence.required);

    const event = resolve(byName.get('message')!.payload.$ref) as Json;
    const events = messages.filter((x) => x.event === 'message').map((m) => ({ id: Number(m.id), data: JSON.parse(m.data) }));
    expect(events.length).toBeGreaterThan(10);
    for (const { id, data } of events) {
      expect(id).toBe(data.version);
      for (const key of event.required) expect(data).toHaveProperty(key);
      expect(event.properties.type.enum).toContain(data.type);
    }

    const end = messages.at(-1)!;
    const endSchema = byName.get('end')!.payload;
    const endData = JSON.parse(end.data);
    expect(Object.keys(endData).sort()).toEqual([...endSchema.required].sort());
    // A finished match ends `finished`; `abandoned` is a lobby table closed unfilled (test/lobby-abandon.e2e-spec.ts).
    expect(endSchema.properties.status.enum).toEqual(['finished', 'abandoned']);
    expect(endData.status).toBe('finished');
    expect(endData.version).toBe(Number(messages.at(-2)!.id));
    expect(JSON.parse(messages.at(-2)!.data)).toMatchObject({ type: 'RematchOffered', data: { seat: 1 } });
    expect(event.properties.type.enum).toContain('RematchOffered');
  }, 60_000);

  it('passes the AsyncAPI linter (Redocly, recommended-strict), as served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bismarck-asyncapi-'));
    try {
      const file = join(dir, 'asyncapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const { stdout, stderr } = await run(REDOCLY, ['lint', file, '--extends=recommended-strict', '--format=stylish'], { env });
      expect(stdout + stderr).toMatch(/valid/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
