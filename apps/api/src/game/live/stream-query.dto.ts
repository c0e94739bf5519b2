import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { integer } from '../../platform/http/fields';
import { QueryInteger } from '../../platform/http/query-integer';

export class StreamQueryDto {
  @ApiPropertyOptional(integer('Start after this version (when no Last-Event-ID is sent).', { minimum: 0, maximum: 999_999_999, default: 0, example: 0 }))
  @IsOptional()
  @QueryInteger(0, 999_999_999)
  readonly after?: number;
}
