import { ApiProperty, OmitType } from '@nestjs/swagger';
import { ForkedFromDto } from '../matches/dto/events.dto';
import { integer, MAX_VERSION } from '../../platform/http/fields';
import { QueryInteger } from '../../platform/http/query-integer';
import { MatchCreatedDto } from '../matches/dto/responses.dto';

export class ForkQueryDto {
  @ApiProperty(
    integer("Fork at the position right after this event of the match's log (0: the match as it started; at most the match's version).", {
      minimum: 0,
      maximum: MAX_VERSION,
      example: 57,
    }),
  )
  // An empty `?version=` is refused (Number() would read it as 0, the start). Versions are PostgreSQL integers.
  @QueryInteger(0, MAX_VERSION)
  readonly version!: number;
}

/** The answer of POST /api/matches/{id}/fork: a new match's, as POST /api/matches answers, and where it comes from. */
export class ForkCreatedDto extends OmitType(MatchCreatedDto, ['status', 'seeded'] as const) {
  @ApiProperty({ description: 'Always true: a fork starts from cards that are public, so it is a sandbox, never provably fair.' })
  readonly seeded!: boolean;
  @ApiProperty({ enum: ['playing', 'finished'], description: '`finished` only for a fork at the last version of the match.' })
  readonly status!: 'playing' | 'finished';
  @ApiProperty({ type: ForkedFromDto, description: 'The match forked and the version asked (also in the fork\'s `MatchCreated`).' })
  readonly forkedFrom!: ForkedFromDto;
}
