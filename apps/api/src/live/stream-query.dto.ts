import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { integer } from '../matches/dto/fields';

export class StreamQueryDto {
  @ApiPropertyOptional(integer('Start after this version (when no Last-Event-ID is sent).', { minimum: 0, maximum: 999_999_999, default: 0, example: 0 }))
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(999_999_999)
  readonly after?: number;
}
