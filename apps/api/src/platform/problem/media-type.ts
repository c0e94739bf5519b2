import { ApiResponse } from '@nestjs/swagger';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ProblemException } from './problem';

/** The only bodies this API reads: JSON (and `+json` types such as `application/merge-patch+json`). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/** A request body that is not JSON: 415, before anything reads it (a form or a text body is never half-understood). */
export function unsupportedMediaType(contentType: string | undefined): ProblemException {
  const type = contentType?.split(';')[0].trim().slice(0, 100);
  return new ProblemException('UNSUPPORTED_MEDIA_TYPE', `The body must be JSON (Content-Type: application/json), not ${type ? type : 'without a Content-Type'}.`);
}

/**
 * Documents the 415 answer on a route that takes a body (one with a `@Body()` parameter: parameter
 * decorators run before method decorators, so they are known here); other routes are left alone.
 */
export function ApiUnsupportedMediaType(): MethodDecorator {
  return (target, key, descriptor) => {
    const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {};
    if (!Object.keys(args).some((arg) => arg.split(':')[0] === String(RouteParamtypes.BODY))) return;
    ApiResponse({ status: 415, ...unsupportedMediaTypeResponse() })(target, key, descriptor);
  };
}

/** The documented 415 answer (also given to a POST that reads no body, when one is sent: http/openapi.ts). */
export function unsupportedMediaTypeResponse(): { description: string; headers: Record<string, object>; content: Record<string, object> } {
  return {
    description: 'Problem details; `code` is `UNSUPPORTED_MEDIA_TYPE`: the body was not sent as `application/json`. Nothing was done.',
    headers: { 'Accept-Post': { description: 'The media type a POST body must have.', schema: { type: 'string', example: 'application/json' } } },
    content: {
      'application/problem+json': {
        schema: { $ref: '#/components/schemas/ProblemDto' },
        examples: { UNSUPPORTED_MEDIA_TYPE: { value: unsupportedMediaType('application/x-www-form-urlencoded').getResponse() } },
      },
    },
  };
}
