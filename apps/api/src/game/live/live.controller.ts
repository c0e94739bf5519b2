import { Controller, Get, Headers, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Viewer } from '@bismarck/rules';
import { invalidParameter } from '../../platform/problem/problem';
import { ApiMatchId, ApiProblems } from '../../platform/http/api-docs';
import { CurrentViewer, SeatGuard } from '../../accounts/seats/seat.guard';
import { StreamQueryDto } from './stream-query.dto';
import { EventStreamService, type ResumePoint } from './event-stream.service';

const SSE_EXAMPLE =
  'retry: 2000\n\n' +
  'event: presence\ndata: {"connected":[true,false,true]}\n\n' +
  'id: 7\ndata: {"version":7,"type":"CardPlayed","at":"2026-01-01T12:00:00.000Z","data":{"deal":1,"trick":1,"seat":2,"card":"QH"}}\n\n' +
  ': keep-alive\n\n';

@ApiTags('matches')
@Controller('api/matches')
export class LiveController {
  constructor(private readonly streams: EventStreamService) {}

  @Get(':id/events/stream')
  @UseGuards(SeatGuard)
  @ApiOperation({
    operationId: 'streamEvents',
    summary: 'The event log as Server-Sent Events, live',
    description:
      'The same events as `GET /api/matches/{id}/events`, redacted for the caller (a seat token sees its own cards, ' +
      'no token is a spectator), first those after `Last-Event-ID` (or `after`), then live as they are appended. ' +
      'Each message has `id:` = the version and `data:` = `{ version, type, at, data }`; versions arrive in order with ' +
      'no gap and no duplicate. `event: presence` (data `{ connected: [bool, bool, bool] }`, no `id:`) tells which seats have a live stream open: ' +
      'once first, then at each change; a stream opened with a seat token (or the bound player\'s token) makes that seat connected while it is open. A comment line (`: keep-alive`) is sent every `SSE_KEEPALIVE_MS`. After `MatchFinished` the ' +
      'stream stays open for `REMATCH_WINDOW_MS` (5 min) for the match\'s `RematchOffered` (docs/clients.md, "Rematch"): after it, ' +
      'or when the window closes without one, the server sends `event: end` and closes; after `TableAbandoned` (a lobby table ' +
      'closed unfilled), at once. Reconnecting at the last version of such a match answers 204, which tells an EventSource to stop.',
  })
  @ApiMatchId()
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this version (sent by EventSource on reconnect).' })
  @ApiOkResponse({
    description: 'An event stream (text/event-stream).',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: SSE_EXAMPLE } },
  })
  @ApiResponse({
    status: 204,
    description: 'The caller has every event and nothing more is awaited: a finished match with its rematch offered or its rematch window closed, or an abandoned lobby table.',
  })
  @ApiProblems(['VALIDATION_FAILED', 'Last-Event-ID must be an event version.'], 'MATCH_NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN', 'TOO_MANY_STREAMS')
  async stream(
    @Param('id') id: string,
    @Query() query: StreamQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentViewer() viewer: Viewer,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.streams.open(id, viewer, resumeAfter(lastEventId, query.after), req, res);
  }
}

/** Last-Event-ID wins over `?after=` (an EventSource sends it on every reconnect). */
function resumeAfter(header: string | undefined, after: number | undefined): ResumePoint {
  if (header === undefined || header.trim() === '') return { after: after ?? 0, parameter: 'after' };
  if (!/^\s*\d{1,9}\s*$/.test(header)) throw invalidParameter('Last-Event-ID', 'Last-Event-ID must be an event version.');
  return { after: Number(header), parameter: 'Last-Event-ID' };
}
