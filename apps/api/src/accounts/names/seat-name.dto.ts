import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PLAYER_ID, seat } from '../../platform/http/fields';

/** A seat's strategy when the service plays it. */
export const BOT = {
  example: 'greedy',
  type: String,
  description: 'The strategy the service plays this seat with (`random`, `greedy`, …; docs/bots.md).',
} as const;

export class SeatNameDto {
  @ApiProperty(seat('The seat.')) readonly seat!: number;
  @ApiProperty({ example: 'Astrid', nullable: true, type: String, description: 'Its player; null while the seat is open (status `waiting`).' })
  readonly name!: string | null;
  @ApiProperty({ ...BOT, example: null, nullable: true, description: 'The strategy of a seat the service plays (a bot), null for a person or an open seat.' })
  readonly bot!: string | null;
  @ApiPropertyOptional({ ...PLAYER_ID, description: 'The player account the seat is bound to (docs/players.md): only on a bound seat.' })
  readonly player?: string;
}
