import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_STATUS } from './problem';

/** One invalid field of a VALIDATION_FAILED request (RFC 9457 §3): `pointer` or `parameter`, never both. */
export class FieldErrorDto {
  @ApiPropertyOptional({
    example: '/cards/2',
    description: 'A body field, as a JSON Pointer (RFC 6901) into the request body: `/options/schedule`, `/cards/2`; `""` is the whole body.',
  })
  readonly pointer?: string;

  @ApiPropertyOptional({ example: 'limit', description: 'A query or path parameter, by its name in this document: `limit`, `seat`.' })
  readonly parameter?: string;

  @ApiProperty({ example: 'each card must be rank then suit, e.g. QH', description: 'What is wrong with it.' })
  readonly detail!: string;
}

/** The forkable versions around one that is not (POST /api/matches/{id}/fork). */
export class NearestForkableDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 8, description: 'The nearest forkable version below.' }) readonly before!: number;
  @ApiProperty({ type: 'integer', minimum: 1, example: 12, description: 'The nearest forkable version above.' }) readonly after!: number;
}

/** RFC 9457 problem details, as every error leaves the service. */
export class ProblemDto {
  @ApiProperty({ example: 'https://bismarck.example/problems/not-your-turn' }) readonly type!: string;
  @ApiProperty({ example: 'It is not your turn' }) readonly title!: string;
  @ApiProperty({ example: 409 }) readonly status!: number;
  @ApiProperty({ example: 'Seat 2 is to play, not seat 0.' }) readonly detail!: string;
  @ApiProperty({ enum: Object.keys(PROBLEM_STATUS), example: 'NOT_YOUR_TURN' }) readonly code!: string;
  @ApiProperty({ example: '/api/matches/0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a/play', required: false }) readonly instance?: string;
  @ApiProperty({ example: 12, required: false, description: 'With `RATE_LIMITED`, `TOO_MANY_STREAMS`, `TOO_MANY_BOT_MATCHES`, `DATABASE_UNAVAILABLE` and `ANALYSIS_BUSY`: seconds to wait (also in `Retry-After`).' })
  readonly retryAfter?: number;
  @ApiProperty({
    type: [FieldErrorDto],
    required: false,
    description:
      'With `VALIDATION_FAILED`, when the service can tell which fields are wrong: one entry per invalid field ' +
      '(an unknown one too), for a form to mark them. `detail` names the same fields in one sentence.',
    example: [
      { pointer: '/options/schedule', detail: 'schedule must be one of the following values: modern, traditional, quick' },
      { pointer: '/options/jokers', detail: 'property jokers should not exist' },
    ],
  })
  readonly errors?: FieldErrorDto[];
  @ApiProperty({
    type: NearestForkableDto,
    required: false,
    description: 'With `VERSION_NOT_FORKABLE`: the versions just before and after the one asked at which the match can be forked.',
  })
  readonly nearestForkable?: NearestForkableDto;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 13,
    required: false,
    description: 'With `VERSION_MISMATCH`: the version the match is at now (read the view again, then act on it).',
  })
  readonly currentVersion?: number;
}
