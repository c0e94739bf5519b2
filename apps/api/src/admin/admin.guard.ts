import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { appConfig } from '../config/app.config';
import { bearerOf } from '../edge/caller';
import { ProblemException } from '../problem/problem';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Admin routes exist only when ADMIN_TOKEN is set, and need it as a bearer token. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.adminToken;
    if (expected === null) throw new ProblemException('NOT_FOUND', 'Admin routes are off: set ADMIN_TOKEN to enable them.');
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const presented = bearerOf(header) ?? '';
    if (!presented) throw new ProblemException('UNAUTHORIZED', 'Send the admin token as "Authorization: Bearer <token>".');
    if (!timingSafeEqual(digest(presented), digest(expected))) throw new ProblemException('FORBIDDEN', 'Wrong admin token.');
    return true;
  }
}
