import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Viewer } from '@bismarck/rules';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { CurrentViewer, SeatGuard } from '../../accounts/seats/seat.guard';
import { NotationService } from './notation.service';

const EXAMPLE = `# Bismarck match 0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a at version 12, as a spectator may see it (docs/notation.md)
Bismarck notation 1
Match: "0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a"
Players: "Astrid" "Bjørn" "Cecilia"
Schedule: quick
Options: scoring=overOnly contractChoice=blind spadesInFreeTrump=true mustTrump=false leadBeforeDiscard=reject fourthRound=none
First dealer: 0
Fairness: seeded

Deal 1: dealer 0, forehand 1
Deck: ??
Table: 6S KS AS 6C
Contract: trump S
Hand 0: ??
Hand 1: ??
Hand 2: ??
Laid away by 1: ??
1. 1: AH 3H QH -> 1
2. 1: 9H
`;

@ApiTags('replay and audit')
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class NotationController {
  constructor(private readonly notations: NotationService) {}

  @Get('notation')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    operationId: 'getNotation',
    summary: 'The match in the plain-text notation, as the caller may see it',
    description:
      'One line per fact, in the order of the log (docs/notation.md): the header (players, options, first dealer, fairness), then each deal: ' +
      'commitment and cut, dealer and forehand, table cards, contract, hands, lay-away, the tricks in play order, the score, the seeds revealed; and the result. ' +
      'What the caller may not see is written `??`, as `listEvents` redacts it: a spectator sees no hand of a deal in play, a seat its own. ' +
      'It parses back to the events of the log (`bismarck notation --parse`).',
  })
  @ApiMatchId()
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'The notation, UTF-8 text with one line per fact.',
    content: { 'text/plain; charset=utf-8': { schema: { type: 'string', example: EXAMPLE } } },
  })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  notation(@Param('id') id: string, @CurrentViewer() viewer: Viewer): Promise<string> {
    return this.notations.notation(id, viewer);
  }
}
