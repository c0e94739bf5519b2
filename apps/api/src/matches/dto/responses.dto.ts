import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';
import { MatchOptionsDto } from './create-match.dto';
import { CONTRACTS, EVENT_TYPES, STATUSES } from '@bismarck/rules';

// Response shapes, for the generated OpenAPI document. The bodies themselves are built by libs/rules.

const SEAT: ApiPropertyOptions = { type: Number, enum: [0, 1, 2] };
const TRIPLE: ApiPropertyOptions = { type: [Number], minItems: 3, maxItems: 3, example: [0, 0, 0] };

export class SeatNameDto {
  @ApiProperty(SEAT) readonly seat!: number;
  @ApiProperty({ example: 'Astrid', nullable: true, type: String, description: 'null while the seat is open (status `waiting`).' })
  readonly name!: string | null;
}

export class SeatTokenDto {
  @ApiProperty(SEAT) readonly seat!: number;
  @ApiProperty({ example: 'Astrid' }) readonly name!: string;
  @ApiProperty({ example: 'bsk_3q2l0m9VfQd0b6K0u0wz1y8yq0f7v3xA', description: 'Bearer token for this seat. Shown only once.' })
  readonly token!: string;
}

export class MatchCreatedDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a' }) readonly id!: string;
  @ApiProperty({ example: 1 }) readonly version!: number;
  @ApiProperty({ type: MatchOptionsDto }) readonly options!: MatchOptionsDto;
  @ApiProperty({ ...SEAT, description: 'Drawn at random (or from the seed).' }) readonly firstDealer!: number;
  @ApiProperty({ description: 'True when created with a seed: reproducible, not provably fair.' }) readonly seeded!: boolean;
  @ApiProperty({ enum: ['waiting', 'playing'], description: '`waiting` while seats are open (a lobby table).' }) readonly status!: 'waiting' | 'playing';
  @ApiProperty({ type: [SeatTokenDto], description: 'The named seats, each with its token (open seats get theirs when joined).' })
  readonly seats!: SeatTokenDto[];
}

export class PlayedCardDto {
  @ApiProperty(SEAT) readonly seat!: number;
  @ApiProperty({ example: 'QH' }) readonly card!: string;
}

export class LastTrickDto {
  @ApiProperty({ type: [PlayedCardDto] }) readonly cards!: PlayedCardDto[];
  @ApiProperty(SEAT) readonly winner!: number;
}

// What a seat may do now: one shape per action, told apart by `action` (a discriminated union in clients).
export class DealActionDto {
  @ApiProperty({ enum: ['deal'], description: 'POST …/deal.' }) readonly action!: 'deal';
}
export class CutActionDto {
  @ApiProperty({ enum: ['cut'], description: 'POST …/cut (provably fair deals).' }) readonly action!: 'cut';
}
export class ChooseContractActionDto {
  @ApiProperty({ enum: ['chooseContract'], description: 'POST …/contract.' }) readonly action!: 'chooseContract';
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...CONTRACTS] }, example: ['spades', 'trump', 'notrump', 'pass'] })
  readonly contracts!: ('spades' | 'trump' | 'notrump' | 'pass')[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['S', 'H', 'D', 'C'] }, example: ['S', 'H', 'D', 'C'], description: 'Suits that may be named with `trump`.' })
  readonly trumps!: ('S' | 'H' | 'D' | 'C')[];
}
export class DiscardActionDto {
  @ApiProperty({ enum: ['discard'], description: 'POST …/discard.' }) readonly action!: 'discard';
  @ApiProperty({ example: 4, description: 'How many cards to lay away.' }) readonly count!: number;
}
export class PlayActionDto {
  @ApiProperty({ enum: ['play'], description: 'POST …/play.' }) readonly action!: 'play';
  @ApiProperty({ type: [String], example: ['QH', '2H'], description: 'Every card this seat may play now.' }) readonly cards!: string[];
}
const LEGAL_ACTIONS = { deal: DealActionDto, cut: CutActionDto, chooseContract: ChooseContractActionDto, discard: DiscardActionDto, play: PlayActionDto };
export type LegalActionDto = DealActionDto | CutActionDto | ChooseContractActionDto | DiscardActionDto | PlayActionDto;

