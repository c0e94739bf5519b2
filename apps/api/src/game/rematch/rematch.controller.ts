import { Controller, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Seat } from '@bismarck/rules';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { NoBodyGuard } from '../../platform/problem/no-body.guard';
import { CurrentSeat, SeatGuard, SeatRequired } from '../../accounts/seats/seat.guard';
import { RematchCreatedDto } from './rematch.dto';
import { RematchService, type RematchCreated } from './rematch.service';

@ApiTags('matches')
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class RematchController {
  constructor(private readonly rematches: RematchService) {}

  @Post('rematch')
  @SeatRequired()
  @UseGuards(NoBodyGuard)
  @ApiOperation({
    operationId: 'rematch',
    summary: 'Play again: the next match with the same players, bots and options, the first dealer one seat on',
    description:
      'By a seat of a finished match (its seat token). The first call appends `RematchOffered { matchId, seat }` to the finished match, ' +
      "so every page still following its live stream learns the new match's id, and creates that match (provably fair, even after a " +
      'seeded match or a fork; its `MatchCreated` says `rematchOf`). Every later call, by any seat, answers the same match: a match has ' +
      'one rematch, and the call is idempotent by itself (no `Idempotency-Key` needed). Each person keeps their seat token: it acts for ' +
      "the same seat in the rematch, so the answer's `seats` holds the caller's seat only, with the token it called with. " +
      'docs/clients.md, "Rematch".',
  })
  @ApiBearerAuth('seat')
  @ApiMatchId()
  @ApiCreatedResponse({ type: RematchCreatedDto })
  @ApiProblems(
    'VALIDATION_FAILED',
    ['UNAUTHORIZED', 'This route acts for a seat: send "Authorization: Bearer <seat token>".'],
    'FORBIDDEN',
    'MATCH_NOT_FOUND',
    ['MATCH_NOT_FINISHED', 'a rematch follows a finished match'],
    'MATCH_NOT_STARTED',
    'MATCH_ABANDONED',
    'CONCURRENT_UPDATE',
  )
  rematch(@Param('id') id: string, @CurrentSeat() seat: Seat): Promise<RematchCreated> {
    return this.rematches.rematch(id, seat);
  }
}
