import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';
import { IsPlayerName, IsSeatNames, PLAYER_NAME_SCHEMA, type AccountEntry, type BotEntry } from '../../../accounts/names/seat-names.validator';

type SeatEntry = string | BotEntry | AccountEntry | null;
import { NAME_WORDS, PLAYER_ID, SEED_TEXT } from '../../../platform/http/fields';
import { MatchOptionsDto } from './match-options.dto';

/** A seat the service plays (a `players` entry at creation, or the body of `POST …/seats/{seat}/bot`). */
export class BotSeatDto {
  @ApiProperty({ enum: STRATEGIES, example: 'greedy', description: 'The strategy the service plays this seat with (docs/bots.md).' })
  @IsIn(STRATEGIES, { message: `bot must be one of the following values: ${STRATEGIES.join(', ')}` })
  readonly bot!: StrategyName;

  @ApiPropertyOptional({ ...PLAYER_NAME_SCHEMA, example: 'Otto', description: 'The name shown for the seat; default: the strategy, e.g. `Greedy bot`.' })
  @IsOptional()
  @IsPlayerName()
  readonly name?: string;
}

/** A seat bound to the caller's own player account (the request carries that player's token). */
export class AccountSeatDto {
  @ApiProperty({ ...PLAYER_ID, description: "The caller's own player id: the request must carry that player's token (another player's id is 403)." })
  readonly player!: string;
}

@ApiExtraModels(BotSeatDto, AccountSeatDto)
export class CreateMatchDto {
  @ApiProperty({
    type: 'array',
    items: { anyOf: [{ ...PLAYER_NAME_SCHEMA, nullable: true }, { $ref: getSchemaPath(BotSeatDto) }, { $ref: getSchemaPath(AccountSeatDto) }] },
    minItems: 3,
    maxItems: 3,
    example: ['Astrid', 'Bjørn', 'Cecilia'],
    description:
      'Seats 0, 1, 2: a name (a person, who gets the seat\'s token), `{ "bot": "greedy" }` (the service plays the seat; ' +
      'no token), or `null`, which leaves a seat open (a lobby table, status `waiting`): others take it with ' +
      '`POST /api/matches/{id}/seats/{seat}/join` (or give it to a bot with `…/bot`), and the match starts when all three ' +
      `seats are taken. A name is ${NAME_WORDS}. \`{ "player": "pl-…" }\` binds the seat to the ` +
      "caller's own player account (docs/players.md): the request then carries that player's token, the seat is named after the account, " +
      "and the player's token acts for it from any device (the seat's own token is given too).",
  })
  @IsSeatNames()
  readonly players!: [SeatEntry, SeatEntry, SeatEntry];

  @ApiPropertyOptional({ type: MatchOptionsDto, example: { schedule: 'modern' }, description: 'The match options (docs/rules.md §8); each one left out takes its default.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => MatchOptionsDto)
  readonly options?: MatchOptionsDto;

  @ApiPropertyOptional({
    ...SEED_TEXT.schema,
    example: 'club-night-42',
    description:
      'Makes every deal reproducible (a sandbox or test match, marked as seeded and not provably fair). ' +
      'A seeded match takes no strangers: with an open seat it is refused (400 SEED_WITH_OPEN_SEATS).',
  })
  // Left out: no seed. `null` is not "no seed" but a value that is no text (IsOptional would let it
  // through to the first dealer's HMAC, a 500): refused like any other, at /seed.
  @ValidateIf((_, value) => value !== undefined)
  @ValidateBy({ name: 'isSeed', validator: { validate: SEED_TEXT.test, defaultMessage: () => 'seed must be 1 to 128 characters of printable text (no control characters, no lone UTF-16 surrogates)' } })
  readonly seed?: string;
}
