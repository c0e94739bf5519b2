import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The part of a pino logger this needs. */
export interface RequestLogger {
  isLevelEnabled(level: string): boolean;
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
  child?(bindings: object, options: { serializers: Record<string, (value: unknown) => unknown> }): RequestLogger;
}

const asIs = (value: unknown): unknown => value;

const SANE_REQUEST_ID = /^[\w.:-]{1,100}$/;
const QUIET_PATHS = new Set(['/health', '/metrics']);

/** The level of a finished request's line: successes at debug, refusals at info, failures at error. */
export function requestLogLevel(status: number): 'debug' | 'info' | 'error' {
  return status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
}

/**
 * One pino line per finished request, and the `X-Request-Id` echo. Replaces pino-http's middleware
 * (with nestjs-pino's per-request AsyncLocalStorage), which cost ~0.1 ms of CPU per request even when
 * it wrote nothing — a third of a command's cost in the api (docs/performance.md). Only the request
 * line is built, and only when its level is enabled; headers and bodies are never logged, so tokens
 * cannot reach the logs.
 */
export function requestLog(logger: RequestLogger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  // The line's `req` and `res` are plain already: the standard serializers expect Node's request and
  // response and would log `statusCode: null` and no address.
  const log = logger.child?.({}, { serializers: { req: asIs, res: asIs } }) ?? logger;
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.once('finish', () => {
      const level = requestLogLevel(res.statusCode);
      if (!log.isLevelEnabled(level)) return;
      const path = (req.url ?? '').split('?', 1)[0];
      if (level === 'debug' && QUIET_PATHS.has(path)) return;
      log[level](
        {
          req: { id, method: req.method, url: req.url, remoteAddress: req.socket.remoteAddress },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        level === 'error' ? 'request failed' : 'request completed',
      );
    });
    next();
  };
}
