import { ApiProperty, OmitType } from '@nestjs/swagger';
import { MatchCreatedDto } from '../matches/dto/responses.dto';
import { seat } from '../../platform/http/fields';

/** The caller's seat in the rematch. No credential: the one the caller sent (seat token, player token or JWT) acts for it. */
export class RematchSeatDto {
  @ApiProperty(seat('The seat.')) readonly seat!: number;
  @ApiProperty({ example: 'Astrid', description: 'Its player.' }) readonly name!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description:
      'Always null: no answer repeats a credential. The one the caller sent acts for the same seat in the rematch: its seat token (`bsk_…`), ' +
      'or, for a seat bound to its account, its player token (`bskp_…`) or identity-provider JWT.',
  })
  readonly token!: null;
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
      "The caller's seat only (the same seat number as in the finished match): each person keeps their token for the rematch, and no answer shows a token, the caller's own or another's.",
  })
  readonly seats!: RematchSeatDto[];
  @ApiProperty({ format: 'uuid', example: '6cc03a75-fc0a-4a44-9953-ff256c06fc3f', description: 'The finished match this one follows (its `RematchOffered` names this one).' })
  readonly rematchOf!: string;
}
