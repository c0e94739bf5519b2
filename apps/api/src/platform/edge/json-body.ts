import { json } from 'body-parser';
import bytes from 'bytes';
import { parse as parseContentType } from 'content-type';
import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';
import { pointerOf } from '../problem/field-errors';
import { JSON_MEDIA_TYPES, unsupportedMediaType } from '../problem/media-type';
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
 * 7,000 nested arrays once overflowed class-transformer's stack) and no prototype keys (each one an
 * entry of `errors`). Iterative, so a deep body cannot overflow this check either; each value keeps
 * its parent and key, and a pointer is only spelled out for a refusal.
 */
export function assertJsonShape(body: unknown): void {
  const stack: Node[] = [[body, 1, null, '']];
  const forbidden: Node[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const [value, depth] = node;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      const detail = `The body nests deeper than ${MAX_JSON_DEPTH} levels.`;
      throw new ProblemException('VALIDATION_FAILED', detail, { errors: [{ pointer: pointerOf(pathOf(node)), detail }] });
    }
    for (const key of Object.keys(value)) {
      const child: Node = [(value as Record<string, unknown>)[key], depth + 1, node, key];
      if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) forbidden.push(child);
      else stack.push(child);
    }
  }
  if (forbidden.length > 0) {
    const errors = forbidden.map((node) => ({ pointer: pointerOf(pathOf(node)), detail: `property ${node[3]} should not exist` }));
    throw new ProblemException('VALIDATION_FAILED', errors.map((e) => e.detail).join('; '), { errors });
  }
}

type Node = [value: unknown, depth: number, parent: Node | null, key: string];

function pathOf(node: Node): string[] {
  const path: string[] = [];
  for (let n: Node = node; n[2] !== null; n = n[2]) path.unshift(n[3]);
  return path;
}

/**
 * What a connection closed after a refused body still reads, and drops, once the answer is out: up to
 * 1 MiB or 2 s, whichever comes first (RFC 9112 §9.6).
 */
export const LINGER = { bytes: 1024 * 1024, ms: 2_000 };

/**
 * Closes the connection after this answer as RFC 9112 §9.6 asks: the answer sent, the sending side
 * closed, and the client's body read on and dropped for a bounded while before the connection ends.
 * Closed at once, the body still arriving makes the TCP stack answer with a reset, and a reset can
 * destroy the answer before a client busy sending has read it.
 */
export function closeAfterLinger(req: Request, res: Response, linger = LINGER): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  let read = -1; // counting starts once the answer is out
  let timer: NodeJS.Timeout | undefined;
  const done = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  // Listening now, before the answer: Node's HTTP parser then reads the socket through this stream,
  // which the dropped request resumes after the answer. (Added after the answer, on a socket the parser
  // had paused for a request nobody read, the listener got nothing: Node 20.)
  socket.on('data', (chunk: Buffer) => {
    if (read >= 0 && (read += chunk.length) > linger.bytes) done();
  });
  // Node ends the socket of a `Connection: close` answer, once it is written, with destroySoon()
  // (end, then destroy as soon as flushed): this one ends, reads on, and is destroyed when the client
  // ends too or the bound is reached.
  socket.destroySoon = function lingerThenDestroy(this: Socket): void {
    this.end();
    read = 0;
    timer = setTimeout(done, linger.ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    if (this.readableEnded) done();
    else this.once('end', done);
  };
}

/**
 * The JSON body parser with its guards, as one middleware (each Express layer costs every request a
 * few microseconds): a declared Content-Length over the limit is refused before a byte is read, and
 * the connection closed after a bounded linger (closeAfterLinger; body-parser alone would read, and
 * throw away, the whole body first); a body that is not JSON is refused with 415, not skipped
 * (skipped, a form would fail validation as if it were missing, and a command that takes no body
 * would go through without it); the parsed body must pass assertJsonShape. A request without a body
 * (no Content-Length, or 0, and no Transfer-Encoding) passes whatever its Content-Type says:
 * `POST …/deal` needs none, and clients send it bare.
 */
export function jsonBody(limit: string): (req: Request, res: Response, next: NextFunction) => void {
  const max = bytes.parse(limit) ?? Infinity;
  // The media type is checked just before, once.
  const parse = json({ limit, type: () => true });
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (declared > max) {
      closeAfterLinger(req, res);
      return next(new ProblemException('PAYLOAD_TOO_LARGE', `The body is declared as ${declared} bytes; at most ${max} are accepted.`));
    }
    if (!(declared > 0) && req.headers['transfer-encoding'] === undefined) return next();
    if (!req.is(JSON_MEDIA_TYPES)) {
      if (req.method === 'POST') res.setHeader('Accept-Post', 'application/json');
      return next(unsupportedMediaType(req.headers['content-type']));
    }
    // JSON between systems is UTF-8 (RFC 8259); body-parser would also decode UTF-16 and UTF-32.
    const charset = charsetOf(req);
    if (charset !== undefined && charset !== 'utf-8') {
      if (req.method === 'POST') res.setHeader('Accept-Post', 'application/json');
      return next(new ProblemException('UNSUPPORTED_MEDIA_TYPE', `The body must be JSON in UTF-8, not in ${charset.slice(0, 40)}.`));
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

/** The declared charset, lower-cased, or undefined (none, or a header body-parser reads as none). */
function charsetOf(req: Request): string | undefined {
  try {
    return parseContentType(req.headers['content-type'] ?? '').parameters.charset?.toLowerCase();
  } catch {
    return undefined;
  }
}
