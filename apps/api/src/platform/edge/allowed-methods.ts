// 405 Method Not Allowed (RFC 9110 §15.5.6): a path the service has, asked with a method it does not
// answer there, is refused with the methods it does answer in `Allow`, not 404 as if the path were
// unknown. The table is filled as routes are registered (http-adapter.ts notes each one), so a new
// route is covered without a list anyone must remember; the per-route limits (rate-limit.ts) read
// from it which route a request will reach.
import type { NextFunction, Request, Response } from 'express';
import { pathToRegexp } from 'path-to-regexp';
import { problemBody, sendProblem } from '../problem/problem';

/** The order `Allow` lists methods in; any other comes after these. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** A route registered for every method (Express's `all`). */
export const ALL = 'ALL';

/**
 * How the router matches a path, for Express (http-adapter.ts sets it) and for this table alike:
 * case-sensitive, and a trailing slash makes another path. Otherwise `/api/Matches/` would reach the
 * route of `/api/matches` while a limit or a check reading the path as text took it for another path.
 */
export const ROUTING = { caseSensitive: true, strict: true } as const;

/** A registered route: its method and its path as written (`POST /api/matches/:id/fork`). */
export interface Route {
  readonly method: string;
  readonly path: string;
}

interface Entry extends Route {
  readonly matches: (path: string) => boolean;
}

/** The routes of the service in the order Express tries them, matched as Express matches them. */
export class RouteTable {
  private readonly entries: Entry[] = [];

  /** A route: its method (upper case, or ALL) and its path(s) in Express's syntax (`/api/matches/:id`, `/docs{/*asset}`). */
  add(method: string, path: unknown): void {
    for (const one of Array.isArray(path) ? (path as unknown[]) : [path]) {
      if (typeof one !== 'string') throw new Error(`${method} ${String(one)}: the method table reads string paths only`);
      // As Express matches a route (path-to-regexp with the router's settings); only whether the path
      // matches counts, so no parameter is decoded (a bad escape cannot throw here).
      const { regexp } = pathToRegexp(one, { sensitive: ROUTING.caseSensitive, trailing: !ROUTING.strict });
      this.entries.push({ method, path: one, matches: (p) => regexp.test(p) });
    }
  }

  /** Whether a route of this method and path (as registered) is in the table. */
  has(route: Route): boolean {
    return this.entries.some((e) => e.method === route.method && e.path === route.path);
  }

  /**
   * The route Express will hand this request to: the first registered that matches the path and
   * handles the method (HEAD goes to a GET route, as Express does); undefined when none does.
   */
  routeOf(method: string, path: string): Route | undefined {
    const handles = (m: string) => m === method || m === ALL || (method === 'HEAD' && m === 'GET');
    const entry = this.entries.find((e) => handles(e.method) && e.matches(path));
    return entry && { method: entry.method, path: entry.path };
  }

  /** Whether a route answers this method at this path. */
  answers(method: string, path: string): boolean {
    return this.routeOf(method, path) !== undefined;
  }

  /** What `Allow` says for the path (HEAD with GET, and OPTIONS), or null when no route has the path. */
  allowed(path: string): string[] | null {
    const methods = new Set(this.entries.filter((e) => e.matches(path)).map((e) => e.method));
    if (methods.size === 0) return null;
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length);
    return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
}

/**
 * Answers, before the body is read and before any route, a method the path does not have: 405
 * problem+json METHOD_NOT_ALLOWED with `Allow`. OPTIONS on a known path is 204 with `Allow` (when
 * CORS_ORIGINS is set the cors middleware, earlier, answers every OPTIONS itself, preflights as
 * before). An unknown path goes on, to the 404 NOT_FOUND it always had. A request a route answers
 * pays for one regexp test per route of its method until one matches: well under a microsecond.
 */
export function methodNotAllowed(routes: RouteTable): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (routes.answers(req.method, req.path)) return next();
    const allowed = routes.allowed(req.path);
    if (allowed === null) return next();
    res.setHeader('Allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return void res.status(204).end();
    sendProblem(req, res, problemBody('METHOD_NOT_ALLOWED', `${req.method} is not a method of this resource: it answers ${allowed.join(', ')}.`));
  };
}
