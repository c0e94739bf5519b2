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

/** The replay viewer: a small static page that reads the public API like any other client. */
@ApiTags('replay and audit')
@Controller('viewer')
export class ViewerController {
  private readonly assets = new StaticAssets(ASSETS, FILES, 'viewer.html');

  @Get('assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.assets.sendAsset(file, res, 'No such viewer asset.');
  }

  @Get(':id')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({
    operationId: 'getViewer',
    summary: 'The replay viewer (HTML)',
    description: 'Shows the match as a spectator sees it (add `#token=<seat token>` to see a seat\'s cards); step with the buttons, the arrow keys or the slider; follows a live match.',
  })
  @ApiMatchId()
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'An HTML page.', schema: { type: 'string', example: '<!doctype html>…' } })
  page(@Param('id') _id: string, @Res() res: Response): void {
    this.assets.sendPage(res);
  }
}
