import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { bearerToken } from '../../platform/edge/caller';
import { ProblemException } from '../../platform/problem/problem';
import { isPlayerCredential, PlayerCredentials } from '../../accounts/players/player-credentials.service';
import { STRATEGIES } from '@bismarck/bots';
import { ApiProblems } from '../../platform/http/api-docs';
import { parseMatchId } from '../../platform/http/match-id';
import { BotSeatDto } from '../matches/dto/create-match.dto';
import { BotSeatJoinedDto, JoinSeatDto, JoinSeatParamsDto, SeatJoinedDto } from './lobby.dto';
import { LobbyService, type BotSeatJoined, type SeatJoined } from './lobby.service';

@ApiTags('lobby')
@Controller('api/matches/:id/seats')
export class LobbyController {
  constructor(
    private readonly lobby: LobbyService,
    private readonly players: PlayerCredentials,
  ) {}

  @Post(':seat/join')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'joinSeat',
    summary: 'Take an open seat of a waiting match',
    description:
      "Answers the seat's token, shown only here. The match starts (status `playing`) when the last open seat is taken; " +
      'until then every command is refused with `MATCH_NOT_STARTED`. Open tables: `GET /api/matches?status=waiting`. ' +
      'With a player token (`Authorization: Bearer bskp_…`, or a JWT of the deployment\'s OIDC_ISSUER) the seat is bound to that player (docs/players.md): the name may then be left out, ' +
      "and the player's token acts for the seat from any device; a player holds at most one seat of a match (409 `ALREADY_SEATED`).",
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The match id.' })
  @ApiParam({ name: 'seat', schema: { type: 'integer', enum: [0, 1, 2] }, description: 'The open seat to take.' })
  @ApiBody({ type: JoinSeatDto, examples: { join: { value: { name: 'Bjørn' } }, asPlayer: { summary: 'with a player token', value: {} } } })
  @ApiCreatedResponse({ type: SeatJoinedDto })
  @ApiProblems(
    ['VALIDATION_FAILED', 'name must be 1 to 40 printable characters'],
    ['UNAUTHORIZED', 'Unknown or revoked player token.'],
    'MATCH_NOT_FOUND',
    'SEAT_TAKEN',
    'ALREADY_SEATED',
    'MATCH_ABANDONED',
    'CONCURRENT_UPDATE',
  )
  async join(@Param() params: JoinSeatParamsDto, @Body() body: JoinSeatDto, @Req() req: Request): Promise<SeatJoined> {
    const id = parseMatchId(params.id);
    const token = bearerToken(req);
    if (token !== undefined && isPlayerCredential(token)) {
      const player = await this.players.caller(token, []);
      return this.lobby.join(id, params.seat, body.name ?? player.name, player.id);
    }
    if (body.name === undefined) throw new ProblemException('VALIDATION_FAILED', 'name must be 1 to 40 printable characters', { errors: [{ pointer: '/name', detail: 'name must be 1 to 40 printable characters' }] });
    return this.lobby.join(id, params.seat, body.name);
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
