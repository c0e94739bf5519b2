import type { Request } from 'express';

/** The client's address as the limits count it (Express's `req.ip`, which honours `trust proxy`). */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '?';

/**
 * The token of an `Authorization: Bearer …` header, unchecked; undefined without one. The scheme is
 * read in any case (`bearer` is the same scheme: RFC 9110 §11.1), then one or more spaces.
 */
export const bearerOf = (authorization: string | undefined): string | undefined => /^bearer +(\S+)$/i.exec(authorization ?? '')?.[1];

/** `bearerOf` the request's Authorization header. */
export const bearerToken = (req: Request): string | undefined => bearerOf(req.headers.authorization);
