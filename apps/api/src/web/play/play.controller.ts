import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiMatchId } from '../../platform/http/api-docs';
import { StaticAssets } from '../pages/static-assets';

// The page's files: the HTML, its style sheet and its ES modules (a script per part of the page), as
// the build copied them: every .js and .css of the folder, listed once at start-up.
const ASSETS = join(__dirname, 'assets');
const FILES = readdirSync(ASSETS).filter((name) => /^[a-z-]+\.(js|css|html)$/.test(name));
const HTML = { description: 'An HTML page.', schema: { type: 'string', example: '<!doctype html>…' } } as const;

/**
 * The playable table: a small static page that plays one seat through the public API like any other
 * client. The seat's token comes in the URL fragment (never sent to the server); the page moves it to
 * the tab's session storage (and, once the service accepts it, the browser's local storage until the
 * match ends) and takes it out of the address bar.
 */
@ApiTags('matches')
@Controller('play')
export class PlayController {
  private readonly assets = new StaticAssets(ASSETS, FILES, 'play.html');

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({
    operationId: 'getPlayLobby',
    summary: 'Start a match against bots or friends (HTML)',
    description: 'A form (your name, the schedule, who takes the other seats, the bots\' strength) that creates a match against service bot seats, or with seats left open for friends, and opens its table.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse(HTML)
  lobby(@Res() res: Response): void {
    this.assets.sendPage(res);
  }

  @Get('assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.assets.sendAsset(file, res, 'No such table asset.');
  }

  @Get(':id')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({
    operationId: 'getPlayTable',
    summary: 'The playable table (HTML)',
    description: 'Plays one seat of a match: open it with `#token=<seat token>` (the fragment never reaches the server; the page keeps the token in the tab\'s session storage, and in the browser\'s local storage until the match ends, and removes it from the address bar). Without a token, a seat this browser held is offered back, else a waiting match offers its open seats. Follows the match live; every action by mouse or keyboard.',
  })
  @ApiMatchId()
  @ApiProduces('text/html')
  @ApiOkResponse(HTML)
  page(@Param('id') _id: string, @Res() res: Response): void {
    this.assets.sendPage(res);
  }
}
