import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { EdgeConfig } from '../config/edge.config';
import type { RouteTable } from './allowed-methods';
import { answerClientErrors } from './client-errors';
import { rateLimiter, type RateLimitOptions } from './rate-limit';

/**
 * What every request meets before the routes: security headers (helmet), CORS when configured, and
 * the rate limits on /api (per player too: `playerOf` names a token's player; the per-route limits go
 * by the route of `routes` a request will reach). Called once from createApp, before the body parser.
 */
export function applyEdge(app: NestExpressApplication, config: EdgeConfig, playerOf: RateLimitOptions['playerOf'], routes: RouteTable): void {
  // Behind a load balancer (docs/operations.md) every request comes from its address: the limits count
  // the client that X-Forwarded-For names, as far back as the trusted proxies go (parseTrustProxy).
  if (config.trustProxy !== false) app.set('trust proxy', config.trustProxy);
  const cors = config.corsOrigins;
  // Helmet's own policy is off: /api gets the narrowest one below, every HTML page HTML_POLICY.
  app.use(precomputed(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: cors ? 'cross-origin' : 'same-origin' } })));
  app.use('/api', precomputed(helmet.contentSecurityPolicy({ useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } })));
  app.use(htmlPolicy(HTML_POLICY));
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
      routeOf: (method, path) => routes.routeOf(method, path),
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
 * The policy of every HTML page the service serves (/play, a table, the viewer, /docs, and any page
 * added later): scripts, styles, fonts and requests from this origin only, no inline script or style,
 * no plugin, no <base>, no framing. The pages style elements through the CSSOM (`element.style.x =`),
 * which the policy does not govern; an inline `<style>`, a `style="…"` attribute or an `onclick="…"`
 * would be refused. `data:` images are the cards' and Swagger UI's inline SVG icons.
 */
export const HTML_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The policy's header value, with sources added to some directives (a page's hashes). */
export function contentPolicy(extra: Record<string, readonly string[]> = {}): string {
  const names = [...new Set([...Object.keys(HTML_DIRECTIVES), ...Object.keys(extra)])];
  return names.map((name) => [name, ...(HTML_DIRECTIVES[name] ?? []), ...(extra[name] ?? [])].join(' ')).join('; ');
}

export const HTML_POLICY = contentPolicy();

const CSP = 'Content-Security-Policy';

/**
 * Sets `policy` on every answer that turns out to be HTML and carries no policy yet (a route may set
 * its own, as /docs does): decided when the headers go out, by the answer's Content-Type, so a page
 * added anywhere, by any means (a controller, a static file, an error page), is covered without a
 * list of paths. Answers with a policy already (/api's) are passed by at once, at no cost.
 */
export function htmlPolicy(policy: string): RequestHandler {
  return (_req, res, next) => {
    if (res.hasHeader(CSP)) return next();
    const writeHead = res.writeHead;
    // res.end() and res.flushHeaders() go through writeHead too (Node's implicit header).
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!this.hasHeader(CSP) && isHtml(this.getHeader('content-type') ?? headerIn(args, 'content-type'))) this.setHeader(CSP, policy);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
    next();
  };
}

const isHtml = (type: unknown): boolean => typeof type === 'string' && /^\s*text\/html\b/i.test(type);

/** A header given to writeHead itself (`res.writeHead(200, { 'Content-Type': … })`), not set before. */
function headerIn(args: unknown[], name: string): unknown {
  const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
  if (!headers || Array.isArray(headers)) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : (headers as Record<string, unknown>)[key];
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
