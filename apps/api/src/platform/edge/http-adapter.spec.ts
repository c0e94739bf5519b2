import { Controller, Get, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { openEventStream } from './sse-socket';
import { GracefulExpressAdapter } from './http-adapter';

let release: () => void = () => undefined;
let arrived: () => void = () => undefined;

// The grace is long beside what closing takes on a busy machine, so "at once" (a third of it) is
// told apart from "after the grace"; a test that waited out the grace would fail on its bound.
const GRACE_MS = 30_000;
jest.setTimeout(2 * GRACE_MS);

@Controller()
class TestController {
  @Get('quick')
  quick(): { ok: true } {
    return { ok: true };
  }

  /** Answers only when the test says so: a request in flight while the app stops. */
  @Get('slow')
  async slow(): Promise<{ ok: true }> {
    await new Promise<void>((resolve) => {
      release = resolve;
      arrived();
    });
    return { ok: true };
  }

  /** Like a live stream: the socket leaves the server's hands (when Node allows) and nothing ever ends it. */
  @Get('held')
  held(@Req() req: Request, @Res() res: Response): void {
    openEventStream(req, res, { 'Content-Type': 'text/event-stream' }, ': open\n\n');
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

async function start(graceMs: number): Promise<{ app: NestExpressApplication; adapter: GracefulExpressAdapter; port: number }> {
  const adapter = new GracefulExpressAdapter(graceMs);
  const app = await NestFactory.create<NestExpressApplication>(TestModule, adapter, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, adapter, port: (app.getHttpServer().address() as AddressInfo).port };
}

function get(port: number, path: string, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      if (path === '/held') return resolve(res);
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value once it is 0, or after 10 s (a socket's close event comes a few turns after the close). */
async function settled(value: () => number): Promise<number> {
  for (const until = Date.now() + 10_000; value() !== 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
  return value();
}

describe('GracefulExpressAdapter: a stopping server ends every connection', () => {
  let agent: Agent;
  beforeEach(() => (agent = new Agent({ keepAlive: true, maxSockets: 4 })));
  afterEach(() => agent.destroy());

  it('keeps connections alive while running, and says Connection: close on answers once stopping', async () => {
    const { app, adapter, port } = await start(GRACE_MS);
    const before = await get(port, '/quick', agent);
    expect(before.headers.connection).toBe('keep-alive');
    const inside = new Promise<void>((resolve) => (arrived = resolve));
    const inFlight = get(port, '/slow', agent);
    await inside;
    const closed = app.close();
    // A request that started before the stop is answered, and its connection then ends.
    release();
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.connection).toBe('close');
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
    expect(await settled(() => adapter.connectionCount)).toBe(0);
  });

  it('closes kept-alive idle connections at once instead of waiting for them', async () => {
    const { app, adapter, port } = await start(GRACE_MS);
    await get(port, '/quick', agent);
    expect(adapter.connectionCount).toBe(1);
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
    expect(await settled(() => adapter.connectionCount)).toBe(0);
  });

  it('closes at once a connection that has not sent a request yet (Node\'s closeIdleConnections misses it)', async () => {
    const { app, adapter, port } = await start(GRACE_MS);
    const spare = connect(port, '127.0.0.1');
    await new Promise((resolve) => spare.once('connect', resolve));
    expect(await settled(() => (adapter.connectionCount === 1 ? 0 : 1))).toBe(0);
    const ended = new Promise<void>((resolve) => spare.once('close', () => resolve()));
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
    await ended;
    expect(await settled(() => adapter.connectionCount)).toBe(0);
  });

  it('cuts a connection nothing ends (a live stream, its socket taken over) after the grace period, so close() returns', async () => {
    const { app, adapter, port } = await start(300);
    const held = await get(port, '/held', agent);
    const ended = new Promise<void>((resolve) => held.socket.once('close', () => resolve()));
    const started = Date.now();
    await app.close();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(GRACE_MS / 3); // cut, not waited on for ever
    await ended;
    expect(await settled(() => adapter.connectionCount)).toBe(0);
  });
});

describe('GracefulExpressAdapter: one route per path', () => {
  it('routes case-sensitively and strictly: another case or a trailing slash is no route, and the table says the same', async () => {
    const agent = new Agent();
    const { app, adapter, port } = await start(GRACE_MS);
    try {
      const statuses = [];
      for (const path of ['/quick', '/quick/', '/Quick', '/QUICK']) statuses.push((await get(port, path, agent)).statusCode);
      expect(statuses).toEqual([200, 404, 404, 404]);
      expect([adapter.routes.routeOf('GET', '/quick'), adapter.routes.routeOf('GET', '/quick/'), adapter.routes.routeOf('GET', '/Quick')]).toEqual([
        { method: 'GET', path: '/quick' },
        undefined,
        undefined,
      ]);
    } finally {
      agent.destroy();
      release();
      await app.close();
    }
  });
});
