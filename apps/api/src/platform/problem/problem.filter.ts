import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RuleViolation } from '@bismarck/rules';
import { isDatabaseUnavailable } from './database-unavailable';
import { ruleFieldErrors } from './field-errors';
import { problemBody, ProblemException, sendProblem, type ProblemBody, type ProblemCode } from './problem';

/** Seconds a client should wait before sending a request again while the database is away. */
const DATABASE_RETRY_AFTER_S = 2;

const HTTP_STATUS_CODES: Record<number, ProblemCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

const logger = new Logger('Problem');

/** Every error leaves as application/problem+json with a stable code: rule errors, validation, body parsing, 404s. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(http.getRequest<Request>(), http.getResponse<Response>(), problemFor(exception));
  }
}

/** The problem an exception answers with, logged when it is the server's (or the database's) fault. */
export function problemFor(exception: unknown): ProblemBody {
  const body = toProblem(exception);
  if (body.code === 'DATABASE_UNAVAILABLE') logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
  else if (body.status >= 500) logger.error(exception instanceof Error ? exception.stack : String(exception));
  return body;
}

function toProblem(exception: unknown): ProblemBody {
  if (exception instanceof ProblemException) return { ...(exception.getResponse() as ProblemBody) };
  if (exception instanceof RuleViolation) {
    const errors = exception.code === 'VALIDATION_FAILED' ? ruleFieldErrors(exception.message) : [];
    return problemBody(exception.code as ProblemCode, exception.message, errors.length > 0 ? { errors } : {});
  }
  if (exception instanceof HttpException) return fromHttpException(exception);
  if (isDatabaseUnavailable(exception)) {
    return problemBody('DATABASE_UNAVAILABLE', 'The database cannot be reached right now. Send the request again shortly: with the same Idempotency-Key a command that did reach the log is not applied twice.', {
      retryAfter: DATABASE_RETRY_AFTER_S,
    });
  }
  // body-parser errors are plain errors carrying a status and a type.
  const e = exception as { status?: number; type?: string; message?: string };
  if (e && typeof e.status === 'number' && e.status < 500) {
    if (e.type === 'entity.too.large') return problemBody('PAYLOAD_TOO_LARGE', 'The request body exceeds the size limit.');
    // An unsupported charset or Content-Encoding of a JSON body.
    if (e.status === 415) return problemBody('UNSUPPORTED_MEDIA_TYPE', `The body cannot be read: ${e.message ?? 'unsupported media type'}. Send UTF-8 JSON.`);
    if (e.type === 'entity.parse.failed') {
      const detail = 'The body is not valid JSON.';
      return problemBody('VALIDATION_FAILED', detail, { errors: [{ pointer: '', detail }] });
    }
    return problemBody('VALIDATION_FAILED', e.message ?? 'Bad request.');
  }
  return problemBody('INTERNAL_ERROR', 'The server could not complete the request.');
}

function fromHttpException(exception: HttpException): ProblemBody {
  const status = exception.getStatus();
  const response = exception.getResponse() as string | { message?: string | string[] };
  const message = typeof response === 'string' ? response : response.message;
  const detail = Array.isArray(message) ? message.join('; ') : (message ?? exception.message);
  const code = HTTP_STATUS_CODES[status];
  return problemBody(code ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_FAILED'), detail);
}
