import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { MatchOptionsViewDto } from './match-options.dto';
import { EventDto, ForkedFromDto, PlayedCardDto } from './events.dto';
import { cards, integer, MAX_VERSION, PLAYER_ID, playerNames, SEAT_TOKEN, seat, seatFlags, seats, sha256, SUITS, triple } from '../../../platform/http/fields';
import { CONTRACTS, STATUSES } from '@bismarck/rules';
import { BOT, SeatNameDto } from '../../../accounts/names/seat-name.dto';

// Response shapes, for the generated OpenAPI document. The bodies themselves are built by libs/rules.

const MATCH_ID = { format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', description: 'The match id (a lowercase UUID).' } as const;
const VERSION = integer('The match version: the number of events in its log.', { minimum: 0, maximum: MAX_VERSION, example: 42 });
const STATUS = { enum: STATUSES, description: '`waiting` for players to take open seats, `playing`, `finished`, or `abandoned` (a lobby table closed unfilled).' } as const;
const FORKED_FROM = {
  type: ForkedFromDto,
  nullable: true,
  description: 'A fork (POST /api/matches/{id}/fork): the finished match and the version of its log it starts from; null for any other match.',
} as const;
const PHASE = {
  enum: ['deal', 'contract', 'discard', 'play', 'finished'],
  description: 'What the match waits for: a deal, the contract, the lay-away, a card; `finished` once over (or abandoned).',
} as const;
const CONTRACTS_PLAYED = {
  type: 'array',
  items: { type: 'object', additionalProperties: { type: 'integer' } },
  minItems: 3,
  maxItems: 3,
  example: [{ spades: 1 }, {}, {}],
} as const;

export class BotSeatViewDto {
  @ApiProperty(seat('The seat.')) readonly seat!: number;
  @ApiProperty({ example: 'Greedy bot', description: 'The name shown for it.' }) readonly name!: string;
  @ApiProperty(BOT) readonly bot!: string;
}

export class SeatTokenDto {
  @ApiProperty(seat('The seat.')) readonly seat!: number;
  @ApiProperty({ example: 'Astrid', description: 'Its player.' }) readonly name!: string;
  @ApiProperty(SEAT_TOKEN) readonly token!: string;
}

export class MatchCreatedDto {
  @ApiProperty(MATCH_ID) readonly id!: string;
  @ApiProperty(integer('The match version after creation (its events so far).', { minimum: 1, example: 2 })) readonly version!: number;
  @ApiProperty({ type: MatchOptionsViewDto, description: 'Every option of the match, defaults filled in.' }) readonly options!: MatchOptionsViewDto;
  @ApiProperty(seat('The dealer of the first deal, drawn at random (or from the seed).')) readonly firstDealer!: number;
  @ApiProperty({ description: 'True when created with a seed: reproducible, not provably fair.' }) readonly seeded!: boolean;
  @ApiProperty({ enum: ['waiting', 'playing'], description: '`waiting` while seats are open (a lobby table).' }) readonly status!: 'waiting' | 'playing';
  @ApiProperty({ type: [SeatTokenDto], description: 'The seats of persons, each with its token (open seats get theirs when joined; bot seats have none).' })
  readonly seats!: SeatTokenDto[];
  @ApiProperty({ type: [BotSeatViewDto], description: 'The seats the service plays (no token: nobody else acts for them). Empty when none.' })
  readonly bots!: BotSeatViewDto[];
}

export class LastTrickDto {
  @ApiProperty({ type: [PlayedCardDto], description: 'Its three cards in the order played.' }) readonly cards!: PlayedCardDto[];
  @ApiProperty(seat('The seat that took it.')) readonly winner!: number;
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
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...CONTRACTS] },
    example: ['spades', 'trump', 'notrump', 'pass'],
    description: 'The contracts forehand may announce now.',
  })
  readonly contracts!: ('spades' | 'trump' | 'notrump' | 'pass')[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...SUITS] }, example: ['S', 'H', 'D', 'C'], description: 'Suits that may be named with `trump`.' })
  readonly trumps!: ('S' | 'H' | 'D' | 'C')[];
}
export class DiscardActionDto {
  @ApiProperty({ enum: ['discard'], description: 'POST …/discard.' }) readonly action!: 'discard';
  @ApiProperty(integer('How many cards to lay away.', { example: 4 })) readonly count!: number;
}
export class PlayActionDto {
  @ApiProperty({ enum: ['play'], description: 'POST …/play.' }) readonly action!: 'play';
  @ApiProperty(cards('Every card this seat may play now.', { example: ['QH', '2H'] })) readonly cards!: string[];
}
const LEGAL_ACTIONS = { deal: DealActionDto, cut: CutActionDto, chooseContract: ChooseContractActionDto, discard: DiscardActionDto, play: PlayActionDto };
export type LegalActionDto = DealActionDto | CutActionDto | ChooseContractActionDto | DiscardActionDto | PlayActionDto;

