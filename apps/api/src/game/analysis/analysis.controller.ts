import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { clientAddress } from '../../platform/edge/caller';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { SeatGuard } from '../../accounts/seats/seat.guard';
import { AnalysisPendingDto, AnalysisQueryDto, DealAnalysisDto } from './analysis.dto';
import { AnalysisService, tooManyFromAddress, type AnalysisAnswer } from './analysis.service';

@ApiTags('analysis')
@ApiExtraModels(AnalysisPendingDto)
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class AnalysisController {
  constructor(private readonly analyses: AnalysisService) {}

  @Get('analysis')
  @ApiOperation({
    operationId: 'analyseDeal',
    summary: 'The double-dummy cost of every card of a scored deal, and its par',
    description:
      'Every card played, valued from the seat that played it against the other two together, every card face up (the paranoid reading): its best tricks before the card, its tricks after it, and the cost. ' +
      'Computed once, by a worker, and kept. While it is being computed the answer is 202 `pending` with `Retry-After`: ask again. ' +
      'Refused with 409 `DEAL_NOT_SCORED` until the deal is scored (its hands are secret until then). docs/clients.md, "Analysis of a scored deal".',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: DealAnalysisDto, description: 'The analysis.' })
  @ApiResponse({
    status: 202,
    description: 'Being computed: ask again after `Retry-After` seconds.',
    headers: { 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', example: 2 } } },
    type: AnalysisPendingDto,
  })
  @ApiProblems(
    ['VALIDATION_FAILED', 'deal must be a whole number from 1 to 1000, in decimal digits'],
    'MATCH_NOT_FOUND',
    'UNAUTHORIZED',
    'FORBIDDEN',
    'DEAL_NOT_SCORED',
    ['RATE_LIMITED', tooManyFromAddress(4, 4)],
    'ANALYSIS_BUSY',
  )
  async analysis(@Param('id') id: string, @Query() query: AnalysisQueryDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AnalysisAnswer> {
    const answer = await this.analyses.analysis(id, query.deal, clientAddress(req));
    if (answer.status === 'pending') res.status(202).setHeader('Retry-After', String(answer.retryAfter));
    return answer;
  }
}
