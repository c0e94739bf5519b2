import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import { CONTRACTS, EVENT_TYPES, type BismarckEvent, type EventType } from '@bismarck/rules';
import { ApiOneOf } from '../../../platform/http/api-docs';
import { MatchOptionsViewDto } from './match-options.dto';
import { card, CARD_PATTERN, cards, integer, MAX_VERSION, PLAYER_ID, playerNames, seat, seats, sha256, SUITS, triple } from '../../../platform/http/fields';

// The event catalogue (docs/clients.md), one schema per type: `data` is told apart by `type`, so a
// generated client narrows it in a switch. The sync with libs/rules is tested in
// test/openapi-events.e2e-spec.ts. What the caller may not see is null (docs/rules.md §7).

const DEAL = integer('The deal this event belongs to, 1-based (a redeal keeps the number).', { minimum: 1, example: 1 });
const CONTRACT = { enum: [...CONTRACTS], example: 'trump' } as const;
const TRUMP = { enum: [...SUITS], nullable: true, example: 'H' } as const;
const COMMITMENT = sha256('SHA-256 of the secret seed of the deck, as lowercase hex (docs/fairness.md).');

@ApiSchema({ description: 'Where a fork starts: a finished match and the version of its log (POST /api/matches/{id}/fork).' })
export class ForkedFromDto {
  @ApiProperty({ format: 'uuid', example: '6cc03a75-fc0a-4a44-9953-ff256c06fc3f', description: 'The finished match.' }) readonly matchId!: string;
  @ApiProperty(integer('The version of its log the fork starts at (0: as the match started).', { minimum: 0, maximum: MAX_VERSION, example: 57 }))
  readonly version!: number;
}

@ApiSchema({ description: 'A match was created (the first event).' })
export class MatchCreatedDataDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a', description: 'The match id.' })
  readonly matchId!: string;
  @ApiProperty(playerNames('The names of seats 0, 1 and 2; null is an open seat (a lobby table).')) readonly players!: (string | null)[];
  @ApiProperty({ type: MatchOptionsViewDto, description: 'Every option of the match, defaults filled in.' }) readonly options!: MatchOptionsViewDto;
  @ApiProperty(seat('The dealer of the first deal.')) readonly firstDealer!: number;
  @ApiProperty({ description: 'True when created with a seed: reproducible, not provably fair.' }) readonly seeded!: boolean;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', nullable: true },
    minItems: 3,
    maxItems: 3,
    example: [null, 'greedy', 'random'],
    description: 'Only when some seat is a bot: per seat the strategy the service plays it with, null for a person or an open seat.',
  })
  readonly bots?: (string | null)[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', nullable: true, pattern: PLAYER_ID.pattern },
    minItems: 3,
    maxItems: 3,
    example: ['pl-6f1c2f0e-8a8e-4a53-9d4e-2b0f3c1d5e7a', null, null],
    description: 'Only when some seat is bound to a player account (docs/players.md): per seat its player id, else null.',
  })
  readonly accounts?: (string | null)[];
  @ApiPropertyOptional({ type: ForkedFromDto, description: 'Only in a fork (always seeded): the finished match and the version it starts from.' })
  readonly forkedFrom?: ForkedFromDto;
  @ApiPropertyOptional({
    format: 'uuid',
    example: '6cc03a75-fc0a-4a44-9953-ff256c06fc3f',
    description: 'Only in a rematch (POST /api/matches/{id}/rematch): the finished match it follows, whose `RematchOffered` names this one.',
  })
  readonly rematchOf?: string;
}

@ApiSchema({ description: 'An open seat was taken; the join that takes the last one starts the match.' })
export class SeatJoinedDataDto {
  @ApiProperty(seat('The seat taken.')) readonly seat!: number;
  @ApiProperty({ example: 'Bjørn', description: 'The name of its player.' }) readonly name!: string;
  @ApiPropertyOptional({ example: 'greedy', description: 'Only for a bot: the strategy the service plays the seat with.' }) readonly bot?: string;
  @ApiPropertyOptional({ ...PLAYER_ID, description: 'Only for a person who joined with a player token: the player account the seat is bound to.' }) readonly account?: string;
}

@ApiSchema({ description: 'A lobby table nobody filled within LOBBY_TTL_MS was closed (status `abandoned`).' })
export class TableAbandonedDataDto {
  @ApiProperty(seats('The seats still open when it was closed.', { example: [1, 2] })) readonly openSeats!: number[];
}

@ApiSchema({ description: "The server's commitment to the next deck, before anyone cuts or sees a card." })
export class DeckCommittedDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(COMMITMENT) readonly commitment!: string;
}

