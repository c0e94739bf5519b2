import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { CUT_PATTERN } from '@bismarck/rules';

const CARD = /^[2-9TJQKA][SHDC]$/;
const CARD_EXAMPLE = 'QH';

export class ChooseContractDto {
  @ApiProperty({ enum: ['spades', 'trump', 'notrump', 'pass'], example: 'trump' })
  @IsIn(['spades', 'trump', 'notrump', 'pass'])
  readonly contract!: 'spades' | 'trump' | 'notrump' | 'pass';

  @ApiPropertyOptional({ enum: ['S', 'H', 'D', 'C'], nullable: true, example: 'H', description: 'The named suit, only with contract `trump`.' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(['S', 'H', 'D', 'C'])
  readonly trump?: 'S' | 'H' | 'D' | 'C' | null;
}

export class DiscardDto {
  @ApiProperty({ type: [String], minItems: 4, maxItems: 4, example: ['2C', '3C', '4D', '7H'], description: 'The four cards forehand lays away.' })
  @IsArray()
  @ArrayMinSize(4)
  @ArrayMaxSize(4)
  @IsString({ each: true })
  @Matches(CARD, { each: true, message: 'each card must be rank then suit, e.g. QH' })
  readonly cards!: string[];
}

export class PlayCardDto {
  @ApiProperty({ example: CARD_EXAMPLE, pattern: CARD.source, description: 'Rank 2-9 T J Q K A, then suit S H D C.' })
  @IsString()
  @Matches(CARD, { message: 'card must be rank then suit, e.g. QH' })
  readonly card!: string;
}

export class CutDto {
  @ApiProperty({
    example: 'k7Qz-42',
    pattern: CUT_PATTERN.source,
    description: "The cutter's contribution to the next deck: any 1 to 64 visible ASCII characters (docs/fairness.md).",
  })
  @IsString()
  @Matches(CUT_PATTERN, { message: 'cut must be 1 to 64 visible ASCII characters' })
  readonly cut!: string;
}
