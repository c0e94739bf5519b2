import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { OPTION_VALUES, type MatchOptions } from '@bismarck/rules';

/** What each option means and, for a request, what leaving it out gives. */
const OPTIONS: Record<keyof MatchOptions, ApiPropertyOptions & { description: string }> = {
  schedule: { enum: [...OPTION_VALUES.schedule], default: 'modern', description: 'The match schedule (docs/rules.md §6).' },
  scoring: { enum: [...OPTION_VALUES.scoring], description: 'Default: zeroSum for modern, overOnly for traditional and quick.' },
  contractChoice: { enum: [...OPTION_VALUES.contractChoice], default: 'blind', description: 'Whether forehand sees his hand before choosing.' },
  spadesInFreeTrump: { type: 'boolean', default: true, description: 'Whether spades may be named as the free trump.' },
  mustTrump: { type: 'boolean', default: false, description: 'A seat void in the led suit that holds a trump must play one.' },
  leadBeforeDiscard: { enum: [...OPTION_VALUES.leadBeforeDiscard], default: 'reject', description: 'What a lead before the lay-away does.' },
  fourthRound: { enum: [...OPTION_VALUES.fourthRound], default: 'none', description: 'Traditional schedule only.' },
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
}

/** A match's options as answers and events give them: all seven, defaults filled in. */
export class MatchOptionsViewDto implements MatchOptions {
  @ApiProperty(answered('schedule')) readonly schedule!: MatchOptions['schedule'];
  @ApiProperty(answered('scoring')) readonly scoring!: MatchOptions['scoring'];
  @ApiProperty(answered('contractChoice')) readonly contractChoice!: MatchOptions['contractChoice'];
  @ApiProperty(answered('spadesInFreeTrump')) readonly spadesInFreeTrump!: boolean;
  @ApiProperty(answered('mustTrump')) readonly mustTrump!: boolean;
  @ApiProperty(answered('leadBeforeDiscard')) readonly leadBeforeDiscard!: MatchOptions['leadBeforeDiscard'];
  @ApiProperty(answered('fourthRound')) readonly fourthRound!: MatchOptions['fourthRound'];
}
