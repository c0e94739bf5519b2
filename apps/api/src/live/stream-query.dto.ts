import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class StreamQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0, example: 0, description: 'Start after this version (when no Last-Event-ID is sent).' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(999_999_999)
  readonly after?: number;
}
