import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { join } from 'node:path';
import { ProblemException } from '../problem/problem';

const ASSETS = join(__dirname, 'assets');
const FILES: Record<string, string> = { 'viewer.js': 'text/javascript; charset=utf-8', 'viewer.css': 'text/css; charset=utf-8' };

/** The replay viewer: a small static page that reads the public API like any other client. */
@ApiTags('replay and audit')
@Controller('viewer')
export class ViewerController {
  @Get('assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    const type = FILES[file];
    if (!type) throw new ProblemException('NOT_FOUND', `No viewer asset ${file}.`);
    res.type(type).setHeader('Cache-Control', 'public, max-age=300');
    res.sendFile(join(ASSETS, file));
  }

  @Get(':id')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({
    summary: 'The replay viewer (HTML)',
    description: 'Shows the match as a spectator sees it (add `#token=<seat token>` to see a seat\'s cards); step with the buttons, the arrow keys or the slider; follows a live match.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'An HTML page.', schema: { type: 'string', example: '<!doctype html>…' } })
  page(@Param('id') _id: string, @Res() res: Response): void {
    res.sendFile(join(ASSETS, 'viewer.html'));
  }
}
