import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { AUDIT_CHECKS, EXPORT_FORMAT, PIN_PATTERN } from '@bismarck/audit';
import { ApiOneOf } from '../../platform/http/api-docs';
import { ForkedFromDto, TYPED_EVENTS } from '../matches/dto/events.dto';
import { CARD_PATTERN, cards, integer, MAX_VERSION, sha256 } from '../../platform/http/fields';
import { QueryInteger } from '../../platform/http/query-integer';
import { PublicStateDto, SeatViewDto } from '../matches/dto/responses.dto';

export class ReplayQueryDto {
  @ApiProperty(integer('Show the state right after this event (at most the current version).', { minimum: 1, maximum: MAX_VERSION, example: 12 }))
  @QueryInteger(1, MAX_VERSION)
  readonly version!: number;
}

export class AuditQueryDto {
  @ApiPropertyOptional({
    pattern: PIN_PATTERN.source,
    example: '5:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: "`<version>:<hash>`: a checkpoint kept during play (a state's or an event page's `checkpoint`, or an event's `hash`). Adds the check `pin`: the log must still hold that hash at that version.",
  })
  @IsOptional()
  @Matches(PIN_PATTERN, { message: 'pin must be <version>:<64 hex digits>' })
  readonly pin?: string;
}

/** A moment of the match: the public state, and a seat's own part for a seat (no checkpoint nor presence: those are the present's). */
export class ReplayViewDto extends IntersectionType(
  OmitType(PublicStateDto, ['checkpoint', 'connected'] as const),
  PartialType(PickType(SeatViewDto, ['seat', 'hand', 'laidAway', 'legal'] as const)),
) {}

export class RevealedDealDto {
  @ApiProperty(integer('The deal, from 1.', { minimum: 1, example: 1 })) readonly deal!: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string', pattern: CARD_PATTERN } },
    minItems: 3,
    maxItems: 3,
    description: "Every seat's hand at this moment, seat 0 first.",
  })
  readonly hands!: string[][];
  @ApiProperty(cards("Forehand's laid-away cards during trick play; else null.", { nullable: true })) readonly laidAway!: string[] | null;
  @ApiProperty(cards('The whole deck, top card first.', { nullable: true, minItems: 52, maxItems: 52 })) readonly deck!: string[] | null;
}

export class ReplayDto {
  @ApiProperty(integer('The version shown.', { minimum: 1, maximum: MAX_VERSION, example: 12 })) readonly replayVersion!: number;
  @ApiProperty(integer('The match version now.', { minimum: 1, maximum: MAX_VERSION, example: 40 })) readonly latestVersion!: number;
  @ApiProperty({ type: ReplayViewDto, description: "The public state (spectator) or the seat's view at that version; `seat`, `hand`, `laidAway` and `legal` only for a seat." })
  readonly view!: ReplayViewDto;
  @ApiProperty({ type: RevealedDealDto, nullable: true, description: 'The deal on the table once it has been scored (nothing of it is secret any more); else null.' })
  readonly revealed!: RevealedDealDto | null;
}

export class AuditCheckDto {
  @ApiProperty({ enum: AUDIT_CHECKS, description: 'The check (docs/fairness.md §9).' }) readonly name!: string;
  @ApiProperty({ description: 'True when it passes.' }) readonly ok!: boolean;
  @ApiProperty({ example: '612 decisions replayed through the rules: every event is what the rules decide', description: 'What was checked, or what failed.' })
  readonly detail!: string;
  @ApiProperty(integer('The first event version that fails this check; null when it passes.', { nullable: true, minimum: 1, example: null }))
  readonly failedAt!: number | null;
}

export class DatabaseChainDto {
  @ApiProperty({ description: "True when the database's own check of the hash chain passes." }) readonly ok!: boolean;
  @ApiProperty(integer('The first version whose hash does not match; null when none.', { nullable: true, minimum: 1, example: null }))
  readonly brokenAt!: number | null;
}

export class AuditDto {
  @ApiProperty({ description: 'True when every check passes.' }) readonly ok!: boolean;
  @ApiProperty({ format: 'uuid', description: 'The match id.' }) readonly matchId!: string;
  @ApiProperty(integer('The match version audited.', { minimum: 1, maximum: MAX_VERSION, example: 640 })) readonly version!: number;
  @ApiProperty({ description: 'Seeded matches are reproducible and NOT provably fair.' }) readonly seeded!: boolean;
  @ApiProperty({
    type: ForkedFromDto,
    nullable: true,
    description: "A fork's origin (POST …/fork), from its hashed `MatchCreated`: the finished match and the version it starts from; null for any other match.",
  })
  readonly forkedFrom!: ForkedFromDto | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'integer' },
    example: [1, 2, 3],
    description: "Scored deals whose deck used a committed seed, a seat's cut, and a revealed seed.",
  })
  readonly provablyFairDeals!: number[];
  @ApiProperty({ type: 'array', items: { type: 'integer' }, example: [1, 2, 3], description: 'The deals scored so far.' }) readonly scoredDeals!: number[];
  @ApiProperty({ type: [AuditCheckDto], description: 'Every check, in order.' }) readonly checks!: AuditCheckDto[];
  @ApiProperty(integer('The first event version that fails any check; null when all pass.', { nullable: true, minimum: 1, example: null }))
  readonly firstFailure!: number | null;
  @ApiProperty({ type: DatabaseChainDto, description: 'The database\'s own check of the hash chain, independent of the replay.' })
  readonly databaseChain!: DatabaseChainDto;
}

/** An event as the export keeps it: what its hash covers, and the hash. `type` tells which `data` it carries. */
@ApiOneOf('type', TYPED_EVENTS)
export class ExportedEventDto {
  @ApiProperty(integer('Its version, from 1, with no gap.', { minimum: 1, maximum: MAX_VERSION, example: 7 })) readonly version!: number;
  @ApiProperty({ enum: Object.keys(TYPED_EVENTS), example: 'CardPlayed', description: 'The event type (docs/clients.md, "Event catalogue").' }) readonly type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { at: '2026-11-29T15:28:31.220Z' }, description: 'What the service recorded beside the event.' })
  readonly metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', description: 'When it was appended.' }) readonly recordedAt!: string;
  @ApiProperty({ pattern: '^[0-9]+$', example: '1795966111220000', description: 'Microseconds since the epoch, as hashed.' }) readonly recordedAtMicros!: string;
  @ApiProperty(sha256('SHA-256 over the previous hash and this event (docs/fairness.md).')) readonly hash!: string;
}

export class ExportDto {
  @ApiProperty({ enum: [EXPORT_FORMAT], description: 'The document format.' }) readonly format!: string;
  @ApiProperty({ format: 'uuid', description: 'The match id.' }) readonly matchId!: string;
  @ApiProperty({ format: 'date-time', description: 'When this document was made.' }) readonly exportedAt!: string;
  @ApiProperty({ description: 'True when created with a seed: reproducible, NOT provably fair.' }) readonly seeded!: boolean;
  @ApiProperty({ type: [ExportedEventDto], description: 'The whole log, oldest first.' }) readonly events!: ExportedEventDto[];
}