export class CheckpointDto {
  @ApiProperty({ example: 5, description: 'The newest version at which nothing in the log was secret (no deal under way).' })
  readonly version!: number;
  @ApiProperty({ example: '5d41402abc4b2a76b9719d911017c592ae2c3f1bd2f1c5f7e2b4c1f0a1b2c3d4', pattern: '^[0-9a-f]{64}$', description: "The log's SHA-256 chain hash at that version: pin it, then check it later with `GET …/audit?pin=`." })
  readonly hash!: string;
}

export class PublicStateDto {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: 42, description: 'Number of events in the stream.' }) readonly version!: number;
  @ApiProperty({ type: MatchOptionsDto }) readonly options!: MatchOptionsDto;
  @ApiProperty({ type: [SeatNameDto] }) readonly seats!: SeatNameDto[];
  @ApiProperty({ enum: STATUSES }) readonly status!: string;
  @ApiProperty({ enum: ['deal', 'contract', 'discard', 'play', 'finished'] }) readonly phase!: string;
  @ApiProperty({ example: 1, description: '1-based; 0 before the first deal.' }) readonly dealNumber!: number;
  @ApiProperty({ example: 12 }) readonly dealsInMatch!: number;
  @ApiProperty({ ...SEAT, nullable: true }) readonly dealer!: number | null;
  @ApiProperty({ ...SEAT, nullable: true }) readonly forehand!: number | null;
  @ApiProperty({ ...SEAT, nullable: true, description: 'The seat expected to act.' }) readonly turn!: number | null;
  @ApiProperty({ type: [String], example: ['AS', 'TH', '2C', '9D'] }) readonly tableCards!: string[];
  @ApiProperty({ enum: CONTRACTS, nullable: true }) readonly contract!: string | null;
  @ApiProperty({ enum: ['S', 'H', 'D', 'C'], nullable: true }) readonly trump!: string | null;
  @ApiProperty({ type: [PlayedCardDto] }) readonly trick!: PlayedCardDto[];
  @ApiProperty({ type: LastTrickDto, nullable: true }) readonly lastTrick!: LastTrickDto | null;
  @ApiProperty(TRIPLE) readonly tricksTaken!: number[];
  @ApiProperty({ ...TRIPLE, example: [16, 16, 16] }) readonly handSizes!: number[];
  @ApiProperty(TRIPLE) readonly totals!: number[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: { type: 'integer' } }, example: [{ spades: 1 }, {}, {}] })
  readonly contractsPlayed!: Record<string, number>[];
  @ApiProperty({ type: [Number], nullable: true, description: 'When finished: every seat with the highest total.' })
  readonly winners!: number[] | null;
  @ApiProperty() readonly seeded!: boolean;
  @ApiProperty({
    type: CheckpointDto,
    description: 'The newest version whose chain hash may be shown (equal to `version` between deals and when finished), and that hash: pin it to prove later that the log was not rewritten up to there.',
  })
  readonly checkpoint!: CheckpointDto;
}

@ApiExtraModels(...Object.values(LEGAL_ACTIONS))
export class SeatViewDto extends PublicStateDto {
  @ApiProperty(SEAT) readonly seat!: number;
  @ApiProperty({ type: [String], example: ['AS', 'KS', 'QH'] }) readonly hand!: string[];
  @ApiProperty({ type: [String], nullable: true, description: "Forehand's own laid-away cards, once discarded." })
  readonly laidAway!: string[] | null;
  @ApiProperty({
    nullable: true,
    oneOf: Object.values(LEGAL_ACTIONS).map((m) => ({ $ref: getSchemaPath(m) })),
    discriminator: { propertyName: 'action', mapping: Object.fromEntries(Object.entries(LEGAL_ACTIONS).map(([k, m]) => [k, getSchemaPath(m)])) },
    description: 'What this seat may do now; null when it is not its turn.',
  })
  readonly legal!: LegalActionDto | null;
}

