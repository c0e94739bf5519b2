import { Body, Controller, Get, Header, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Seat, Viewer } from '@bismarck/rules';
import type { Versioned } from '@bismarck/projections';
import { ProblemDto } from '../problem/problem.dto';
import { ApiMatchId, ApiProblems } from './api-docs';
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
import { MatchQueries, type EventPage, type MatchPage } from './match-queries.service';
import { CurrentSeat, CurrentViewer, SeatGuard, SeatRequired } from '../seats/seat.guard';
import { MeasuredCommand } from '../metrics/command-metrics.interceptor';

@ApiTags('matches')
@ApiExtraModels(ProblemDto)
@Controller('api/matches')
export class MatchesController {
  constructor(
    private readonly commands: MatchCommands,
    private readonly queries: MatchQueries,
  ) {}

  @Post()
  @MeasuredCommand('createMatch')
  @ApiOperation({ summary: 'Create a match', description: 'The three seat tokens are shown here only.' })
  @ApiCreatedResponse({ type: MatchCreatedDto })
  @ApiBody({
    type: CreateMatchDto,
    examples: {
      match: { summary: 'Three named seats', value: { players: ['Astrid', 'Bjørn', 'Cecilia'] } },
      lobby: { summary: 'A lobby table: seats 1 and 2 open', value: { players: ['Astrid', null, null], options: { schedule: 'quick' } } },
      seeded: { summary: 'Reproducible deals (a test match)', value: { players: ['Astrid', 'Bjørn', 'Cecilia'], seed: 'club-night-42' } },
    },
  })
  @ApiProblems('VALIDATION_FAILED', 'SEED_WITH_OPEN_SEATS')
  create(@Body() body: CreateMatchDto): Promise<MatchCreated> {
    return this.commands.create(body.players, body.options, body.seed);
  }

  @Get()
  @ApiOperation({ summary: 'List matches, newest first' })
  @ApiOkResponse({ type: MatchListDto })
  @ApiProblems('VALIDATION_FAILED')
  list(@Query() query: ListMatchesQueryDto): Promise<MatchPage> {
    return this.queries.list(query.limit ?? 20, query.status, query.cursor);
  }

  @Get(':id')
  @UseGuards(SeatGuard)
  @ApiOperation({ summary: 'The public state of a match (what a spectator sees)' })
  @ApiMatchId()
  @ApiOkResponse({ type: PublicStateDto })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  async state(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.publicState(id));
  }

  @Get(':id/view')
  @UseGuards(SeatGuard)
  @SeatRequired()
  @Header('Cache-Control', 'private, no-store')
  @ApiBearerAuth('seat')
  @ApiOperation({ summary: "A seat's view: the public state plus its hand and what it may do now" })
  @ApiMatchId()
  @ApiOkResponse({ type: SeatViewDto })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  async view(@Param('id') id: string, @CurrentSeat() seat: Seat, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.seatView(id, seat));
  }

  @Get(':id/scorecard')
  @UseGuards(SeatGuard)
  @ApiOperation({ summary: 'The scorecard: every deal, contracts used, totals and winners' })
  @ApiMatchId()
  @ApiOkResponse({ type: ScorecardDto })
  @ApiProblems('MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  async scorecard(@Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    return withEtag(res, await this.queries.scorecard(id));
  }

  @Get(':id/events')
  @UseGuards(SeatGuard)
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    summary: 'The event log as the caller may see it',
    description: 'Every event is listed (versions stay gapless); what the caller may not see is null in `data`.',
  })
  @ApiMatchId()
  @ApiOkResponse({ type: EventPageDto })
  @ApiProblems('VALIDATION_FAILED', 'MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN')
  events(@Param('id') id: string, @Query() query: EventsQueryDto, @CurrentViewer() viewer: Viewer): Promise<EventPage> {
    return this.queries.events(id, viewer, query.after ?? 0, query.limit ?? 100);
  }
}

function withEtag<T>(res: Response, versioned: Versioned<T>): T {
  res.setHeader('ETag', `"${versioned.version}"`);
  return versioned.body;
}