export class CheckpointDto {
  @ApiProperty(integer('The newest version at which nothing in the log was secret (no deal under way).', { minimum: 0, maximum: MAX_VERSION, example: 5 }))
  readonly version!: number;
  @ApiProperty(
    sha256("The log's SHA-256 chain hash at that version: pin it, then check it later with `GET …/audit?pin=`.", {
      example: '5d41402abc4b2a76b9719d911017c592ae2c3f1bd2f1c5f7e2b4c1f0a1b2c3d4',
    }),
  )
  readonly hash!: string;
}

export class FairnessDto {
  @ApiProperty({ ...sha256('The commitment to the next deck while the match waits for a deal; else null.'), nullable: true })
  readonly commitment!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'k7Qz-42', description: 'The cut made for that deck; null until someone cuts.' })
  readonly cut!: string | null;
}

export class TurnClockDto {
  @ApiProperty(seat('The person to act.')) readonly seat!: number;
  @ApiProperty({ format: 'date-time', description: 'When its time runs out: when the turn began (the last event) plus `turnSeconds`. Then `TurnTimedOut`, and a stand-in bot makes the decision.' })
  readonly deadline!: string;
  @ApiProperty(integer('The match\'s `options.clock.turnSeconds`.', { minimum: 5, maximum: 3600, example: 60 })) readonly turnSeconds!: number;
}

