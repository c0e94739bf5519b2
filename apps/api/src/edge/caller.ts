import type { Request } from 'express';

/** The client's address as the limits count it (Express's `req.ip`, which honours `trust proxy`). */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? '?';

/** The token of an `Authorization: Bearer …` header, unchecked; undefined without one. */
export const bearerToken = (req: Request): string | undefined => {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
};
