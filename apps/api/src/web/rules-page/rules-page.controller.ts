import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { askedLanguage } from '../../platform/i18n/languages';
import { RulesPageService } from './rules-page.service';

const HTML = { description: 'An HTML page.', schema: { type: 'string', example: '<!doctype html>…' } } as const;

/** The rules of the game as the service plays them, in English, Finnish, Norwegian or Swedish. */
@ApiTags('matches')
@Controller('rules')
export class RulesPageController {
  constructor(private readonly rules: RulesPageService) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({
    operationId: 'getRules',
    summary: 'The rules of Bismarck (HTML)',
    description: 'The rules as this service plays them, with the game\'s words in each language. The language is `lang` if it names one, else the best of `Accept-Language` (`no` and `nn` read as `nb`), else English.',
  })
  @ApiQuery({ name: 'lang', required: false, description: 'en, fi, nb or sv; any other value is ignored.', schema: { type: 'string', example: 'fi' } })
  @ApiProduces('text/html')
  @ApiOkResponse(HTML)
  page(@Query('lang') lang: unknown, @Req() req: Request, @Res() res: Response): void {
    const chosen = askedLanguage(req, lang);
    res.setHeader('Content-Language', chosen);
    res.vary('Accept-Language');
    res.type('text/html; charset=utf-8').send(this.rules.page(chosen));
  }

  @Get('rules.css')
  @ApiExcludeEndpoint()
  css(@Res() res: Response): void {
    res.type('text/css; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300');
    res.send(this.rules.css);
  }
}
