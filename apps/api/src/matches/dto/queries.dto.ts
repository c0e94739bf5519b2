import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { STATUSES, type Status } from '@bismarck/rules';

export class ListMatchesQueryDto {
  @ApiPropertyOptional({ enum: STATUSES })
  @IsOptional()
  @IsIn(STATUSES)
  readonly status?: Status;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  readonly limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  readonly cursor?: string;
}

export class EventsQueryDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 2147483647, default: 0, description: 'Return events after this version.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  // Versions are PostgreSQL integers: a larger number is refused here, not by the database.
  @Max(2147483647)
  readonly after?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  readonly limit?: number;
}
