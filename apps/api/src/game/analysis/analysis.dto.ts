import { ApiProperty } from '@nestjs/swagger';
import { card, integer, seat, SUITS, triple } from '../../platform/http/fields';
import { QueryInteger } from '../../platform/http/query-integer';

/** Deal numbers: at most 12 in any schedule; a larger one is refused by the match's own count. */
export const MAX_DEAL = 1000;

export class AnalysisQueryDto {
  @ApiProperty(integer("The deal to analyse, from 1 (the scorecard's `number`); it must be scored.", { minimum: 1, maximum: MAX_DEAL, example: 1 }))
  @QueryInteger(1, MAX_DEAL)
  readonly deal!: number;
}

const nullableTriple = (description: string, example: (number | null)[]) =>
  ({ type: 'array', items: { type: 'integer', nullable: true }, minItems: 3, maxItems: 3, example, description }) as const;

export class CardAnalysisDto {
  @ApiProperty(integer('The trick, 1 to 16.', { minimum: 1, maximum: 16, example: 3 })) readonly trick!: number;
  @ApiProperty(seat('The seat that played the card.', { example: 1 })) readonly seat!: number;
  @ApiProperty(card('The card played.')) readonly card!: string;
  @ApiProperty(
    integer("The seat's tricks in the whole deal (those already taken included) had it played its best card here, every card face up, against the other two together; null over the node budget.", {
      nullable: true,
      minimum: 0,
      maximum: 16,
      example: 6,
    }),
  )
  readonly before!: number | null;
  @ApiProperty(integer('The same after the card it played; null over the node budget.', { nullable: true, minimum: 0, maximum: 16, example: 5 }))
  readonly after!: number | null;
  @ApiProperty(
    integer("Tricks the card gave away in the seat's own aim: `before − after` when it plays for tricks, `after − before` in pass. 0: a best card; null over the node budget.", {
      nullable: true,
      minimum: 0,
      maximum: 16,
      example: 1,
    }),
  )
  readonly cost!: number | null;
  @ApiProperty({ description: 'True when a solve of this card stopped at the node budget (`before`, `after` or both are null).', example: false })
  readonly overBudget!: boolean;
}

export class ParDto {
  @ApiProperty(nullableTriple('Per seat: the tricks it makes from the first lead against the other two together, every card face up (each seat on its own, so they need not add up to 16); null over the node budget.', [9, 4, 3]))
  readonly tricks!: (number | null)[];
  @ApiProperty(nullableTriple("The points those tricks score by the match's scoring and the deal's quotas, each seat on its own; null over the node budget.", [1, 0, -1]))
  readonly points!: (number | null)[];
}

export class DealResultDto {
  @ApiProperty(triple('Tricks taken, seat 0 first.', [8, 5, 3])) readonly tricks!: number[];
  @ApiProperty(triple('Points scored in the deal.', [0, 1, -1])) readonly points!: number[];
}

export class DealAnalysisDto {
  @ApiProperty({ enum: ['done'], description: 'The analysis is computed (it is kept: later requests read it).' }) readonly status!: 'done';
  @ApiProperty({ format: 'uuid', description: 'The match id.' }) readonly matchId!: string;
  @ApiProperty(integer('The deal.', { minimum: 1, example: 1 })) readonly deal!: number;
  @ApiProperty(seat('Forehand of the deal.', { example: 0 })) readonly forehand!: number;
  @ApiProperty({ enum: ['spades', 'trump', 'notrump', 'pass'], example: 'notrump', description: 'The contract played.' }) readonly contract!: string;
  @ApiProperty({ enum: SUITS, nullable: true, example: null, description: 'The trump suit, or null.' }) readonly trump!: string | null;
  @ApiProperty({ enum: ['most', 'fewest'], description: 'What every seat plays for in this contract: `fewest` in pass, else `most`.' }) readonly goal!: string;
  @ApiProperty(triple("The deal's quotas, seat 0 first.", [8, 4, 4])) readonly quotas!: number[];
  @ApiProperty(integer('Attempts at this deal voided before it was played (leadBeforeDiscard: redeal); only the attempt that was played is analysed.', { minimum: 0, example: 0 }))
  readonly voidedAttempts!: number;
  @ApiProperty({ type: [CardAnalysisDto], description: 'Every card played, in order (48).' }) readonly cards!: CardAnalysisDto[];
  @ApiProperty({ type: ParDto, description: 'What each seat could make of the deal from the first lead, every card face up.' }) readonly par!: ParDto;
  @ApiProperty({ type: DealResultDto, description: 'What was scored.' }) readonly actual!: DealResultDto;
  @ApiProperty(integer('The node budget of each solve (ANALYSIS_MAX_NODES when it was computed).', { minimum: 1, example: 2000000 })) readonly maxNodes!: number;
  @ApiProperty({ description: 'True when some solve stopped at the node budget: some values are null.', example: false }) readonly overBudget!: boolean;
  @ApiProperty(integer('Positions the solver expanded for this analysis (the same on every machine).', { minimum: 0, example: 5218733 })) readonly nodes!: number;
  @ApiProperty({ format: 'date-time', description: 'When it was computed; the same on every later answer (it is computed once).' }) readonly computedAt!: string;
  @ApiProperty(integer('Milliseconds the worker spent computing it.', { minimum: 0, example: 2480 })) readonly computeMs!: number;
}

export class AnalysisPendingDto {
  @ApiProperty({ enum: ['pending'], description: 'The analysis is being computed: ask again after `retryAfter` seconds (also in `Retry-After`).' })
  readonly status!: 'pending';
  @ApiProperty({ format: 'uuid', description: 'The match id.' }) readonly matchId!: string;
  @ApiProperty(integer('The deal.', { minimum: 1, example: 1 })) readonly deal!: number;
  @ApiProperty(integer('Seconds to wait before asking again.', { minimum: 1, example: 2 })) readonly retryAfter!: number;
}
