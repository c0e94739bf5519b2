import { json } from 'body-parser';
import bytes from 'bytes';
import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from '../problem/problem';

/** No request body of this API nests deeper than a few levels; 32 leaves room and stops abuse early. */
export const MAX_JSON_DEPTH = 32;

/**
 * Own keys that mean something to JavaScript objects. JSON.parse makes them plain own properties, and
 * class-transformer would then skip them silently (or worse, copy them onto a prototype): refused as
 * any unknown field is.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks a parsed JSON body before any transformation: at most MAX_JSON_DEPTH levels (a 14 kB body of
 * 7,000 nested arrays once overflowed class-transformer's stack) and no prototype keys. Iterative,
 * so a deep body cannot overflow this check either.
 */
export function assertJsonShape(body: unknown): void {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) throw new ProblemException('VALIDATION_FAILED', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    for (const key of Object.keys(value)) {
      if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) throw new ProblemException('VALIDATION_FAILED', `property ${key} should not exist`);
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

/**
 * The JSON body parser with its two guards, as one middleware (each Express layer costs every request
 * a few microseconds): a declared Content-Length over the limit is refused before a byte is read and
 * the connection closed (body-parser alone would read, and throw away, the whole body first), and the
 * parsed body must pass assertJsonShape.
 */
export function jsonBody(limit: string): (req: Request, res: Response, next: NextFunction) => void {
  const max = bytes.parse(limit) ?? Infinity;
  const parse = json({ limit, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (declared > max) {
      res.setHeader('Connection', 'close');
      return next(new ProblemException('PAYLOAD_TOO_LARGE', `The body is declared as ${declared} bytes; at most ${max} are accepted.`));
    }
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        assertJsonShape(req.body);
      } catch (error) {
        return next(error);
      }
      next();
    });
  };
}
