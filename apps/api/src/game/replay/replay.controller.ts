import { Controller, Get, Header, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ExportedMatch } from '@bismarck/audit';
import type { Viewer } from '@bismarck/rules';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { CurrentViewer, SeatGuard } from '../../accounts/seats/seat.guard';
import { AuditDto, AuditQueryDto, ExportDto, ReplayDto, ReplayQueryDto } from './replay.dto';
import { ReplayService, type AuditResult, type ReplayView } from './replay.service';

@ApiTags('replay and audit')
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class ReplayController {
  constructor(private readonly replays: ReplayService) {}

  @Get('replay')
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    operationId: 'replay',
    summary: 'The state right after event N, as the caller may see it',
    description: 'A seat sees its own cards, a spectator only public ones; once a deal is scored nothing of it is secret (`revealed`).',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: ReplayDto })
  @ApiProblems(['VALIDATION_FAILED', "version must be at most 40, the match's current version."], 'MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  replay(@Param('id') id: string, @Query() query: ReplayQueryDto, @CurrentViewer() viewer: Viewer): Promise<ReplayView> {
    return this.replays.replay(id, query.version, viewer);
  }

  @Get('audit')
  @ApiOperation({
    operationId: 'audit',
    summary: 'Verify a match: hash chain, commitments and revealed seeds, decks, every decision, scores',
    description: '`ok` is true when every check passes; `firstFailure` names the first event version that fails. Deals still in play are checked once scored. With `pin`, also checks that the log still holds a hash kept during play.',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: AuditDto })
  @ApiProblems(['VALIDATION_FAILED', 'pin must be <version>:<64 hex digits>'], 'MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  audit(@Param('id') id: string, @Query() query: AuditQueryDto): Promise<AuditResult> {
    return this.replays.audit(id, query.pin);
  }

  @Get('export')
  @ApiOperation({
    operationId: 'exportMatch',
    summary: 'A finished match as one self-contained JSON document, with its proofs',
    description: 'Check it offline with `npm run bismarck -- verify <file>`.',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: ExportDto })
  @ApiProblems('MATCH_NOT_FOUND', 'MATCH_NOT_FINISHED', 'UNAUTHORIZED', 'FORBIDDEN')
  export(@Param('id') id: string): Promise<ExportedMatch> {
    return this.replays.exportFinished(id);
  }
}
