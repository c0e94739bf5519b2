import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { AUDIT_CHECKS } from '@bismarck/audit';
import { LoggedEventDto, SeatViewDto } from '../matches/dto/responses.dto';

export class ReplayQueryDto {
  @ApiProperty({ minimum: 1, maximum: 2147483647, example: 12, description: 'Show the state right after this event.' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  readonly version!: number;
}

export class AuditQueryDto {
  @ApiPropertyOptional({
    example: '5:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: "`<version>:<hash>`: a checkpoint kept during play (a state's or an event page's `checkpoint`, or an event's `hash`). Adds the check `pin`: the log must still hold that hash at that version.",
  })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,9}:[0-9a-fA-F]{64}$/, { message: 'pin must be <version>:<64 hex digits>' })
  readonly pin?: string;
}

export class RevealedDealDto {
  @ApiProperty({ example: 1 }) readonly deal!: number;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } }, description: 'Every seat\'s hand at this moment.' })
  readonly hands!: string[][];
  @ApiProperty({ type: [String], nullable: true }) readonly laidAway!: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: 'The whole deck, top first.' }) readonly deck!: string[] | null;
}

export class ReplayDto {
  @ApiProperty({ example: 12 }) readonly replayVersion!: number;
  @ApiProperty({ example: 40 }) readonly latestVersion!: number;
  @ApiProperty({ type: SeatViewDto, description: 'The public state (spectator) or the seat\'s view at that version; `hand`, `laidAway` and `legal` only for a seat.' })
  readonly view!: SeatViewDto;
  @ApiPropertyOptional({ type: RevealedDealDto, nullable: true, description: 'Present once the deal on the table has been scored: nothing of it is secret.' })
  readonly revealed!: RevealedDealDto | null;
}

export class AuditCheckDto {
  @ApiProperty({ enum: AUDIT_CHECKS }) readonly name!: string;
  @ApiProperty() readonly ok!: boolean;
  @ApiProperty({ example: '612 decisions replayed through the rules: every event is what the rules decide' }) readonly detail!: string;
  @ApiProperty({ nullable: true, example: null, description: 'The first event version that fails this check.' }) readonly failedAt!: number | null;
}

export class AuditDto {
  @ApiProperty() readonly ok!: boolean;
  @ApiProperty({ format: 'uuid' }) readonly matchId!: string;
  @ApiProperty({ example: 640 }) readonly version!: number;
  @ApiProperty({ description: 'Seeded matches are reproducible and NOT provably fair.' }) readonly seeded!: boolean;
  @ApiProperty({ type: [Number], example: [1, 2, 3], description: 'Scored deals whose deck used a committed seed, a seat\'s cut, and a revealed seed.' })
  readonly provablyFairDeals!: number[];
  @ApiProperty({ type: [Number], example: [1, 2, 3] }) readonly scoredDeals!: number[];
  @ApiProperty({ type: [AuditCheckDto] }) readonly checks!: AuditCheckDto[];
  @ApiProperty({ nullable: true, example: null, description: 'The first event version that fails any check.' }) readonly firstFailure!: number | null;
  @ApiProperty({ type: 'object', properties: { ok: { type: 'boolean' }, brokenAt: { type: 'integer', nullable: true } }, example: { ok: true, brokenAt: null } })
  readonly databaseChain!: { ok: boolean; brokenAt: number | null };
}

export class ExportedEventDto extends LoggedEventDto {
  @ApiProperty({ type: 'object', additionalProperties: true, example: { at: '2026-11-29T15:28:31.220Z' } }) readonly metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) readonly recordedAt!: string;
  @ApiProperty({ example: '1795966111220000', description: 'Microseconds since the epoch, as hashed.' }) readonly recordedAtMicros!: string;
  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description: 'SHA-256 over the previous hash and this event (docs/fairness.md).' })
  readonly hash!: string;
}

export class ExportDto {
  @ApiProperty({ example: 'bismarck-export-v1' }) readonly format!: string;
  @ApiProperty({ format: 'uuid' }) readonly matchId!: string;
  @ApiProperty({ format: 'date-time' }) readonly exportedAt!: string;
  @ApiProperty() readonly seeded!: boolean;
  @ApiProperty({ type: [ExportedEventDto] }) readonly events!: ExportedEventDto[];
}
