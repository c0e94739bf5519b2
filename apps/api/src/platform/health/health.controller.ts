import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EventStore } from '@bismarck/event-store';
import { ApiProblems } from '../http/api-docs';
import { ProblemException } from '../problem/problem';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly store: EventStore) {}

  @Get()
  @ApiOperation({
    operationId: 'checkHealth',
    summary: 'Readiness: the database answers and, on a real server, this instance hears the others\' appends (LISTEN)',
    description: 'For load balancers and orchestrators: 200 when this instance can serve, 503 (problem+json) when it cannot.',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'database'],
      properties: { status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] } },
    },
  })
  // The database does not answer, or the LISTEN connection is down.
  @ApiProblems('SERVICE_UNAVAILABLE')
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    try {
      await this.store.ping();
    } catch {
      throw new ProblemException('SERVICE_UNAVAILABLE', 'The database does not answer.');
    }
    if (!(await this.store.notificationsUp())) {
      throw new ProblemException('SERVICE_UNAVAILABLE', 'Not yet listening for the events other instances append.');
    }
    return { status: 'ok', database: 'up' };
  }
}