export class ScorecardDealDto {
  @ApiProperty({ example: 1 }) readonly number!: number;
  @ApiProperty(SEAT) readonly dealer!: number;
  @ApiProperty(SEAT) readonly forehand!: number;
  @ApiProperty({ enum: CONTRACTS }) readonly contract!: string;
  @ApiProperty({ enum: ['S', 'H', 'D', 'C'], nullable: true }) readonly trump!: string | null;
  @ApiProperty({ ...TRIPLE, example: [11, 3, 2] }) readonly tricks!: number[];
  @ApiProperty({ ...TRIPLE, example: [3, -1, -2] }) readonly points!: number[];
  @ApiProperty({ ...TRIPLE, example: [3, -1, -2] }) readonly totals!: number[];
}

export class ScorecardDto {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty() readonly version!: number;
  @ApiProperty({ type: [SeatNameDto] }) readonly seats!: SeatNameDto[];
  @ApiProperty({ type: [ScorecardDealDto] }) readonly deals!: ScorecardDealDto[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: { type: 'integer' } },
    example: [{ notrump: 1 }, {}, {}],
    description: 'Per seat, the deal number of each contract used.',
  })
  readonly contractsPlayed!: Record<string, number>[];
  @ApiProperty(TRIPLE) readonly totals!: number[];
  @ApiProperty() readonly finished!: boolean;
  @ApiProperty({ type: [Number], nullable: true }) readonly winners!: number[] | null;
}

/** An event as every response shows it (EventDto adds the chain hash where it may be shown). */
export class LoggedEventDto {
  @ApiProperty({ example: 7 }) readonly version!: number;
  @ApiProperty({ enum: EVENT_TYPES, example: 'CardPlayed', description: 'The event catalogue: docs/clients.md.' }) readonly type!: string;
  @ApiProperty({ format: 'date-time' }) readonly at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { deal: 1, trick: 1, seat: 2, card: 'QH' },
    description: 'What the caller may not see is null (docs/rules.md §7).',
  })
  readonly data!: Record<string, unknown>;
}

export class EventDto extends LoggedEventDto {
  @ApiPropertyOptional({
    example: '5d41402abc4b2a76b9719d911017c592ae2c3f1bd2f1c5f7e2b4c1f0a1b2c3d4',
    pattern: '^[0-9a-f]{64}$',
    description:
      "The log's SHA-256 chain at this event. Present only on events up to the match's checkpoint (nothing secret up to there): keep the newest one to pin the chain (docs/fairness.md §9).",
  })
  readonly hash?: string;
}

export class CommandResultDto {
  @ApiProperty({ example: 8, description: 'The stream version after the command.' }) readonly version!: number;
  @ApiProperty({ type: [EventDto] }) readonly events!: EventDto[];
}

export class EventPageDto {
  @ApiProperty({ type: [EventDto] }) readonly events!: EventDto[];
  @ApiProperty({ example: 42, description: 'The current stream version.' }) readonly version!: number;
  @ApiProperty({ type: Number, nullable: true, example: 100, description: 'Pass as `after` for the next page; null at the end.' })
  readonly next!: number | null;
  @ApiProperty({ type: CheckpointDto, description: 'The chain hash a client may pin now (docs/fairness.md §9).' })
  readonly checkpoint!: CheckpointDto;
}

export class MatchSummaryDto {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty() readonly version!: number;
  @ApiProperty({ enum: STATUSES }) readonly status!: string;
  @ApiProperty({ enum: ['deal', 'contract', 'discard', 'play', 'finished'] }) readonly phase!: string;
  @ApiProperty() readonly dealNumber!: number;
  @ApiProperty() readonly dealsInMatch!: number;
  @ApiProperty({ type: [String] }) readonly players!: string[];
  @ApiProperty({ type: MatchOptionsDto }) readonly options!: MatchOptionsDto;
  @ApiProperty() readonly seeded!: boolean;
  @ApiProperty(TRIPLE) readonly totals!: number[];
  @ApiProperty({ type: [Number], nullable: true }) readonly winners!: number[] | null;
  @ApiProperty({ format: 'date-time' }) readonly createdAt!: string;
  @ApiProperty({ format: 'date-time' }) readonly updatedAt!: string;
}

export class MatchListDto {
  @ApiProperty({ type: [MatchSummaryDto] }) readonly items!: MatchSummaryDto[];
  @ApiProperty({ nullable: true, description: 'Pass as `cursor` for the next page; null at the end.' })
  readonly nextCursor!: string | null;
}
