import { ApiProperty, OmitType } from '@nestjs/swagger';
import { MatchCreatedDto } from '../matches/dto/responses.dto';
import { seat } from '../matches/dto/fields';

/** The caller's seat in the rematch, with the token it called with: a seat token, or the player token of a bound seat. */
export class RematchSeatDto {
  @ApiProperty(seat('The seat.')) readonly seat!: number;
  @ApiProperty({ example: 'Astrid', description: 'Its player.' }) readonly name!: string;
  @ApiProperty({
    pattern: '^bskp?_[A-Za-z0-9_-]{32}$',
    example: 'bsk_3q2l0m9VfQd0b6K0u0wz1y8yq0f7v3xA',
    description: 'The token the caller sent: its seat token (`bsk_…`), which acts for the same seat in the rematch, or its player token (`bskp_…`) for a seat bound to its account.',
  })
  readonly token!: string;
}

/** The answer of POST /api/matches/{id}/rematch: the new match as POST /api/matches answers it, with the caller's seat only. */
export class RematchCreatedDto extends OmitType(MatchCreatedDto, ['status', 'seats', 'seeded'] as const) {
  @ApiProperty({ description: 'Always false: a rematch deals provably fair decks, even after a seeded match or a fork.' })
  readonly seeded!: boolean;
  @ApiProperty({ enum: ['playing', 'finished'], description: '`playing`; `finished` only when the rematch was played to its end before this call.' })
  readonly status!: 'playing' | 'finished';
  @ApiProperty({
    type: [RematchSeatDto],
    minItems: 1,
    maxItems: 1,
    description:
      "The caller's seat only (the same seat number as in the finished match), with the token it called with: each person keeps their token for the rematch, and no one is shown another's.",
  })
  readonly seats!: RematchSeatDto[];
  @ApiProperty({ format: 'uuid', example: '6cc03a75-fc0a-4a44-9953-ff256c06fc3f', description: 'The finished match this one follows (its `RematchOffered` names this one).' })
  readonly rematchOf!: string;
}
