import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { isPlayerId } from '@bismarck/players';
import { ApiProblems } from '../../platform/http/api-docs';
import { NoBodyGuard } from '../../platform/problem/no-body.guard';
import { ProblemException } from '../../platform/problem/problem';
import { CurrentPlayer, PlayerGuard } from './player.guard';
import { CreatePlayerDto, PLAYER_ID, PlayerCreatedDto, PlayerMatchesQueryDto, PlayerMatchListDto, PlayerProfileDto, PlayerTokenDto, RenamePlayerDto } from './players.dto';
import { PageQueryDto } from '../../platform/http/page-query.dto';
import { PlayerAccounts, type NewToken, type PlayerCreated } from './player-accounts.service';
import { PlayerQueries, type PlayerMatchPage, type PlayerProfile } from './player-queries.service';

const UNAUTHORIZED = ['UNAUTHORIZED', 'Unknown or revoked player token.'] as const;
/** Where the deployment takes its identity provider's JWTs: the provider could not be asked to check one (with `Retry-After`). */
const PROVIDER_AWAY = ['SERVICE_UNAVAILABLE', 'The identity provider cannot be reached to check the token; try again shortly.'] as const;

@ApiTags('players')
@Controller('api/players')
export class PlayersController {
  constructor(
    private readonly accounts: PlayerAccounts,
    private readonly queries: PlayerQueries,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createPlayer',
    summary: 'Register a player: a name, and a personal access token shown only once',
    description:
      'The account is an event stream of its own (`PlayerRegistered`, `TokenIssued`). The token acts as the player on every route that takes ' +
      'a player token; keep it like a password (only its SHA-256 is stored). docs/players.md.',
  })
  @ApiBody({ type: CreatePlayerDto, examples: { astrid: { value: { name: 'Astrid' } } } })
  @ApiCreatedResponse({ type: PlayerCreatedDto })
  @ApiProblems(['VALIDATION_FAILED', 'name must be 1 to 40 printable characters'], 'RATE_LIMITED')
  create(@Body() body: CreatePlayerDto): Promise<PlayerCreated> {
    return this.accounts.register(body.name);
  }

  @Get('me')
  @UseGuards(PlayerGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'getMe',
    summary: "The caller's own profile (by its player token)",
    description: 'The same public profile as `GET /api/players/{playerId}`, found by the token: a client learns whose token it holds.',
  })
  @ApiOkResponse({ type: PlayerProfileDto })
  @ApiProblems(UNAUTHORIZED, PROVIDER_AWAY)
  me(@CurrentPlayer() id: string): Promise<PlayerProfile> {
    return this.queries.profile(id);
  }

  @Patch('me')
  @UseGuards(PlayerGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'renameMe',
    summary: 'Change the name shown for the player',
    description:
      'Appends `PlayerRenamed` to the player\'s stream; the same name again appends nothing. Tables the player sat at keep the name they were played with. ' +
      'Decided after the account\'s deletion (a request racing it), 401 as every later request with its credentials.',
  })
  @ApiBody({ type: RenamePlayerDto, examples: { rename: { value: { name: 'Åsa' } } } })
  @ApiOkResponse({ type: PlayerProfileDto })
  @ApiProblems(['VALIDATION_FAILED', 'name must be 1 to 40 printable characters'], UNAUTHORIZED, 'CONCURRENT_UPDATE', PROVIDER_AWAY)
  async rename(@CurrentPlayer() id: string, @Body() body: RenamePlayerDto): Promise<PlayerProfile> {
    await this.accounts.rename(id, body.name);
    return this.queries.profile(id);
  }

  @Delete('me')
  @HttpCode(204)
  @UseGuards(PlayerGuard, NoBodyGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'deleteMe',
    summary: 'Delete the account: every token stops working, and the name is shown as "deleted player"',
    description:
      'Appends `PlayerDeleted` to the player\'s own stream; the log is not rewritten (match events name the player by id only). ' +
      'Its credentials are refused from then on (401): so is a second deletion sent at the same time, and any request of the account decided after it.',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(UNAUTHORIZED, 'CONCURRENT_UPDATE', PROVIDER_AWAY)
  async remove(@CurrentPlayer() id: string): Promise<void> {
    await this.accounts.delete(id);
  }

  @Get('me/matches')
  @UseGuards(PlayerGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'getMyMatches',
    summary: "The caller's matches: those where it is the player's turn first, then the latest moved",
    description:
      'Every match with a seat bound to the player (created with `{ "player": … }` or joined with the player token), from any device. ' +
      "The player's token acts for those seats on every match route (`/view`, the commands, the live stream). One page at a time: pass `nextCursor` as `cursor`.",
  })
  @ApiOkResponse({ type: PlayerMatchListDto })
  @ApiProblems(UNAUTHORIZED, ['VALIDATION_FAILED', 'status must be one of the following values: playing, finished'], PROVIDER_AWAY)
  myMatches(@CurrentPlayer() id: string, @Query() query: PlayerMatchesQueryDto): Promise<PlayerMatchPage> {
    return this.queries.matches(id, query.status, query.limit ?? 20, query.cursor);
  }

  @Post('me/tokens')
  @UseGuards(PlayerGuard, NoBodyGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'createToken',
    summary: 'Another token for the same player (a second device or client), shown only once',
    description:
      'Appends `TokenIssued { tokenId }` (the log never holds a token or its hash). A player holds at most 20 tokens at once. ' +
      'Decided after the account\'s deletion (a request racing it), 401 as every later request with its credentials.',
  })
  @ApiCreatedResponse({ type: PlayerTokenDto })
  @ApiProblems(UNAUTHORIZED, ['TOO_MANY_TOKENS', 'a player holds at most 20 tokens: revoke one first'], 'CONCURRENT_UPDATE', PROVIDER_AWAY)
  issueToken(@CurrentPlayer() id: string): Promise<NewToken> {
    return this.accounts.issueToken(id);
  }

  @Delete('me/tokens/:tokenId')
  @HttpCode(204)
  @UseGuards(PlayerGuard, NoBodyGuard)
  @ApiBearerAuth('player')
  @ApiOperation({
    operationId: 'revokeToken',
    summary: 'Revoke one of the player\'s tokens: it answers 401 from the moment this answers, on every instance',
    description: 'Appends `TokenRevoked`; the token\'s hash is removed in the same transaction. A token may revoke itself.',
  })
  @ApiParam({ name: 'tokenId', schema: { type: 'string', pattern: '^tok_[A-Za-z0-9_-]{12}$' }, description: 'The id given with the token.' })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiProblems(UNAUTHORIZED, ['TOKEN_NOT_FOUND', 'this player has no such token'], 'CONCURRENT_UPDATE', PROVIDER_AWAY)
  async revokeToken(@CurrentPlayer() id: string, @Param('tokenId') tokenId: string): Promise<void> {
    if (!/^tok_[A-Za-z0-9_-]{12}$/.test(tokenId)) throw new ProblemException('TOKEN_NOT_FOUND', 'this player has no such token');
    await this.accounts.revokeToken(id, tokenId);
  }

  @Get(':playerId')
  @ApiOperation({
    operationId: 'getPlayer',
    summary: "A player's public profile (no tokens)",
    description: 'Anyone may read it. A deleted account answers with the name "deleted player" and `deleted: true`.',
  })
  @ApiParam({ name: 'playerId', schema: { type: 'string', pattern: PLAYER_ID.pattern }, description: PLAYER_ID.description })
  @ApiOkResponse({ type: PlayerProfileDto })
  @ApiProblems(['PLAYER_NOT_FOUND', 'There is no player pl-6f1c2f0e-8a8e-4a53-9d4e-2b0f3c1d5e7a.'])
  player(@Param('playerId') playerId: string): Promise<PlayerProfile> {
    return this.queries.profile(knownShape(playerId));
  }

  @Get(':playerId/matches')
  @ApiOperation({
    operationId: 'getPlayerMatches',
    summary: "A player's finished matches (public), the latest first",
    description: 'The same items as `GET /api/players/me/matches?status=finished`, for anyone: what a finished match shows is public.',
  })
  @ApiParam({ name: 'playerId', schema: { type: 'string', pattern: PLAYER_ID.pattern }, description: PLAYER_ID.description })
  @ApiOkResponse({ type: PlayerMatchListDto })
  @ApiProblems(['PLAYER_NOT_FOUND', 'There is no player pl-6f1c2f0e-8a8e-4a53-9d4e-2b0f3c1d5e7a.'], ['VALIDATION_FAILED', 'cursor is not one this service handed out.'])
  playerMatches(@Param('playerId') playerId: string, @Query() query: PageQueryDto): Promise<PlayerMatchPage> {
    return this.queries.matches(knownShape(playerId), 'finished', query.limit ?? 20, query.cursor);
  }
}

/** A path's player id, or 404 before any SQL. */
function knownShape(playerId: string): string {
  if (!isPlayerId(playerId)) throw new ProblemException('PLAYER_NOT_FOUND', `There is no player ${JSON.stringify(playerId).slice(0, 60)}.`);
  return playerId;
}
