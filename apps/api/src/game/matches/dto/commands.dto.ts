import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { normalCut } from '@bismarck/rules';
import { card, CARD_REGEX, cards, CUT_SCHEMA, CUT_WORDS, seat, SUITS } from '../../../platform/http/fields';

/** The match and the seat a seat route names in its path (`/api/matches/{id}/seats/{seat}/…`). */
export class SeatPathDto {
  @ApiProperty({ format: 'uuid', description: 'The match id.' })
  @IsString()
  readonly id!: string;

  @ApiProperty(seat('The seat.'))
  // Exactly one digit: Number() would read '0x1' as 1 and ' ' as 0.
  @Transform(({ value }) => (typeof value === 'string' && /^[0-2]$/.test(value) ? Number(value) : value))
  @IsIn([0, 1, 2], { message: 'seat must be 0, 1 or 2' })
  readonly seat!: 0 | 1 | 2;
}

export class ChooseContractDto {
  @ApiProperty({ enum: ['spades', 'trump', 'notrump', 'pass'], example: 'trump', description: 'The contract (docs/rules.md §3).' })
  @IsIn(['spades', 'trump', 'notrump', 'pass'])
  readonly contract!: 'spades' | 'trump' | 'notrump' | 'pass';

  @ApiPropertyOptional({ enum: SUITS, nullable: true, example: 'H', description: 'The named suit, only with contract `trump`.' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(['S', 'H', 'D', 'C'])
  readonly trump?: 'S' | 'H' | 'D' | 'C' | null;
}

export class DiscardDto {
  @ApiProperty(cards('The four cards forehand lays away, from his hand.', { minItems: 4, maxItems: 4, uniqueItems: true, example: ['2C', '3C', '4D', '7H'] }))
  @IsArray()
  @ArrayMinSize(4)
  @ArrayMaxSize(4)
  @IsString({ each: true })
  @Matches(CARD_REGEX, { each: true, message: 'each card must be rank then suit, e.g. QH' })
  readonly cards!: string[];
}

export class PlayCardDto {
  @ApiProperty(card('The card to play: rank 2-9 T J Q K A, then suit S H D C.'))
  @IsString()
  @Matches(CARD_REGEX, { message: 'card must be rank then suit, e.g. QH' })
  readonly card!: string;
}

export class CutDto {
  @ApiProperty({
    ...CUT_SCHEMA,
    example: 'lykke til',
    description:
      `The cutter's contribution to the next deck: ${CUT_WORDS}. ` +
      'Recorded (`DeckCut.cut`) and mixed into the shuffle in its NFC form, as UTF-8 (docs/fairness.md). ' +
      'The pattern is the one the service tests that NFC form with: text already in NFC (nearly all text) is accepted exactly when it ' +
      'matches (in ECMAScript\'s `u` mode, or any engine that reads a string by code points). Text that NFC changes can differ: ' +
      'composing may shorten a run of marks, and a few characters decompose (U+0958 into two code points), so check the NFC form.',
  })
  @IsString()
  // The rules' own test, so the answer here and the rules' refusal never disagree.
  @ValidateBy({ name: 'isCut', validator: { validate: (value: unknown) => normalCut(value) !== null, defaultMessage: () => `cut must be ${CUT_WORDS}` } })
  readonly cut!: string;
}