export class PublicStateDto {
  @ApiProperty(MATCH_ID) readonly id!: string;
  @ApiProperty(VERSION) readonly version!: number;
  @ApiProperty({ type: MatchOptionsViewDto, description: 'Every option of the match, defaults filled in.' }) readonly options!: MatchOptionsViewDto;
  @ApiProperty({ type: [SeatNameDto], description: 'The three seats and their players.' }) readonly seats!: SeatNameDto[];
  @ApiProperty(STATUS) readonly status!: string;
  @ApiProperty(PHASE) readonly phase!: string;
  @ApiProperty(integer('The deal under way or last played, from 1; 0 before the first deal.', { minimum: 0, example: 1 })) readonly dealNumber!: number;
  @ApiProperty(integer('How many deals the match has (its schedule).', { minimum: 0, example: 12 })) readonly dealsInMatch!: number;
  @ApiProperty(seat('The dealer of the deal under way or next; null once finished.', { nullable: true })) readonly dealer!: number | null;
  @ApiProperty(seat("Forehand (on the dealer's left) of that deal; null once finished.", { nullable: true })) readonly forehand!: number | null;
  @ApiProperty(seat('The seat expected to act; null when nobody is.', { nullable: true })) readonly turn!: number | null;
  @ApiProperty(cards('The four cards face up, until forehand has laid away; else empty.', { example: ['AS', 'TH', '2C', '9D'] })) readonly tableCards!: string[];
  @ApiProperty({ enum: CONTRACTS, nullable: true, description: 'The contract of the deal, once known.' }) readonly contract!: string | null;
  @ApiProperty({ enum: SUITS, nullable: true, description: 'The trump suit of the deal, once known; null without one.' }) readonly trump!: string | null;
  @ApiProperty({ type: [PlayedCardDto], description: 'The cards of the trick under way, in the order played.' }) readonly trick!: PlayedCardDto[];
  @ApiProperty({ type: LastTrickDto, nullable: true, description: 'The trick taken last, or null.' }) readonly lastTrick!: LastTrickDto | null;
  @ApiProperty(triple('Tricks taken per seat in the deal under way (or the last one).')) readonly tricksTaken!: number[];
  @ApiProperty({
    ...triple(
      "Per seat, the tricks it must take in the deal under way (in `pass`: may take at most), as the rules score it (docs/rules.md §5); null until the deal's contract is known " +
        '(and in a view stored before the field existed, until the match moves on or the read side is rebuilt).',
      [8, 4, 4],
    ),
    nullable: true,
  })
  readonly quotas!: number[] | null;
  @ApiProperty(triple('Cards in each hand (counts only).', [16, 16, 16])) readonly handSizes!: number[];
  @ApiProperty(triple('Match totals per seat.')) readonly totals!: number[];
  @ApiProperty({ ...CONTRACTS_PLAYED, description: 'Per seat, the contracts it has played as forehand, each with its deal number.' })
  readonly contractsPlayed!: Record<string, number>[];
  @ApiProperty(seats('When finished: every seat with the highest total; else null.', { nullable: true })) readonly winners!: number[] | null;
  @ApiProperty({ description: 'True when created with a seed: reproducible, not provably fair.' }) readonly seeded!: boolean;
  @ApiProperty(FORKED_FROM) readonly forkedFrom!: ForkedFromDto | null;
  @ApiProperty({ type: FairnessDto, description: 'The next deck\'s commitment and cut while the match waits for a deal (docs/fairness.md).' })
  readonly fairness!: FairnessDto;
  @ApiProperty(
    seatFlags('Per seat: away after two timeouts in a row; a stand-in bot plays its turns at once until the person acts again (or POST …/seats/{seat}/back).', [false, true, false]),
  )
  readonly away!: boolean[];
  @ApiProperty(
    seatFlags(
      "Per seat: a live stream opened with that seat's credential (its seat token, or its player's token) is open now, on any instance of the service. " +
        'Not a game fact (never in the log, nor in a replay); it changes with no new `version` (the `ETag` shows it too), and the live stream sends each change as `event: presence`.',
      [true, false, true],
    ),
  )
  readonly connected!: boolean[];
  @ApiProperty({ type: TurnClockDto, nullable: true, description: 'The turn clock running for the person to act; null without a clock, on a bot\'s turn, or while a stand-in plays.' })
  readonly clock!: TurnClockDto | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: null,
    description:
      'A finished match whose rematch was asked for (POST …/rematch): the new match, where each person acts with the seat token they hold here; else null.',
  })
  readonly rematch!: string | null;
  @ApiProperty({
    type: CheckpointDto,
    description: 'The newest version whose chain hash may be shown (equal to `version` between deals and when finished), and that hash: pin it to prove later that the log was not rewritten up to there.',
  })
  readonly checkpoint!: CheckpointDto;
}

@ApiExtraModels(...Object.values(LEGAL_ACTIONS))
export class SeatViewDto extends PublicStateDto {
  @ApiProperty(seat('The seat this view is for.')) readonly seat!: number;
  @ApiProperty(cards("This seat's hand, sorted.", { example: ['AS', 'KS', 'QH'] })) readonly hand!: string[];
  @ApiProperty(cards("Forehand's own laid-away cards during trick play; null otherwise.", { nullable: true })) readonly laidAway!: string[] | null;
  @ApiProperty({
    nullable: true,
    oneOf: Object.values(LEGAL_ACTIONS).map((m) => ({ $ref: getSchemaPath(m) })),
    discriminator: { propertyName: 'action', mapping: Object.fromEntries(Object.entries(LEGAL_ACTIONS).map(([k, m]) => [k, getSchemaPath(m)])) },
    description: 'What this seat may do now; null when it is not its turn.',
  })
  readonly legal!: LegalActionDto | null;
}

