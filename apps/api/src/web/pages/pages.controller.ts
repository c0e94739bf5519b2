import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ProblemException } from '../../platform/problem/problem';
import { LANGUAGE_NAMES, LANGUAGES } from '../../platform/i18n/languages';

const ASSETS = join(__dirname, 'assets');
const FLUENT = join(dirname(require.resolve('@fluent/bundle/package.json')), 'esm');
const TYPES = { js: 'text/javascript; charset=utf-8', ftl: 'text/plain; charset=utf-8', svg: 'image/svg+xml' } as const;

type File = { type: string; body: Buffer };
const read = (dir: string, pattern: RegExp, type: string): Map<string, File> =>
  new Map(readdirSync(dir).filter((name) => pattern.test(name)).map((name) => [name, { type, body: readFileSync(join(dir, name)) }]));

/**
 * `languages.js`: the service's own list of languages (platform/i18n), as the module the pages import;
 * no copy of it in the pages' scripts. Its types for the checker: assets/languages.d.ts.
 */
const languagesModule = (): string => [
  '// The languages the service speaks, written from its own list (apps/api/src/platform/i18n/language-list.ts).',
  `export const LANGUAGES = ${JSON.stringify(LANGUAGES)};`,
  `export const LANGUAGE_NAMES = ${JSON.stringify(LANGUAGE_NAMES)};`,
  '',
].join('\n');

/**
 * What the pages share: their common scripts (DOM helpers, languages, and the list of languages written
 * from the service's), the Fluent library they format messages with, the message catalogs of each
 * language, and the icon. Read once at start-up, served from memory (no path is built from a request).
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  private readonly scripts = read(ASSETS, /^[a-z0-9-]+\.js$/, TYPES.js).set('languages.js', { type: TYPES.js, body: Buffer.from(languagesModule()) });
  private readonly fluent = read(FLUENT, /^[a-z]+\.js$/, TYPES.js);
  private readonly catalogs = new Map(LANGUAGES.map((lang) => [lang, read(join(ASSETS, 'locales', lang), /^[a-z-]+\.ftl$/, TYPES.ftl)]));
  private readonly icon: File = { type: TYPES.svg, body: readFileSync(join(ASSETS, 'favicon.svg')) };

  @Get('pages/assets/:file')
  script(@Param('file') file: string, @Res() res: Response): void {
    send(res, this.scripts.get(file));
  }

  @Get('pages/assets/fluent/:file')
  fluentModule(@Param('file') file: string, @Res() res: Response): void {
    send(res, this.fluent.get(file));
  }

  @Get('pages/assets/locales/:lang/:file')
  catalog(@Param('lang') lang: string, @Param('file') file: string, @Res() res: Response): void {
    send(res, this.catalogs.get(lang as never)?.get(file));
  }

  // Browsers ask for /favicon.ico whatever the page's <link rel="icon"> says.
  @Get(['favicon.svg', 'favicon.ico'])
  favicon(@Res() res: Response): void {
    send(res, this.icon);
  }
}

function send(res: Response, file: File | undefined): void {
  if (!file) throw new ProblemException('NOT_FOUND', 'No such page asset.');
  res.type(file.type).setHeader('Cache-Control', 'public, max-age=300');
  res.send(file.body);
}
