import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { OPTION_VALUES, TURN_SECONDS, type ClockOption, type MatchOptions } from '@bismarck/rules';

const TURN_SECONDS_FIELD = { type: 'integer', minimum: TURN_SECONDS.min, maximum: TURN_SECONDS.max, example: 60, description: 'Seconds from the start of a turn to its deadline.' } as const;
const ON_TIMEOUT = 'standIn: a bot makes that decision for the seat; two timeouts in a row make the seat away (the bot plays its turns at once until the person acts again).';

@ApiSchema({ description: 'A turn clock: how long a person may take for a decision, and what happens then (docs/clients.md, "Turn clocks").' })
export class ClockOptionDto {
  @ApiProperty(TURN_SECONDS_FIELD)
  @IsInt()
  @Min(TURN_SECONDS.min)
  @Max(TURN_SECONDS.max)
  readonly turnSeconds!: number;
  @ApiPropertyOptional({ enum: ['standIn'], default: 'standIn', description: ON_TIMEOUT })
  @IsOptional()
  @IsIn(['standIn'])
  readonly onTimeout?: 'standIn';
}

@ApiSchema({ description: "A match's turn clock, as answers and events give it." })
export class ClockOptionViewDto implements ClockOption {
  @ApiProperty(TURN_SECONDS_FIELD) readonly turnSeconds!: number;
  @ApiProperty({ enum: ['standIn'], description: ON_TIMEOUT }) readonly onTimeout!: 'standIn';
}

/** What each option means and, for a request, what leaving it out gives. */
const OPTIONS: Record<keyof MatchOptions, ApiPropertyOptions & { description: string }> = {
  schedule: { enum: [...OPTION_VALUES.schedule], default: 'modern', description: 'The match schedule (docs/rules.md §6).' },
  scoring: { enum: [...OPTION_VALUES.scoring], description: 'Default: zeroSum for modern, overOnly for traditional and quick.' },
  contractChoice: { enum: [...OPTION_VALUES.contractChoice], default: 'blind', description: 'Whether forehand sees his hand before choosing.' },
  spadesInFreeTrump: { type: 'boolean', default: true, description: 'Whether spades may be named as the free trump.' },
  mustTrump: { type: 'boolean', default: false, description: 'A seat void in the led suit that holds a trump must play one.' },
  leadBeforeDiscard: { enum: [...OPTION_VALUES.leadBeforeDiscard], default: 'reject', description: 'What a lead before the lay-away does.' },
  fourthRound: { enum: [...OPTION_VALUES.fourthRound], default: 'none', description: 'Traditional schedule only.' },
  clock: { type: ClockOptionDto, description: 'A turn clock for the persons at the table; left out, a match waits for every seat as long as it takes.' },
} as const;

/** In an answer every option is there, its default filled in: a default would say nothing. */
const answered = (key: keyof MatchOptions): ApiPropertyOptions => {
  const { default: _default, ...field } = OPTIONS[key];
  return field as ApiPropertyOptions;
};

/** The options a match is created with; each one left out takes its default. */
export class MatchOptionsDto {
  @ApiPropertyOptional(OPTIONS.schedule) @IsOptional() @IsIn(OPTION_VALUES.schedule) readonly schedule?: MatchOptions['schedule'];
  @ApiPropertyOptional(OPTIONS.scoring) @IsOptional() @IsIn(OPTION_VALUES.scoring) readonly scoring?: MatchOptions['scoring'];
  @ApiPropertyOptional(OPTIONS.contractChoice) @IsOptional() @IsIn(OPTION_VALUES.contractChoice) readonly contractChoice?: MatchOptions['contractChoice'];
  @ApiPropertyOptional(OPTIONS.spadesInFreeTrump) @IsOptional() @IsBoolean() readonly spadesInFreeTrump?: boolean;
  @ApiPropertyOptional(OPTIONS.mustTrump) @IsOptional() @IsBoolean() readonly mustTrump?: boolean;
  @ApiPropertyOptional(OPTIONS.leadBeforeDiscard) @IsOptional() @IsIn(OPTION_VALUES.leadBeforeDiscard) readonly leadBeforeDiscard?: MatchOptions['leadBeforeDiscard'];
  @ApiPropertyOptional(OPTIONS.fourthRound) @IsOptional() @IsIn(OPTION_VALUES.fourthRound) readonly fourthRound?: MatchOptions['fourthRound'];
  @ApiPropertyOptional(OPTIONS.clock) @IsOptional() @ValidateNested() @Type(() => ClockOptionDto) readonly clock?: ClockOptionDto;
}

/** A match's options as answers and events give them: all seven, defaults filled in, and the clock when the match has one. */
export class MatchOptionsViewDto implements MatchOptions {
  @ApiProperty(answered('schedule')) readonly schedule!: MatchOptions['schedule'];
  @ApiProperty(answered('scoring')) readonly scoring!: MatchOptions['scoring'];
  @ApiProperty(answered('contractChoice')) readonly contractChoice!: MatchOptions['contractChoice'];
  @ApiProperty(answered('spadesInFreeTrump')) readonly spadesInFreeTrump!: boolean;
  @ApiProperty(answered('mustTrump')) readonly mustTrump!: boolean;
  @ApiProperty(answered('leadBeforeDiscard')) readonly leadBeforeDiscard!: MatchOptions['leadBeforeDiscard'];
  @ApiProperty(answered('fourthRound')) readonly fourthRound!: MatchOptions['fourthRound'];
  @ApiPropertyOptional({ type: ClockOptionViewDto, description: 'Only for a match with a turn clock.' }) readonly clock?: ClockOptionViewDto;
}