@ApiSchema({ description: "The cutter's string, mixed into the shuffle of the next deck." })
export class DeckCutDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat("The seat that cut (on the dealer's right).")) readonly seat!: number;
  @ApiProperty({ example: 'k7Qz-42', description: 'The cut in its NFC form, as mixed into the shuffle: 1 to 64 printable characters (docs/fairness.md).' }) readonly cut!: string;
}

@ApiSchema({ description: "Where a fork's deck comes from: the original match's `DealStarted` of the same deal and attempt." })
export class CopiedDeckDto {
  @ApiProperty({ format: 'uuid', example: '6cc03a75-fc0a-4a44-9953-ff256c06fc3f', description: 'The match forked from.' }) readonly matchId!: string;
  @ApiProperty(integer('The version of its `DealStarted` that holds this deck.', { minimum: 1, maximum: MAX_VERSION, example: 61 })) readonly version!: number;
}

@ApiSchema({ description: 'How the deck was made, as the service recorded it (docs/fairness.md).' })
export class ShuffleDto {
  @ApiPropertyOptional({ example: 'bismarck-shuffle-v1', description: 'The shuffle algorithm.' }) readonly algorithm?: string;
  @ApiPropertyOptional(integer('The deck index: the stream version this deal starts at.', { minimum: 1, example: 3 }))
  readonly index?: number;
  @ApiPropertyOptional({ description: "True when shuffled from the match's seed (a seeded match)." }) readonly seeded?: boolean;
  @ApiPropertyOptional({ ...sha256('The commitment whose seed made this deck; null when the seed was lost or never committed, absent in a seeded match.'), nullable: true })
  readonly commitment?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'k7Qz-42', description: 'The cut mixed in; null when nobody cut. (A deck copied by a fork is the original\'s whatever the cut.)' })
  readonly cut?: string | null;
  @ApiPropertyOptional({
    type: CopiedDeckDto,
    description: "Only in a fork: the deck is the one of the original match's `DealStarted` at that version (the same deal and attempt), not shuffled here.",
  })
  readonly copiedFrom?: CopiedDeckDto;
}

@ApiSchema({ description: 'A deal began: the four table cards are turned face up.' })
export class DealStartedDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat('The dealer.')) readonly dealer!: number;
  @ApiProperty(seat("Forehand: the seat on the dealer's left, who announces, lays away and leads.")) readonly forehand!: number;
  @ApiProperty(cards('The whole deck, top card first; null until the deal is scored.', { nullable: true, minItems: 52, maxItems: 52 }))
  readonly deck!: string[] | null;
  @ApiProperty(cards('The four cards turned face up.', { minItems: 4, maxItems: 4, example: ['AS', 'TH', '2C', '9D'] })) readonly tableCards!: string[];
  @ApiProperty({ ...CONTRACT, nullable: true, description: 'Set here when the schedule (or a voided deal) fixes it; else null, and chosen later.' })
  readonly contract!: string | null;
  @ApiProperty({ ...TRUMP, description: 'The trump suit when already fixed, else null.' }) readonly trump!: string | null;
  @ApiPropertyOptional({ type: ShuffleDto, description: 'How the deck was made.' }) readonly shuffle?: ShuffleDto;
}

@ApiSchema({ description: 'Forehand announced the contract.' })
export class ContractChosenDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat('Forehand, who announced it.')) readonly seat!: number;
  @ApiProperty({ ...CONTRACT, description: 'The contract.' }) readonly contract!: string;
  @ApiProperty({ ...TRUMP, description: 'The named suit with `trump`, spades with `spades`, null otherwise.' }) readonly trump!: string | null;
}

@ApiSchema({ description: 'The hands were dealt, 16 cards to each seat.' })
export class HandsDealtDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', nullable: true, items: { type: 'string', pattern: CARD_PATTERN }, minItems: 16, maxItems: 16 },
    minItems: 3,
    maxItems: 3,
    example: [null, ['AS', 'KS', 'QS', 'JS', 'TS', '9S', '8S', '7S', '6S', '5S', '4S', '3S', '2S', 'AH', 'KH', 'QH'], null],
    description: "Each seat's hand, seat 0 first. A seat sees only its own; the others (all, for a spectator) are null until the deal is scored.",
  })
  readonly hands!: (string[] | null)[];
}

