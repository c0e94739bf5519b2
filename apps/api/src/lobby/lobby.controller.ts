import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { STRATEGIES } from '@bismarck/bots';
import { ApiProblems } from '../matches/api-docs';
import { parseMatchId } from '../matches/match-id';
import { BotSeatDto } from '../matches/dto/create-match.dto';
import { BotSeatJoinedDto, JoinSeatDto, JoinSeatParamsDto, SeatJoinedDto } from './lobby.dto';
import { LobbyService, type BotSeatJoined, type SeatJoined } from './lobby.service';

@ApiTags('lobby')
@Controller('api/matches/:id/seats')
export class LobbyController {
  constructor(private readonly lobby: LobbyService) {}

  @Post(':seat/join')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'joinSeat',
    summary: 'Take an open seat of a waiting match',
    description:
      "Answers the seat's token, shown only here. The match starts (status `playing`) when the last open seat is taken; " +
      'until then every command is refused with `MATCH_NOT_STARTED`. Open tables: `GET /api/matches?status=waiting`.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The match id.' })
  @ApiParam({ name: 'seat', schema: { type: 'integer', enum: [0, 1, 2] }, description: 'The open seat to take.' })
  @ApiBody({ type: JoinSeatDto, examples: { join: { value: { name: 'Bjørn' } } } })
  @ApiCreatedResponse({ type: SeatJoinedDto })
  @ApiProblems(['VALIDATION_FAILED', 'name must be 1 to 40 printable characters'], 'MATCH_NOT_FOUND', 'SEAT_TAKEN', 'MATCH_ABANDONED', 'CONCURRENT_UPDATE')
  join(@Param() params: JoinSeatParamsDto, @Body() body: JoinSeatDto): Promise<SeatJoined> {
    return this.lobby.join(parseMatchId(params.id), params.seat, body.name);
  }

  @Post(':seat/bot')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'seatBot',
    summary: 'Give an open seat of a waiting match to a bot',
    description:
      'The service plays the seat from then on with the strategy named (docs/bots.md); no token is issued. ' +
      'The match starts (status `playing`) when the last open seat is taken.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The match id.' })
  @ApiParam({ name: 'seat', schema: { type: 'integer', enum: [0, 1, 2] }, description: 'The open seat to give to a bot.' })
  @ApiBody({ type: BotSeatDto, examples: { greedy: { value: { bot: 'greedy' } }, named: { value: { bot: 'random', name: 'Otto' } } } })
  @ApiCreatedResponse({ type: BotSeatJoinedDto })
  @ApiProblems(['VALIDATION_FAILED', `bot must be one of the following values: ${STRATEGIES.join(', ')}`], 'MATCH_NOT_FOUND', 'SEAT_TAKEN', 'MATCH_ABANDONED', 'CONCURRENT_UPDATE')
  seatBot(@Param() params: JoinSeatParamsDto, @Body() body: BotSeatDto): Promise<BotSeatJoined> {
    return this.lobby.seatBot(parseMatchId(params.id), params.seat, body.bot, body.name);
  }
}
