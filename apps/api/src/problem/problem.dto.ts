import { ApiProperty } from '@nestjs/swagger';
import { PROBLEM_STATUS } from './problem';

/** RFC 9457 problem details, as every error leaves the service. */
export class ProblemDto {
  @ApiProperty({ example: 'https://bismarck.example/problems/not-your-turn' }) readonly type!: string;
  @ApiProperty({ example: 'It is not your turn' }) readonly title!: string;
  @ApiProperty({ example: 409 }) readonly status!: number;
  @ApiProperty({ example: 'Seat 2 is to play, not seat 0.' }) readonly detail!: string;
  @ApiProperty({ enum: Object.keys(PROBLEM_STATUS), example: 'NOT_YOUR_TURN' }) readonly code!: string;
  @ApiProperty({ example: '/api/matches/0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a/play', required: false }) readonly instance?: string;
  @ApiProperty({ example: 12, required: false, description: 'With `RATE_LIMITED`: seconds to wait (also in `Retry-After`).' })
  readonly retryAfter?: number;
}
