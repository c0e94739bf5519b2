import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsPlayerName, PLAYER_NAME_SCHEMA } from '../../accounts/names/seat-names.validator';
import { integer, SEAT_TOKEN, seat } from '../../platform/http/fields';

/** The match and the seat a seat route names in its path. */
export { SeatPathDto as JoinSeatParamsDto } from '../matches/dto/commands.dto';

export class JoinSeatDto {
  @ApiPropertyOptional({
    ...PLAYER_NAME_SCHEMA,
    example: 'Bjørn',
    description:
      'The name shown for this seat: 1 to 40 printable characters, not only spaces. Required, unless the request carries a player token ' +
      "(`Authorization: Bearer bskp_…`): the seat is then bound to that player and named after the account unless a name is given.",
  })
  @IsOptional()
  @IsPlayerName()
  readonly name?: string;
}

export class BotSeatJoinedDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', description: 'The match id.' }) readonly id!: string;
  @ApiProperty(integer('The match version after the join.', { minimum: 2, example: 2 })) readonly version!: number;
  @ApiProperty(seat('The seat given to the bot.', { example: 2 })) readonly seat!: number;
  @ApiProperty({ example: 'Greedy bot', description: 'The name shown for it.' }) readonly name!: string;
  @ApiProperty({ example: 'greedy', description: 'The strategy the service plays it with.' }) readonly bot!: string;
  @ApiProperty({ enum: ['waiting', 'playing'], example: 'waiting', description: '`playing` once this took the last open seat.' })
  readonly status!: 'waiting' | 'playing';
}

export class SeatJoinedDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', description: 'The match id.' }) readonly id!: string;
  @ApiProperty(integer('The match version after the join.', { minimum: 2, example: 2 })) readonly version!: number;
  @ApiProperty(seat('The seat taken.', { example: 1 })) readonly seat!: number;
  @ApiProperty({ example: 'Bjørn', description: 'Its player.' }) readonly name!: string;
  @ApiProperty(SEAT_TOKEN)
  readonly token!: string;
  @ApiProperty({ enum: ['waiting', 'playing'], example: 'waiting', description: '`playing` once this join took the last open seat.' })
  readonly status!: 'waiting' | 'playing';
}
