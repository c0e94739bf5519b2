import { Body, Controller, Headers, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Seat } from '@bismarck/rules';
import { NoBodyGuard } from '../../platform/problem/no-body.guard';
import { invalidParameter, ProblemException } from '../../platform/problem/problem';
import { ApiCommand } from '../../platform/http/api-docs';
import { ChooseContractDto, CutDto, DiscardDto, PlayCardDto, SeatPathDto } from './dto/commands.dto';
import { CUT_WORDS } from '../../platform/http/fields';
import { CommandResultDto } from './dto/responses.dto';
import { MatchCommands, type CommandOptions, type CommandResult } from './match-commands.service';
import { CurrentSeat, SeatGuard, SeatRequired } from '../../accounts/seats/seat.guard';

/** The seat commands: the moves, and coming back to the table. Each answers with the new version and the events it appended. */
@ApiTags('commands')
@Controller('api/matches/:id')
@UseGuards(SeatGuard)
export class CommandsController {
  constructor(private readonly commands: MatchCommands) {}

  @Post('cut')
  @HttpCode(200)
  @SeatRequired()
  @ApiOperation({
    operationId: 'cut',
    summary: "Cut the deck before the deal (the seat on the dealer's right; optional)",
    description:
      'Mixes the cutter\'s string into the shuffle of the next deal, after the server has committed to its seed ' +
      '(DeckCommitted): neither the server nor the cutter alone can choose the deck. See docs/fairness.md.',
  })
  @ApiBody({ type: CutDto, examples: { cut: { value: { cut: 'k7Qz-42' } }, unicode: { value: { cut: 'Bjørn 🍀' } } } })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(
    ['VALIDATION_FAILED', `cut must be ${CUT_WORDS}`],
    ['NOT_YOUR_TURN', "seat 2, on the dealer's right, cuts"],
    ['WRONG_PHASE', 'the deck has been cut already'],
  )
  cut(@Param('id') id: string, @CurrentSeat() seat: Seat, @Body() body: CutDto, @Headers() headers: Record<string, string>): Promise<CommandResult> {
    return this.commands.execute(id, seat, { type: 'cut', cut: body.cut }, commandOptions(headers));
  }

  @Post('deal')
  @HttpCode(200)
  @SeatRequired()
  @UseGuards(NoBodyGuard)
  @ApiOperation({
    operationId: 'deal',
    summary: 'Deal the next deal (the dealer)',
    description:
      'The service shuffles (from its committed seed and the cut, docs/fairness.md) and turns four table cards face up ' +
      '(`DealStarted`); the hands follow at once (`HandsDealt`), or after the contract when forehand chooses it blind.',
  })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(
    ['VALIDATION_FAILED', 'If-Match must be a version in quotes, e.g. "12".'],
    ['NOT_YOUR_TURN', 'not your turn: the dealer deals (seat 0)'],
    ['WRONG_PHASE', 'deal is not possible now: forehand has to lay away 4 cards'],
  )
  deal(@Param('id') id: string, @CurrentSeat() seat: Seat, @Headers() headers: Record<string, string>): Promise<CommandResult> {
    return this.commands.execute(id, seat, { type: 'deal' }, commandOptions(headers));
  }

  @Post('contract')
  @HttpCode(200)
  @SeatRequired()
  @ApiOperation({
    operationId: 'chooseContract',
    summary: 'Announce the contract, and the trump suit with `trump` (forehand)',
    description: "The contracts allowed now are the seat view's `legal.contracts`, the suits `legal.trumps` (docs/rules.md §3, §6).",
  })
  @ApiBody({ type: ChooseContractDto, examples: { freeTrump: { value: { contract: 'trump', trump: 'H' } }, pass: { value: { contract: 'pass' } } } })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(
    ['VALIDATION_FAILED', 'contract must be one of the following values: spades, trump, notrump, pass'],
    ['NOT_YOUR_TURN', 'not your turn: forehand announces the contract (seat 1)'],
    ['WRONG_PHASE', 'chooseContract is not possible now: the dealer has to deal'],
    'CONTRACT_ALREADY_PLAYED',
    'CONTRACT_LOCKED',
    'SPADES_NOT_ALLOWED',
  )
  chooseContract(
    @Param('id') id: string,
    @CurrentSeat() seat: Seat,
    @Body() body: ChooseContractDto,
    @Headers() headers: Record<string, string>,
  ): Promise<CommandResult> {
    return this.commands.execute(id, seat, { type: 'chooseContract', contract: body.contract, trump: body.trump ?? null }, commandOptions(headers));
  }

