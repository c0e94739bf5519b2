import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ProblemException } from '../problem/problem';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly db: DataSource) {}

  @Get()
  @ApiOperation({ summary: 'Liveness and database check' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' }, database: { type: 'string', example: 'up' } } } })
  @ApiServiceUnavailableResponse({ description: 'The database does not answer (problem+json, code SERVICE_UNAVAILABLE).' })
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    try {
      await this.db.query('SELECT 1');
    } catch {
      throw new ProblemException('SERVICE_UNAVAILABLE', 'The database does not answer.');
    }
    return { status: 'ok', database: 'up' };
  }
}
