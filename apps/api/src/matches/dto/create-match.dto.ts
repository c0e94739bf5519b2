import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { IsSeatNames } from '../../lobby/seat-names.validator';

export class MatchOptionsDto {
  @ApiPropertyOptional({ enum: ['modern', 'traditional', 'quick'], default: 'modern', description: 'The match schedule (docs/rules.md §6).' })
  @IsOptional()
  @IsIn(['modern', 'traditional', 'quick'])
  readonly schedule?: 'modern' | 'traditional' | 'quick';

  @ApiPropertyOptional({ enum: ['zeroSum', 'overOnly'], description: 'Default: zeroSum for modern, overOnly for traditional and quick.' })
  @IsOptional()
  @IsIn(['zeroSum', 'overOnly'])
  readonly scoring?: 'zeroSum' | 'overOnly';

  @ApiPropertyOptional({ enum: ['blind', 'informed'], default: 'blind', description: 'Whether forehand sees his hand before choosing.' })
  @IsOptional()
  @IsIn(['blind', 'informed'])
  readonly contractChoice?: 'blind' | 'informed';

  @ApiPropertyOptional({ default: true, description: 'Whether spades may be named as the free trump.' })
  @IsOptional()
  @IsBoolean()
  readonly spadesInFreeTrump?: boolean;

  @ApiPropertyOptional({ default: false, description: 'A seat void in the led suit that holds a trump must play one.' })
  @IsOptional()
  @IsBoolean()
  readonly mustTrump?: boolean;

  @ApiPropertyOptional({ enum: ['reject', 'redeal'], default: 'reject', description: 'What a lead before the lay-away does.' })
  @IsOptional()
  @IsIn(['reject', 'redeal'])
  readonly leadBeforeDiscard?: 'reject' | 'redeal';

  @ApiPropertyOptional({ enum: ['none', 'freeTrump', 'freeTrumpBlind'], default: 'none', description: 'Traditional schedule only.' })
  @IsOptional()
  @IsIn(['none', 'freeTrump', 'freeTrumpBlind'])
  readonly fourthRound?: 'none' | 'freeTrump' | 'freeTrumpBlind';
}

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