  @Post('discard')
  @HttpCode(200)
  @SeatRequired()
  @ApiOperation({
    operationId: 'discard',
    summary: 'Lay away four cards (forehand, after taking the table cards)',
    description: 'Any four of the 20 cards in hand; nobody else sees them until the deal is scored.',
  })
  @ApiBody({ type: DiscardDto })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(
    ['VALIDATION_FAILED', 'cards: each card must be rank then suit, e.g. QH; cards must contain at least 4 elements'],
    ['NOT_YOUR_TURN', 'not your turn: forehand lays away (seat 1)'],
    ['WRONG_PHASE', 'discard is not possible now: the cards are being played'],
    'CARD_NOT_IN_HAND',
  )
  discard(@Param('id') id: string, @CurrentSeat() seat: Seat, @Body() body: DiscardDto, @Headers() headers: Record<string, string>): Promise<CommandResult> {
    return this.commands.execute(id, seat, { type: 'discard', cards: body.cards }, commandOptions(headers));
  }

  @Post('play')
  @HttpCode(200)
  @SeatRequired()
  @ApiOperation({
    operationId: 'playCard',
    summary: 'Play a card to the trick (the seat to play)',
    description: "One of the seat view's `legal.cards`. The third card of a trick appends `TrickTaken`; the last trick of a deal, `DealScored`.",
  })
  @ApiBody({ type: PlayCardDto })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(
    ['VALIDATION_FAILED', 'card must be rank then suit, e.g. QH'],
    'NOT_YOUR_TURN',
    'WRONG_PHASE',
    'CARD_NOT_IN_HAND',
    'MUST_FOLLOW_SUIT',
    'MUST_TRUMP',
    'DISCARD_FIRST',
  )
  play(@Param('id') id: string, @CurrentSeat() seat: Seat, @Body() body: PlayCardDto, @Headers() headers: Record<string, string>): Promise<CommandResult> {
    return this.commands.execute(id, seat, { type: 'playCard', card: body.card }, commandOptions(headers));
  }

  @Post('seats/:seat/back')
  @HttpCode(200)
  @SeatRequired()
  @UseGuards(NoBodyGuard)
  @ApiOperation({
    operationId: 'backToTable',
    summary: 'Come back to the table after being away (turn clocks)',
    description:
      'A seat that let its clock run out twice in a row is away: a stand-in bot plays its turns at once. This appends ' +
      '`SeatReturned` and the seat plays its own turns again, its clock running. Any move of the seat does the same. ' +
      'The token must be that seat\'s.',
  })
  @ApiOkResponse({ type: CommandResultDto })
  @ApiCommand(['FORBIDDEN', 'This token acts for seat 0, not seat 1.'], 'SEAT_NOT_AWAY')
  back(@Param() params: SeatPathDto, @CurrentSeat() seat: Seat, @Headers() headers: Record<string, string>): Promise<CommandResult> {
    if (params.seat !== seat) throw new ProblemException('FORBIDDEN', `This token acts for seat ${seat}, not seat ${params.seat}.`);
    return this.commands.execute(params.id, seat, { type: 'returnToSeat' }, commandOptions(headers));
  }
}

/** `If-Match: "12"` (or `"12-010"`) and `Idempotency-Key`, checked here so a bad header changes nothing. */
function commandOptions(headers: Record<string, string | undefined>): CommandOptions {
  const options: { expectedVersion?: number; idempotencyKey?: string } = {};
  const ifMatch = headers['if-match'];
  // `*`: any version of a match that exists (RFC 9110 §13.1.1), the same as no If-Match here.
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    // A GET's ETag as it is: the version, maybe with the presence it showed (`"12-010"`, not compared).
    const m = /^\s*(?:W\/)?"?(\d{1,9})(?:-[01]{3})?"?\s*$/.exec(ifMatch);
    if (!m) throw invalidParameter('If-Match', 'If-Match must be a version in quotes, e.g. "12".');
    options.expectedVersion = Number(m[1]);
  }
  const key = headers['idempotency-key'];
  if (key !== undefined) {
    if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
      throw invalidParameter('Idempotency-Key', 'Idempotency-Key must be 1 to 200 visible ASCII characters.');
    }
    options.idempotencyKey = key;
  }
  return options;
}
