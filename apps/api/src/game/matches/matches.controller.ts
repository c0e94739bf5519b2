import { Body, Controller, Get, Header, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { bearerToken } from '../../platform/edge/caller';
import type { Seat, Viewer } from '@bismarck/rules';
import type { Versioned } from '@bismarck/projections';
import { ProblemDto } from '../../platform/problem/problem.dto';
import { ApiMatchId, ApiProblems, ETAG, PRESENCE_ETAG } from '../../platform/http/api-docs';
import { CreateMatchDto } from './dto/create-match.dto';
import { EventsQueryDto, ListMatchesQueryDto } from './dto/queries.dto';
import {
  EventPageDto,
  MatchCreatedDto,
  MatchListDto,
  PublicStateDto,
  ScorecardDto,
  SeatViewDto,
} from './dto/responses.dto';
import { MatchCommands, type MatchCreated } from './match-commands.service';
import { StrongBotMatches } from './strong-bot-matches';
import { PlayerCredentials } from '../../accounts/players/player-credentials.service';
import { MatchQueries, type EventPage, type MatchPage } from './match-queries.service';
import { CurrentSeat, CurrentViewer, SeatGuard, SeatRequired } from '../../accounts/seats/seat.guard';
import { SEAT_ENTRY } from '../../accounts/names/seat-names.validator';

@ApiTags('matches')
@ApiExtraModels(ProblemDto)
@Controller('api/matches')
export class MatchesController {
  constructor(
    private readonly commands: MatchCommands,
    private readonly queries: MatchQueries,
    private readonly players: PlayerCredentials,
    private readonly strongBots: StrongBotMatches,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createMatch',
    summary: 'Create a match',
    description: 'The token of each named seat is shown here only; a `null` player leaves a seat open for `joinSeat` (a lobby table).',
  })
  @ApiCreatedResponse({ type: MatchCreatedDto })
  @ApiBody({
    type: CreateMatchDto,
    examples: {
      match: { summary: 'Three named seats', value: { players: ['Astrid', 'Bjørn', 'Cecilia'] } },
      lobby: { summary: 'A lobby table: seats 1 and 2 open', value: { players: ['Astrid', null, null], options: { schedule: 'quick' } } },
      seeded: { summary: 'Reproducible deals (a test match)', value: { players: ['Astrid', 'Bjørn', 'Cecilia'], seed: 'club-night-42' } },
      bots: { summary: 'Against two bots (the service plays them)', value: { players: ['Astrid', { bot: 'greedy' }, { bot: 'random' }], options: { schedule: 'quick' } } },
    },
  })
  @ApiProblems(
    ['VALIDATION_FAILED', `each entry of players must be ${SEAT_ENTRY}`],
    'SEED_WITH_OPEN_SEATS',
    ['UNAUTHORIZED', 'Binding a seat to a player account needs that player\'s token: send "Authorization: Bearer <player token>".'],
    ['FORBIDDEN', "A seat can be bound only to the caller's own player account."],
    'TOO_MANY_BOT_MATCHES',
  )
  async create(@Body() body: CreateMatchDto, @Req() req: Request): Promise<MatchCreated> {
    const entries = await this.players.bindEntries(body.players, bearerToken(req));
    const strong = entries.some((e) => e !== null && typeof e === 'object' && 'bot' in e && e.bot === 'strong');
    return this.strongBots.admit(await this.strongBots.callerOf(req), strong, () => this.commands.create(entries, body.options, body.seed));
  }

  @Get()
  @ApiOperation({
    operationId: 'listMatches',
    summary: 'List matches, newest first',
    description:
      'One page at a time: pass `nextCursor` as `cursor` for the next. `status=waiting` lists the open lobby tables; `forkedFrom={id}` the forks of a match.',
  })
  @ApiOkResponse({ type: MatchListDto })
  @ApiProblems(['VALIDATION_FAILED', 'limit must be a whole number from 1 to 100, in decimal digits'])
  list(@Query() query: ListMatchesQueryDto): Promise<MatchPage> {
    return this.queries.list(query.limit ?? 20, query, query.cursor);
  }

  @Get(':id')
  @UseGuards(SeatGuard)
  @ApiOperation({
    operationId: 'getMatch',
    summary: 'The public state of a match (what a spectator sees)',
    description: 'Phase, dealer, forehand, whose turn, table cards, the trick, totals and the checkpoint to pin; no hand. A seat token is checked but shows no more: use `getSeatView`.',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: PublicStateDto, headers: PRESENCE_ETAG })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  async state(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.publicState(id));
  }

  @Get(':id/view')
  @UseGuards(SeatGuard)
  @SeatRequired()
  @Header('Cache-Control', 'private, no-store')
  @ApiBearerAuth('seat')
  @ApiOperation({
    operationId: 'getSeatView',
    summary: "A seat's view: the public state plus its hand and what it may do now",
    description: 'For the seat of the token: its hand, its laid-away cards (forehand) and `legal`, the action it may take now (null when it is not its turn).',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: SeatViewDto, headers: PRESENCE_ETAG })
  @ApiProblems('MATCH_NOT_FOUND', ['UNAUTHORIZED', 'This route acts for a seat: send "Authorization: Bearer <seat token>".'], 'FORBIDDEN')
  async view(@Param('id') id: string, @CurrentSeat() seat: Seat, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.seatView(id, seat));
  }

  @Get(':id/scorecard')
  @UseGuards(SeatGuard)
  @ApiOperation({
    operationId: 'getScorecard',
    summary: 'The scorecard: every deal, contracts used, totals and winners',
    description: 'Public: every scored deal with its contract, tricks and points, the contracts each seat has used, the totals, and the winners once finished.',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: ScorecardDto, headers: ETAG })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  async scorecard(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.scorecard(id));
  }

  @Get(':id/events')
  @UseGuards(SeatGuard)
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'The event log as the caller may see it',
    description:
      'Every event is listed (versions stay gapless); what the caller may not see is null in `data`. ' +
      '`type` tells which `data` an event carries (docs/clients.md, "Event catalogue").',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: EventPageDto })
  @ApiProblems(['VALIDATION_FAILED', 'after must be a whole number from 0 to 2147483647, in decimal digits'], 'MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  events(@Param('id') id: string, @Query() query: EventsQueryDto, @CurrentViewer() viewer: Viewer): Promise<EventPage> {
    return this.queries.events(id, viewer, query.after ?? 0, query.limit ?? 100);
  }
}

/**
 * The match version as the ETag, and the presence shown if any (PRESENCE_ETAG): Express answers 304
 * to an `If-None-Match` naming it, so a tag must change whenever the body does.
 */
function withEtag<T>(res: Response, { version, body, connected }: Versioned<T>): T {
  res.setHeader('ETag', connected ? `"${version}-${connected.map((c) => (c ? 1 : 0)).join('')}"` : `"${version}"`);
  return body;
}

