import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { STATUSES, type Status } from '@bismarck/rules';
import { integer, MAX_VERSION } from '../../../platform/http/fields';
import { MATCH_ID_PATTERN } from '../../../platform/http/match-id';
import { QueryInteger } from '../../../platform/http/query-integer';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

export class ListMatchesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STATUSES, description: 'Only matches with this status (`waiting`: open lobby tables).' })
  @IsOptional()
  @IsIn(STATUSES)
  readonly status?: Status;

  @ApiPropertyOptional({
    format: 'uuid',
    pattern: MATCH_ID_PATTERN.source,
    description: 'Only the forks of this match (POST /api/matches/{id}/fork), each of any version of it.',
  })
  @IsOptional()
  @Matches(MATCH_ID_PATTERN, { message: 'forkedFrom must be a match id (a lowercase UUID)' })
  readonly forkedFrom?: string;
}

export class EventsQueryDto {
  @ApiPropertyOptional(integer('Return events after this version.', { minimum: 0, maximum: MAX_VERSION, default: 0 }))
  @IsOptional()
  // Versions are PostgreSQL integers: a larger number is refused here, not by the database.
  @QueryInteger(0, MAX_VERSION)
  readonly after?: number;

  @ApiPropertyOptional(integer('Events per page.', { minimum: 1, maximum: 1000, default: 100 }))
  @IsOptional()
  @QueryInteger(1, 1000)
  readonly limit?: number;
}
