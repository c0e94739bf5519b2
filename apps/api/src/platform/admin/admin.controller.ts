import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../http/api-docs';
import { AdminGuard } from './admin.guard';
import { RebuildService, type RebuildReport } from './rebuild.service';

@ApiTags('admin')
@ApiBearerAuth('admin')
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(private readonly rebuilds: RebuildService) {}

  @Post('rebuild')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rebuildProjections',
    summary: 'Rebuild every projection from the event log',
    description:
      'Replays the whole log in commit order into fresh tables, compares them with the live ones row for row, then makes them live. ' +
      'Enabled only when ADMIN_TOKEN is set.',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      example: {
        events: 7412,
        matches: 12,
        checkpoint: { txId: '1043', position: '7412' },
        ms: 850,
        differences: [{ table: 'match_list', onlyLive: 0, onlyRebuilt: 0 }],
      },
    },
  })
  @ApiProblems(
    ['UNAUTHORIZED', 'Send the admin token as "Authorization: Bearer <token>".'],
    ['FORBIDDEN', 'Wrong admin token.'],
    ['NOT_FOUND', 'Admin routes are off: set ADMIN_TOKEN to enable them.'],
  )
  rebuild(): Promise<RebuildReport> {
    return this.rebuilds.rebuild();
  }
}
