import type { NextFunction, Request, Response } from 'express';
import { problemBody, sendProblem } from '../problem/problem';
import type { Route } from './allowed-methods';
import { bearerToken, clientAddress } from './caller';

export interface RateLimitOptions {
  /** Requests per window per bearer token; 0: no limit. */
  readonly perToken: number;
  /** Requests per window per client address; 0: no limit. */
  readonly perAddress: number;
  readonly windowMs: number;
  /** Requests to CREATION_ROUTES per window per client address, on top of the above; 0: no limit. */
  readonly createsPerAddress?: number;
  /** Requests to WHOLE_MATCH_READ_ROUTES per window per client address, on top of the above; 0: no limit. */
  readonly wholeMatchReadsPerAddress?: number;
  /** Requests per window per player, all its tokens together; 0: no limit. */
  readonly perPlayer?: number;
  /** Creations per window per player (on top of those per address); 0: no limit. */
  readonly createsPerPlayer?: number;
  /** The player a bearer credential acts for (null: none, or not a player's); at once when it knows (a seat token, a cached one). */
  readonly playerOf?: (token: string) => string | null | Promise<string | null>;
  /** The route the router will hand a request to (RouteTable.routeOf): the per-route limits go by it, never by the path's text. */
  readonly routeOf: (method: string, path: string) => Route | undefined;
  readonly now?: () => number;
}

/**
 * The routes that create a match or an account, each of which stays in the log for good. A rematch is
 * not one of them: there is one per finished match, so finishing matches bounds them (docs/clients.md).
 */
export const CREATION_ROUTES: readonly Route[] = [
  { method: 'POST', path: '/api/matches' },
  { method: 'POST', path: '/api/players' },
  { method: 'POST', path: '/api/matches/:id/fork' },
];
/** The reads that go through a whole match's log (a HEAD reaches the same route, and costs the same). */
export const WHOLE_MATCH_READ_ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/matches/:id/audit' },
  { method: 'GET', path: '/api/matches/:id/export' },
  { method: 'GET', path: '/api/matches/:id/notation' },
];

const keyOf = (route: Route): string => `${route.method} ${route.path}`;
const CREATES = new Set(CREATION_ROUTES.map(keyOf));
const WHOLE_MATCH_READS = new Set(WHOLE_MATCH_READ_ROUTES.map(keyOf));

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window rate limits per bearer token, per player (every token of one account together: twenty
 * tokens do not buy twenty times the limit) and per client address, in this process's memory (each api
 * instance counts its own requests). Every answer carries `RateLimit` and `RateLimit-Policy` (IETF
 * draft-ietf-httpapi-ratelimit-headers, "draft-7" form) for the tighter of the two; an answer over
 * the limit is 429 problem+json `RATE_LIMITED` with `Retry-After`. Tokens are kept only as map keys.
 */
export function rateLimiter(options: RateLimitOptions): (req: Request, res: Response, next: NextFunction) => void {
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();
  const perRoute = Boolean(options.createsPerAddress || options.createsPerPlayer || options.wholeMatchReadsPerAddress);
  let sweepAt = now() + options.windowMs;

  const hit = (key: string, limit: number, t: number): { remaining: number; reset: number; limit: number } => {
    let w = windows.get(key);
    if (!w || w.resetAt <= t) windows.set(key, (w = { count: 0, resetAt: t + options.windowMs }));
    w.count++;
    return { limit, remaining: limit - w.count, reset: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) };
  };

  return (req, res, next) => {
    const token = bearerToken(req);
    if (token === undefined || !options.playerOf || !(options.perPlayer || options.createsPerPlayer)) return limit(req, res, next, null);
    const player = options.playerOf(token);
    if (!(player instanceof Promise)) return limit(req, res, next, player);
    // A failed lookup (the database away) limits as a token only: the route itself answers the outage.
    player.then(
      (id) => limit(req, res, next, id),
      () => limit(req, res, next, null),
    );
  };

  function limit(req: Request, res: Response, next: NextFunction, player: string | null): void {
    const t = now();
    if (t >= sweepAt) {
      for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
      sweepAt = t + options.windowMs;
    }
    const checks: { remaining: number; reset: number; limit: number }[] = [];
    const address = clientAddress(req);
    const token = bearerToken(req);
    if (options.perAddress > 0) checks.push(hit(`a:${address}`, options.perAddress, t));
    if (options.perToken > 0 && token !== undefined) checks.push(hit(`t:${token}`, options.perToken, t));
    if (player !== null && options.perPlayer) checks.push(hit(`p:${player}`, options.perPlayer, t));
    // Mounted under /api: the route is looked up by the whole path, as the router will see it.
    const matched = perRoute ? options.routeOf(req.method, req.baseUrl + req.path) : undefined;
    const route = matched && keyOf(matched);
    // Every match and every account stays in the log for good: creating them (a fork too) has a tighter limit of its own.
    const creates = route !== undefined && CREATES.has(route);
    if (creates && options.createsPerAddress) checks.push(hit(`c:${address}`, options.createsPerAddress, t));
    if (creates && player !== null && options.createsPerPlayer) checks.push(hit(`cp:${player}`, options.createsPerPlayer, t));
    // An audit re-decides every move of the match: a hundred commands' worth of CPU for one request.
    if (options.wholeMatchReadsPerAddress && route !== undefined && WHOLE_MATCH_READS.has(route)) {
      checks.push(hit(`w:${address}`, options.wholeMatchReadsPerAddress, t));
    }
    if (checks.length === 0) return next();
    const tightest = checks.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    res.setHeader('RateLimit-Policy', `${tightest.limit};w=${Math.round(options.windowMs / 1000)}`);
    res.setHeader('RateLimit', `limit=${tightest.limit}, remaining=${Math.max(0, tightest.remaining)}, reset=${tightest.reset}`);
    if (tightest.remaining >= 0) return next();
    const detail = `Too many requests: at most ${tightest.limit} in ${Math.round(options.windowMs / 1000)} s. Retry after ${tightest.reset} s.`;
    sendProblem(req, res, problemBody('RATE_LIMITED', detail, { retryAfter: tightest.reset }));
  }
}
