import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { STATUSES } from '@bismarck/rules';
import { PageQueryDto } from '../../platform/http/page-query.dto';
import { SeatNameDto } from '../names/seat-name.dto';
import { RatingDto } from '../ratings/ratings.dto';
import { IsPlayerName, PLAYER_NAME_SCHEMA } from '../names/seat-names.validator';
import { integer, PLAYER_ID, seat } from '../../platform/http/fields';

export { PLAYER_ID };

export const PLAYER_TOKEN = {
  pattern: '^bskp_[A-Za-z0-9_-]{32}$',
  example: 'bskp_Vq3nY0cJ8mC2fT6kP1xR9wL4hD7sA5eB',
  description:
    'A personal access token of the player (`bskp_` and 32 base64url characters, a prefix secret scanners can look for), shown only once: ' +
    'send it as `Authorization: Bearer <token>`. Only its SHA-256 is kept.',
} as const;

const TOKEN_ID = { pattern: '^tok_[A-Za-z0-9_-]{12}$', example: 'tok_Zb4X0aQm9k2L', description: "The token's public id, to revoke it with `DELETE /api/players/me/tokens/{tokenId}`." } as const;

export class CreatePlayerDto {
  @ApiProperty({ ...PLAYER_NAME_SCHEMA, example: 'Astrid', description: 'The name shown at the table: 1 to 40 printable characters, not only spaces.' })
  @IsPlayerName()
  readonly name!: string;
}

export class RenamePlayerDto extends CreatePlayerDto {}

export class PlayerTokenDto {
  @ApiProperty(PLAYER_TOKEN) readonly token!: string;
  @ApiProperty(TOKEN_ID) readonly tokenId!: string;
}

export class PlayerCreatedDto extends PlayerTokenDto {
  @ApiProperty(PLAYER_ID) readonly id!: string;
  @ApiProperty({ example: 'Astrid', description: 'The name shown at the table.' }) readonly name!: string;
}

export class PlayerProfileDto {
  @ApiProperty(PLAYER_ID) readonly id!: string;
  @ApiProperty({ example: 'Astrid', description: 'The name shown at the table ("deleted player" once the account is deleted).' }) readonly name!: string;
  @ApiProperty({ type: RatingDto, description: "The player's rating: OpenSkill's prior (mu 25, sigma 25/3) until a first rated match." }) readonly rating!: RatingDto;
  @ApiProperty(integer('Finished matches the player sat in (a seat bound to the account).', { minimum: 0, example: 0 })) readonly matches!: number;
  @ApiProperty({ description: 'True once the account is deleted.' }) readonly deleted!: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the player registered.' }) readonly createdAt!: string;
}

export class TokenIdParamsDto {
  @ApiProperty(TOKEN_ID) readonly tokenId!: string;
}

export class PlayerMatchesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['playing', 'finished'], description: '`playing`: matches still going on (lobby tables waiting for players included); `finished`: played to the end. Default: both.' })
  @IsOptional()
  @IsIn(['playing', 'finished'])
  readonly status?: 'playing' | 'finished';
}

export class PlayerMatchDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', description: 'The match id.' }) readonly id!: string;
  @ApiProperty(seat("The player's seat in it.")) readonly seat!: number;
  @ApiProperty({ enum: STATUSES, description: 'The match status.' }) readonly status!: string;
  @ApiProperty({ description: "True when the player's seat is the one to act now." }) readonly yourTurn!: boolean;
  @ApiProperty({ type: [SeatNameDto], description: 'The two other seats: names, bots, bound players.' }) readonly opponents!: SeatNameDto[];
  @ApiProperty({ format: 'date-time', description: 'When the match last moved.' }) readonly updatedAt!: string;
}

export class PlayerMatchListDto {
  @ApiProperty({ type: [PlayerMatchDto], description: "The player's matches: those where it is the player's turn first, then the latest moved." })
  readonly items!: PlayerMatchDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' }) readonly nextCursor!: string | null;
}