export class ScorecardDealDto {
  @ApiProperty(integer('The deal number, from 1.', { minimum: 1, example: 1 })) readonly number!: number;
  @ApiProperty(seat('Its dealer.')) readonly dealer!: number;
  @ApiProperty(seat('Its forehand.')) readonly forehand!: number;
  @ApiProperty({ enum: CONTRACTS, description: 'The contract played.' }) readonly contract!: string;
  @ApiProperty({ enum: SUITS, nullable: true, description: 'The trump suit, or null.' }) readonly trump!: string | null;
  @ApiProperty(triple('Tricks taken per seat.', [11, 3, 2])) readonly tricks!: number[];
  @ApiProperty(triple('Points scored per seat in this deal.', [3, -1, -2])) readonly points!: number[];
  @ApiProperty(triple('Match totals per seat after this deal.', [3, -1, -2])) readonly totals!: number[];
}

export class ScorecardDto {
  @ApiProperty(MATCH_ID) readonly id!: string;
  @ApiProperty(VERSION) readonly version!: number;
  @ApiProperty({ type: [SeatNameDto], description: 'The three seats and their players.' }) readonly seats!: SeatNameDto[];
  @ApiProperty({ type: [ScorecardDealDto], description: 'Every scored deal, in order.' }) readonly deals!: ScorecardDealDto[];
  @ApiProperty({ ...CONTRACTS_PLAYED, example: [{ notrump: 1 }, {}, {}], description: 'Per seat, the deal number of each contract used.' })
  readonly contractsPlayed!: Record<string, number>[];
  @ApiProperty(triple('Match totals per seat.')) readonly totals!: number[];
  @ApiProperty({ description: 'True once the last deal is scored.' }) readonly finished!: boolean;
  @ApiProperty(seats('When finished: every seat with the highest total; else null.', { nullable: true })) readonly winners!: number[] | null;
}

export class CommandResultDto {
  @ApiProperty(integer('The match version after the command.', { minimum: 1, maximum: MAX_VERSION, example: 8 })) readonly version!: number;
  @ApiProperty({ type: [EventDto], description: 'The events the command appended, as the caller may see them.' }) readonly events!: EventDto[];
}

export class EventPageDto {
  @ApiProperty({ type: [EventDto], description: 'The events after `after`, oldest first, as the caller may see them.' }) readonly events!: EventDto[];
  @ApiProperty(VERSION) readonly version!: number;
  @ApiProperty(integer('Pass as `after` for the next page; null at the end.', { nullable: true, minimum: 1, example: 100 })) readonly next!: number | null;
  @ApiProperty({ type: CheckpointDto, description: 'The chain hash a client may pin now (docs/fairness.md §9).' })
  readonly checkpoint!: CheckpointDto;
}

export class MatchSummaryDto {
  @ApiProperty(MATCH_ID) readonly id!: string;
  @ApiProperty(VERSION) readonly version!: number;
  @ApiProperty(STATUS) readonly status!: string;
  @ApiProperty(PHASE) readonly phase!: string;
  @ApiProperty(integer('The deal under way or last played, from 1; 0 before the first deal.', { minimum: 0, example: 1 })) readonly dealNumber!: number;
  @ApiProperty(integer('How many deals the match has (its schedule).', { minimum: 0, example: 12 })) readonly dealsInMatch!: number;
  @ApiProperty(playerNames('The names of seats 0, 1 and 2; null is a seat still open.')) readonly players!: (string | null)[];
  @ApiProperty({ type: MatchOptionsViewDto, description: 'Every option of the match, defaults filled in.' }) readonly options!: MatchOptionsViewDto;
  @ApiProperty({ description: 'True when created with a seed: reproducible, not provably fair.' }) readonly seeded!: boolean;
  @ApiProperty(triple('Match totals per seat.')) readonly totals!: number[];
  @ApiProperty(seats('When finished: every seat with the highest total; else null.', { nullable: true })) readonly winners!: number[] | null;
  @ApiProperty({ format: 'date-time', description: 'When the match was created.' }) readonly createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'When its last event was appended.' }) readonly updatedAt!: string;
  @ApiProperty(FORKED_FROM) readonly forkedFrom!: ForkedFromDto | null;
}

export class MatchListDto {
  @ApiProperty({ type: [MatchSummaryDto], description: 'The matches of this page, newest first.' }) readonly items!: MatchSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null at the end.' })
  readonly nextCursor!: string | null;
}
