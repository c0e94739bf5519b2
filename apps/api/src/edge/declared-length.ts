import bytes from 'bytes';
import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from '../problem/problem';

/**
 * Refuses a body whose declared Content-Length is over the limit before a byte of it is read, and
 * closes the connection. The JSON parser would answer 413 too, but only after reading (and throwing
 * away) the whole body, however large it says it is.
 */
export function declaredLength(limit: string): (req: Request, res: Response, next: NextFunction) => void {
  const max = bytes.parse(limit) ?? Infinity;
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (!(declared > max)) return next();
    res.setHeader('Connection', 'close');
    next(new ProblemException('PAYLOAD_TOO_LARGE', `The body is declared as ${declared} bytes; at most ${max} are accepted.`));
  };
}
