import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ operationId: 'getMetrics', summary: 'Prometheus metrics', description: 'Commands by type and outcome, with a latency histogram.' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format.', schema: { type: 'string', example: 'bismarck_commands_total{type="playCard",outcome="accepted"} 42' } })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
