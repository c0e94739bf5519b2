import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { IsSeatNames } from '../../lobby/seat-names.validator';
import { MatchOptionsDto } from './match-options.dto';

export class CreateMatchDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', nullable: true, minLength: 1, maxLength: 40 },
    minItems: 3,
    maxItems: 3,
    example: ['Astrid', 'Bjørn', 'Cecilia'],
    description:
      'Names of seats 0, 1, 2. `null` leaves a seat open (a lobby table, status `waiting`): others take it with ' +
      '`POST /api/matches/{id}/seats/{seat}/join`, and the match starts when all three seats are taken. ' +
      'A name is 1 to 40 printable characters.',
  })
  @IsSeatNames()
  readonly players!: [string | null, string | null, string | null];

  @ApiPropertyOptional({ type: MatchOptionsDto, example: { schedule: 'modern' }, description: 'The match options (docs/rules.md §8); each one left out takes its default.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => MatchOptionsDto)
  readonly options?: MatchOptionsDto;

  @ApiPropertyOptional({
    example: 'club-night-42',
    description:
      'Makes every deal reproducible (a sandbox or test match, marked as seeded and not provably fair). ' +
      'A seeded match takes no strangers: with an open seat it is refused (400 SEED_WITH_OPEN_SEATS).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  // Text PostgreSQL can store and a log can show: no control character, no lone UTF-16 surrogate.
  @Matches(/^[^\p{Cc}\p{Cs}]+$/u, { message: 'seed must be printable text (no control characters, no lone UTF-16 surrogates)' })
  readonly seed?: string;
}
