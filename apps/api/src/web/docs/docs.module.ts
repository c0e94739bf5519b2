import { Module } from '@nestjs/common';
import { AsyncApiController } from './asyncapi.controller';

/** Documents served beside the OpenAPI one (which bootstrap mounts at /docs): the live stream's AsyncAPI. */
@Module({ controllers: [AsyncApiController] })
export class DocsModule {}
