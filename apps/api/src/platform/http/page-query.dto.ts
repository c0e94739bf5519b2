import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { integer } from './fields';
import { QueryInteger } from './query-integer';

/** A page of a list: how many entries, and where the previous page ended (its `nextCursor`). */
export class PageQueryDto {
  @ApiPropertyOptional(integer('Entries per page.', { minimum: 1, maximum: 100, default: 20 }))
  @IsOptional()
  @QueryInteger(1, 100)
  readonly limit?: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  readonly cursor?: string;
}
