import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../platform/http/api-docs';
import { PageQueryDto } from '../../platform/http/page-query.dto';
import { RatingListDto } from './ratings.dto';
import { RatingsService, type RatingPage } from './ratings.service';

@ApiTags('players')
@Controller('api/ratings')
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listRatings',
    summary: 'The ratings list: players and bot kinds, best ordinal first',
    description:
      'A finished match is rated when every seat is a registered player or a bot and it is neither seeded nor a fork: OpenSkill (Plackett–Luce) on the final totals, ties sharing a rank, applied in the commit order of the matches\' ends. Each bot kind is an identity of its own (`bot:strong`, …). The list follows the log a moment behind (a projection).',
  })
  @ApiOkResponse({ type: RatingListDto })
  @ApiProblems(['VALIDATION_FAILED', 'cursor is not one this service handed out.'])
  list(@Query() query: PageQueryDto): Promise<RatingPage> {
    return this.ratings.list(query.limit ?? 20, query.cursor);
  }
}
