import { Controller, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { StrongBotMatches } from '../matches/strong-bot-matches';
import { NoBodyGuard } from '../../platform/problem/no-body.guard';
import { SeatGuard } from '../../accounts/seats/seat.guard';
import { ForkCreatedDto, ForkQueryDto } from './fork.dto';
import { ForkService, type ForkCreated } from './fork.service';

@ApiTags('matches')
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class ForkController {
  constructor(
    private readonly forks: ForkService,
    private readonly strongBots: StrongBotMatches,
  ) {}

  @Post('fork')
  @UseGuards(NoBodyGuard)
  @ApiOperation({
    operationId: 'forkMatch',
    summary: 'Fork a finished match at any position: a new sandbox match that plays on from there',
    description:
      'For post-mortems ("what if I had led the ace"): a new match whose log rests exactly where this one rested right after event `version`, ' +
      'with fresh seat tokens (shown here only; bot seats stay bots). It is seeded (never provably fair: its cards are public), ' +
      'and deals the original\'s decks for the same deals. Anyone may fork; only a finished match (409 `MATCH_NOT_FINISHED`), ' +
      'only at a version where the match rested between two moves (422 `VERSION_NOT_FORKABLE`, naming the nearest ones). ' +
      'docs/clients.md, "Forking a finished match".',
  })
  @ApiMatchId()
  @ApiCreatedResponse({ type: ForkCreatedDto })
  @ApiProblems(
    ['VALIDATION_FAILED', "version must be at most 214, the match's current version."],
    'MATCH_NOT_FOUND',
    'UNAUTHORIZED',
    'FORBIDDEN',
    ['MATCH_NOT_FINISHED', 'A match can be forked once it is finished: until then its hands are secret.'],
    'VERSION_NOT_FORKABLE',
    'TOO_MANY_BOT_MATCHES',
  )
  async fork(@Param('id') id: string, @Query() query: ForkQueryDto, @Req() req: Request): Promise<ForkCreated> {
    return this.forks.fork(id, query.version, await this.strongBots.callerOf(req));
  }
}
