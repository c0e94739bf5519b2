import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';

/** No control characters in names: they would end up in logs and terminals. */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+$/u;

export class MatchOptionsDto {
  @ApiPropertyOptional({ enum: ['modern', 'traditional', 'quick'], default: 'modern', description: 'The match schedule (RULES.md §6).' })
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
  @ApiProperty({ type: [String], minItems: 3, maxItems: 3, example: ['Astrid', 'Bjørn', 'Cecilia'], description: 'Names of seats 0, 1, 2.' })
  @IsArray()
  @ArrayMinSize(3)
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  @Matches(PRINTABLE, { each: true, message: 'player names must not contain control characters' })
  readonly players!: [string, string, string];

  @ApiPropertyOptional({ type: MatchOptionsDto, example: { schedule: 'modern' } })
  @IsOptional()
  @ValidateNested()
  @Type(() => MatchOptionsDto)
  readonly options?: MatchOptionsDto;

  @ApiPropertyOptional({
    example: 'club-night-42',
    description: 'Makes every deal reproducible (a sandbox or test match, marked as seeded and not provably fair).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  readonly seed?: string;
}
