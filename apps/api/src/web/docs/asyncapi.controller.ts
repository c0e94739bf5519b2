import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { buildAsyncApi } from './asyncapi';

/** `GET /asyncapi.json`: the live stream's AsyncAPI document, beside the OpenAPI one (not a part of it). */
@ApiExcludeController()
@Controller()
export class AsyncApiController {
  private readonly document = buildAsyncApi();

  @Get('asyncapi.json')
  @Header('Cache-Control', 'no-cache')
  asyncApi(): object {
    return this.document;
  }
}
