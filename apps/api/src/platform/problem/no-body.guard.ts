import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { pointerOf } from './field-errors';
import { ProblemException } from './problem';

/**
 * For an operation that reads no body (`POST …/deal`, `POST …/fork`): a JSON body that says anything
 * is refused like an unknown field of any other body (400 VALIDATION_FAILED, one entry per field),
 * instead of the operation going through as if it had not been sent. No body, or `{}`, is none.
 * A guard, so the OpenAPI document still shows no request body.
 */
@Injectable()
export class NoBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const body: unknown = context.switchToHttp().getRequest<Request>().body;
    if (body === undefined || body === null || typeof body !== 'object') return true;
    if (Array.isArray(body)) {
      const detail = 'this operation takes no body';
      throw new ProblemException('VALIDATION_FAILED', detail, { errors: [{ pointer: '', detail }] });
    }
    const keys = Object.keys(body);
    if (keys.length === 0) return true;
    const errors = keys.map((key) => ({ pointer: pointerOf([key]), detail: `property ${key} should not exist` }));
    throw new ProblemException('VALIDATION_FAILED', errors.map((e) => e.detail).join('; '), { errors });
  }
}
