import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { requestLog, type RequestLogger } from './request-log';

interface Line {
  level: string;
  fields: { req: { id: string; method: string; url: string }; res: { statusCode: number } } & Record<string, unknown>;
}

function capture(enabled: string[]): { logger: RequestLogger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: object) => void lines.push({ level, fields: fields as Line['fields'] });
  return { lines, logger: { isLevelEnabled: (l) => enabled.includes(l), debug: at('debug'), info: at('info'), error: at('error') } };
}

async function serve(logger: RequestLogger): Promise<{ server: Server; url: string }> {
  const log = requestLog(logger);
  const server = createServer((req, res) =>
    log(req, res, () => {
      res.statusCode = Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 200);
      res.end('{}');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('requestLog', () => {
  it('logs refusals at info and failures at error, with the request id, and never a header', async () => {
    const { logger, lines } = capture(['info', 'error']);
    const { server, url } = await serve(logger);
    try {
      const ok = await fetch(`${url}/api/x`, { headers: { authorization: 'Bearer secret-token' } });
      const refused = await fetch(`${url}/api/x?status=409`, { headers: { authorization: 'Bearer secret-token', 'x-request-id': 'abc-1' } });
      await fetch(`${url}/api/x?status=500`);
      await settle();
      expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(refused.headers.get('x-request-id')).toBe('abc-1');
      expect(lines.map((l) => [l.level, l.fields.res.statusCode])).toEqual([
        ['info', 409],
        ['error', 500],
      ]);
      expect(lines[0].fields.req).toMatchObject({ id: 'abc-1', method: 'GET', url: '/api/x?status=409' });
      expect(JSON.stringify(lines)).not.toContain('secret-token');
    } finally {
      server.close();
    }
  });

  it('logs successes only at debug, and never /health or /metrics', async () => {
    const { logger, lines } = capture(['debug', 'info', 'error']);
    const { server, url } = await serve(logger);
    try {
      await fetch(`${url}/api/y`);
      await fetch(`${url}/health`);
      await fetch(`${url}/metrics`);
      await fetch(`${url}/health?status=503`);
      await settle();
      expect(lines.map((l) => [l.level, l.fields.req.url])).toEqual([
        ['debug', '/api/y'],
        ['error', '/health?status=503'],
      ]);
    } finally {
      server.close();
    }
  });

  it('replaces an X-Request-Id that is not sane', async () => {
    const { logger } = capture([]);
    const { server, url } = await serve(logger);
    try {
      const res = await fetch(url, { headers: { 'x-request-id': 'x'.repeat(101) } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      server.close();
    }
  });

  it('writes the status and the client address through a pino logger with the standard serializers (as the app\'s is)', async () => {
    const written: Record<string, any>[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (written.push(JSON.parse(String(chunk))), done()) });
    const logger = pino({ level: 'info', serializers: { req: pino.stdSerializers.req, res: pino.stdSerializers.res } }, sink);
    const { server, url } = await serve(logger);
    try {
      await fetch(`${url}/api/x?status=409`);
      await settle();
      expect(written).toHaveLength(1);
      expect(written[0].res).toEqual({ statusCode: 409 });
      expect(written[0].req).toMatchObject({ method: 'GET', url: '/api/x?status=409', remoteAddress: '127.0.0.1' });
    } finally {
      server.close();
    }
  });
});
