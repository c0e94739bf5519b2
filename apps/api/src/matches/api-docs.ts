import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ApiUnsupportedMediaType } from '../problem/media-type';
import { PROBLEM_STATUS, type ProblemCode } from '../problem/problem';

/** Documents the problem+json answers a route may give, grouped by status, with their codes. */
export function ApiProblems(...codes: ProblemCode[]): MethodDecorator {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(PROBLEM_STATUS[code], [...(byStatus.get(PROBLEM_STATUS[code]) ?? []), code]);
  return applyDecorators(
    ApiUnsupportedMediaType(), // 415 where the route takes a body (problem/media-type.ts)
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: `Problem details; \`code\` is one of ${list.map((c) => `\`${c}\``).join(', ')}.`,
        content: {
          'application/problem+json': {
            schema: { $ref: '#/components/schemas/ProblemDto' },
            examples: Object.fromEntries(
              list.map((code) => [code, { value: { type: `https://bismarck.example/problems/${code.toLowerCase().replace(/_/g, '-')}`, title: code, status, detail: '…', code } }]),
            ),
          },
        },
      }),
    ),
  );
}

export const ApiMatchId = (): MethodDecorator => ApiParam({ name: 'id', format: 'uuid', description: 'The match id.' });

/** A command route: seat token, optimistic concurrency and idempotency headers. */
export function ApiCommand(...codes: ProblemCode[]): MethodDecorator {
  return applyDecorators(
    ApiBearerAuth('seat'),
    ApiMatchId(),
    ApiHeader({ name: 'If-Match', required: false, description: 'Apply only if the match is still at this version, e.g. `"12"`.' }),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A retry with the same key by the same seat returns the first answer.' }),
    ApiProblems('VALIDATION_FAILED', 'UNAUTHORIZED', 'FORBIDDEN', 'MATCH_NOT_FOUND', 'VERSION_MISMATCH', 'IDEMPOTENCY_KEY_REUSED', 'CONCURRENT_UPDATE', 'MATCH_ABANDONED', ...codes),
  );
}

