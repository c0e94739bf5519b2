import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiMatchId } from '../matches/api-docs';
import { ProblemException } from '../problem/problem';

interface Asset {
  type: string;
  body: Buffer;
}

/**
 * The viewer's files, read once at start-up and served from memory: no path is ever built from the
 * request (so `constructor` or `..` name nothing), and no file API refuses the install directory
 * because one of its segments starts with a dot (`res.sendFile` does, e.g. under `~/.cache`).
 */
function loadAssets(dir: string): Map<string, Asset> {
  const types: [string, string][] = [
    ['viewer.html', 'text/html; charset=utf-8'],
    ['viewer.js', 'text/javascript; charset=utf-8'],
    ['viewer.css', 'text/css; charset=utf-8'],
  ];
  return new Map(types.map(([name, type]) => [name, { type, body: readFileSync(join(dir, name)) }]));
}

/** The replay viewer: a small static page that reads the public API like any other client. */
@ApiTags('replay and audit')
@Controller('viewer')
export class ViewerController {
  private readonly assets = loadAssets(join(__dirname, 'assets'));

  @Get('assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    const asset = file === 'viewer.html' ? undefined : this.assets.get(file);
    if (!asset) throw new ProblemException('NOT_FOUND', 'No such viewer asset.');
    res.type(asset.type).setHeader('Cache-Control', 'public, max-age=300');
    res.send(asset.body);
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
    const html = this.assets.get('viewer.html')!;
    res.type(html.type).send(html.body);
  }
}