@ApiSchema({ description: 'Forehand laid away four cards.' })
export class CardsLaidAwayDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat('Forehand.')) readonly seat!: number;
  @ApiProperty(cards('The four cards; null for everyone but forehand until the deal is scored.', { nullable: true, minItems: 4, maxItems: 4, example: ['2C', '3C', '4D', '7H'] }))
  readonly cards!: string[] | null;
}

@ApiSchema({ description: 'A card was played to the trick.' })
export class CardPlayedDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(integer('The trick, 1 to 16.', { minimum: 1, maximum: 16, example: 1 })) readonly trick!: number;
  @ApiProperty(seat('The seat that played.')) readonly seat!: number;
  @ApiProperty(card('The card played.')) readonly card!: string;
}

export class PlayedCardDto {
  @ApiProperty(seat('The seat that played it.')) readonly seat!: number;
  @ApiProperty(card('The card.')) readonly card!: string;
}

@ApiSchema({ description: 'The third card fell: a seat took the trick.' })
export class TrickTakenDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(integer('The trick, 1 to 16.', { minimum: 1, maximum: 16, example: 1 })) readonly trick!: number;
  @ApiProperty(seat('The seat that took it (and leads the next).')) readonly winner!: number;
  @ApiProperty({ type: [PlayedCardDto], minItems: 3, maxItems: 3, description: 'The three cards in the order played.' }) readonly cards!: PlayedCardDto[];
}

@ApiSchema({ description: 'Forehand led before laying away under `leadBeforeDiscard: redeal`: no score, the same dealer deals again.' })
export class DealVoidedDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat('Forehand, who led.')) readonly seat!: number;
  @ApiProperty(card('The card led.')) readonly card!: string;
  @ApiProperty({ enum: ['leadBeforeDiscard'], description: 'Why the deal is void.' }) readonly reason!: 'leadBeforeDiscard';
}

@ApiSchema({ description: 'The 16th trick was taken: the deal is scored, and nothing of it is secret any more.' })
export class DealScoredDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(seat('Forehand of the deal.')) readonly forehand!: number;
  @ApiProperty({ ...CONTRACT, description: 'The contract played.' }) readonly contract!: string;
  @ApiProperty({ ...TRUMP, description: 'The trump suit, or null.' }) readonly trump!: string | null;
  @ApiProperty(triple('Tricks taken per seat.', [11, 3, 2])) readonly tricks!: number[];
  @ApiProperty(triple('Quota per seat (docs/rules.md §3).', [8, 4, 4])) readonly quotas!: number[];
  @ApiProperty(triple('Points scored in this deal per seat.', [3, -1, -2])) readonly points!: number[];
  @ApiProperty(triple('Match totals per seat after this deal.', [3, -1, -2])) readonly totals!: number[];
}

@ApiSchema({ description: 'The seed behind a commitment, revealed after the deal is scored: anyone can recompute the deck.' })
export class SeedRevealedDataDto {
  @ApiProperty(DEAL) readonly deal!: number;
  @ApiProperty(COMMITMENT) readonly commitment!: string;
  @ApiProperty({ example: '4f1c…', description: 'The secret seed, now public.' }) readonly seed!: string;
}

@ApiSchema({ description: 'The last deal was scored: the match is over.' })
export class MatchFinishedDataDto {
  @ApiProperty(triple('Final totals per seat.', [5, -2, -3])) readonly totals!: number[];
  @ApiProperty(seats('Every seat with the highest total.', { example: [0] })) readonly winners!: number[];
}

@ApiSchema({ description: 'The seat to act let its turn clock run out: a stand-in bot makes this decision for it (the events of that move carry `standIn: true`). The second in a row makes the seat away.' })
export class TurnTimedOutDataDto {
  @ApiProperty(seat('The seat whose time ran out.')) readonly seat!: number;
  @ApiProperty({ format: 'date-time', description: 'The deadline it missed: when its turn began plus `clock.turnSeconds`.' }) readonly deadline!: string;
}

@ApiSchema({ description: 'A seat that was away is back: it acted itself, or said so (POST /api/matches/{id}/seats/{seat}/back).' })
export class SeatReturnedDataDto {
  @ApiProperty(seat('The seat back at the table.')) readonly seat!: number;
}

@ApiSchema({ description: 'After `MatchFinished`, at most once: a seat asked for the next match (same players, bots and options; dealer rotated).' })
export class RematchOfferedDataDto {
  @ApiProperty({
    format: 'uuid',
    example: '2f9d7a10-3c4b-4e5f-8a6b-7c8d9e0f1a2b',
    description: "The rematch's id: each person of this match acts there with the seat token they hold here (docs/clients.md, \"Rematch\").",
  })
  readonly matchId!: string;
  @ApiProperty(seat('The seat that asked.')) readonly seat!: number;
}

