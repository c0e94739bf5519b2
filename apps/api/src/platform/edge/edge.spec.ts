import express from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { precomputed } from './edge';

async function headersOf(use: (app: express.Express) => void): Promise<Record<string, string>> {
  const app = express();
  use(app);
  app.get('/x', (_req, res) => void res.json({ ok: true }));
  const server: Server = await new Promise((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    delete headers.etag;
    return headers;
  } finally {
    server.close();
  }
}

describe('precomputed (helmet run once at start)', () => {
  const options = [
    () => helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'same-origin' } }),
    () => helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' } }),
    () => helmet.contentSecurityPolicy({ useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }),
  ];

  it.each(options.map((make, i) => [i, make] as const))('sets exactly the headers helmet sets (options %i)', async (_i, make) => {
    const byHelmet = await headersOf((app) => app.use(make()));
    const byPrecomputed = await headersOf((app) => app.use(precomputed(make())));
    expect(byPrecomputed).toEqual(byHelmet);
    expect(Object.keys(byHelmet).length).toBeGreaterThan(3);
  });

  it('removes what helmet removes (X-Powered-By)', async () => {
    const headers = await headersOf((app) => app.use(precomputed(helmet({ contentSecurityPolicy: false }))));
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a middleware that does not answer at once', () => {
    expect(() => precomputed(() => undefined)).toThrow(/at once/);
  });
});
