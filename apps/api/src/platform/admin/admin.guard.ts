import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { appConfig } from '../config/app.config';
import { bearerOf } from '../edge/caller';
import { problemBody, ProblemException, sendProblem } from '../problem/problem';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

const OFF = 'Admin routes are off: set ADMIN_TOKEN to enable them.';

/**
 * Mounted at /api/admin when ADMIN_TOKEN is unset: the admin routes do not exist, so every method
 * answers 404 as an unknown path does (the method table, seeing the route, would say 405 to a GET).
 */
export function adminRoutesOff(req: Request, res: Response): void {
  sendProblem(req, res, problemBody('NOT_FOUND', OFF));
}

/** Admin routes exist only when ADMIN_TOKEN is set, and need it as a bearer token. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.adminToken;
    if (expected === null) throw new ProblemException('NOT_FOUND', OFF);
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const presented = bearerOf(header) ?? '';
    if (!presented) throw new ProblemException('UNAUTHORIZED', 'Send the admin token as "Authorization: Bearer <token>".');
    if (!timingSafeEqual(digest(presented), digest(expected))) throw new ProblemException('FORBIDDEN', 'Wrong admin token.');
    return true;
  }
}
