import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { EdgeConfig } from '../config/edge.config';
import { SettingError } from '../config/env';
import { answerClientErrors } from './client-errors';
import { rateLimiter, type RateLimitOptions } from './rate-limit';

/**
 * What every request meets before the routes: security headers (helmet), CORS when configured, and
 * the rate limits on /api (per player too: `playerOf` names a token's player). Called once from createApp, before the body parser.
 */
export function applyEdge(app: NestExpressApplication, config: EdgeConfig, playerOf: RateLimitOptions['playerOf']): void {
  trustProxy(app, config.trustProxy);
  const cors = config.corsOrigins;
  // JSON answers need no content policy of their own; /docs (Swagger UI) and HTML pages keep theirs.
  app.use(precomputed(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: cors ? 'cross-origin' : 'same-origin' } })));
  app.use('/api', precomputed(helmet.contentSecurityPolicy({ useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } })));
  if (cors) {
    app.enableCors({
      origin: cors.includes('*') ? '*' : cors,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key', 'Last-Event-ID', 'X-Request-Id'],
      exposedHeaders: ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Location'],
      maxAge: 600,
    });
  }
  app.use(
    '/api',
    rateLimiter({
      perToken: config.rateLimitPerToken,
      perAddress: config.rateLimitPerAddress,
      createsPerAddress: config.createsPerAddress,
      wholeMatchReadsPerAddress: config.wholeMatchReadsPerAddress,
      perPlayer: config.rateLimitPerPlayer,
      createsPerPlayer: config.createsPerPlayer,
      playerOf,
      windowMs: config.rateLimitWindowMs,
    }),
  );
  // Slow clients (headers or a body trickled in) are dropped: Node checks these on each interval.
  // (connectionsCheckingInterval is read when the server starts listening; @types/node omits the property.)
  const server = app.getHttpServer() as Server & { connectionsCheckingInterval: number };
  server.headersTimeout = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  server.requestTimeout = config.requestTimeoutMs;
  server.connectionsCheckingInterval = Math.min(1_000, server.headersTimeout);
  answerClientErrors(server);
}

/**
 * Helmet's headers depend on its options only, never on the request: run its middleware once, at
 * start, and set the same headers on every answer in one step. Its chain of a dozen middlewares cost
 * 0.02–0.04 ms of CPU per request, a tenth of a command (docs/performance.md).
 */
export function precomputed(middleware: (req: Request, res: Response, next: NextFunction) => void): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let done = false;
  middleware({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('a precomputed middleware must answer at once, without looking at the request');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/**
 * Behind a load balancer (docs/operations.md) every request comes from its address: with TRUST_PROXY
 * the limits count the client that X-Forwarded-For names, as far back as the trusted proxies go.
 */
function trustProxy(app: NestExpressApplication, trusted: EdgeConfig['trustProxy']): void {
  if (trusted === false) return;
  try {
    app.set('trust proxy', trusted);
  } catch (error) {
    throw new SettingError(`TRUST_PROXY must be a hop count or addresses, subnets and names (loopback, uniquelocal, …), got "${String(trusted)}": ${(error as Error).message}`);
  }
}