const DATA = {
  MatchCreated: MatchCreatedDataDto,
  SeatJoined: SeatJoinedDataDto,
  TableAbandoned: TableAbandonedDataDto,
  DeckCommitted: DeckCommittedDataDto,
  DeckCut: DeckCutDataDto,
  DealStarted: DealStartedDataDto,
  ContractChosen: ContractChosenDataDto,
  HandsDealt: HandsDealtDataDto,
  CardsLaidAway: CardsLaidAwayDataDto,
  CardPlayed: CardPlayedDataDto,
  TrickTaken: TrickTakenDataDto,
  DealVoided: DealVoidedDataDto,
  DealScored: DealScoredDataDto,
  SeedRevealed: SeedRevealedDataDto,
  MatchFinished: MatchFinishedDataDto,
  TurnTimedOut: TurnTimedOutDataDto,
  SeatReturned: SeatReturnedDataDto,
  RematchOffered: RematchOfferedDataDto,
} satisfies Record<EventType, Type>;

/**
 * What every event carries beside `type` and `data`, as the log, the command answers and the live stream
 * show it. Each per-type schema (`CardPlayedEventDto`, …) carries it too, so a client that decodes an event
 * with its type's class, as docs/clients.md advises, keeps its version, time, hash and stand-in mark.
 */
class EventEnvelopeDto {
  @ApiProperty(integer('Its version: its place in the match\'s log, from 1, with no gap.', { minimum: 1, maximum: MAX_VERSION, example: 7 }))
  readonly version!: number;
  @ApiProperty({ format: 'date-time', description: 'When it was appended.' }) readonly at!: string;
  @ApiPropertyOptional(
    sha256(
      "The log's SHA-256 chain at this event. Present only on events up to the match's checkpoint (nothing secret up to there): keep the newest one to pin the chain (docs/fairness.md §9).",
    ),
  )
  readonly hash?: string;
  @ApiPropertyOptional({ enum: [true], description: 'Only on the events of a move a stand-in bot made for a seat that timed out or is away (docs/clients.md, "Turn clocks").' })
  readonly standIn?: true;
}

/** What the export keeps of every event beside `type` and `data` (`ExportedEventDto` in replay/replay.dto.ts says the same). */
class ExportedEventEnvelopeDto {
  @ApiProperty(integer('Its version, from 1, with no gap.', { minimum: 1, maximum: MAX_VERSION, example: 7 })) readonly version!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { at: '2026-11-29T15:28:31.220Z' }, description: 'What the service recorded beside the event.' })
  readonly metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', description: 'When it was appended.' }) readonly recordedAt!: string;
  @ApiProperty({ pattern: '^[0-9]+$', example: '1795966111220000', description: 'Microseconds since the epoch, as hashed.' }) readonly recordedAtMicros!: string;
  @ApiProperty(sha256('SHA-256 over the previous hash and this event (docs/fairness.md).')) readonly hash!: string;
}

/** One event type's whole schema: the envelope, `type` (this one only) and the `data` its type decides. */
function typedEvent<T extends EventType>(type: T, envelope: Type, name: string, what: string): Type {
  @ApiSchema({ name, description: `A \`${type}\` event${what}.` })
  class TypedEvent extends envelope {
    @ApiProperty({ enum: [type], description: 'The event type.' }) readonly type!: T;
    @ApiProperty({ type: DATA[type], description: 'What happened.' }) readonly data!: Extract<BismarckEvent, { type: T }>['data'];
  }
  return TypedEvent;
}

/** Every event type with its schema (`CardPlayedEventDto`, …: the whole event), in the catalogue's order. */
export const EVENTS_BY_TYPE = Object.fromEntries(EVENT_TYPES.map((t) => [t, typedEvent(t, EventEnvelopeDto, `${t}EventDto`, '')])) as Record<EventType, Type>;

/** Every event type with its schema as the export keeps it (`CardPlayedExportedEventDto`, …), for `ExportedEventDto`. */
export const TYPED_EVENTS = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, typedEvent(t, ExportedEventEnvelopeDto, `${t}ExportedEventDto`, ' as the export keeps it (GET /api/matches/{id}/export)')]),
) as Record<EventType, Type>;

/** An event as responses show it; `type` tells which `data` it carries. */
@ApiOneOf('type', EVENTS_BY_TYPE)
export class EventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: EVENT_TYPES, example: 'CardPlayed', description: 'The event type (docs/clients.md, "Event catalogue").' }) readonly type!: EventType;
}
