import type { ApiPropertyOptions } from '@nestjs/swagger';
import { CUT_MAX_LENGTH, CUT_PATTERN, CUT_RULE, MAX_MARKS_IN_A_ROW, NO_HIDDEN_TEXT } from '@bismarck/rules';

// Schema pieces the DTOs share, written out as plain OpenAPI so the document says exactly this
// (integers are `integer`, every card array says what a card is).

/** A card: rank 2-9 T J Q K A, then suit S H D C. */
export const CARD_PATTERN = '^[2-9TJQKA][SHDC]$';
export const CARD_REGEX = new RegExp(CARD_PATTERN);
const CARD_ITEM = { type: 'string', pattern: CARD_PATTERN } as const;

export const SUITS = ['S', 'H', 'D', 'C'] as const;

/**
 * Text a person typed (a name, a seed), stated in the document exactly as the service checks it: a
 * length in characters (code points, as JSON Schema's `maxLength` counts them) and a pattern the service
 * itself tests with (in ECMAScript's `u` mode, as JSON Schema validators do), written with `\uXXXX` ranges
 * and, beyond U+FFFF, single characters, never `\p{…}` classes nor ranges there (libs/rules/src/printable.ts
 * says why: every engine reads them so, Spectral's and Python's included).
 * Besides, the text must be well-formed Unicode: a lone UTF-16 surrogate is no character, PostgreSQL
 * refuses to store it, and no pattern can say so alike in every engine.
 */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f';
// The invisible format characters of the Basic Multilingual Plane (Unicode's Cf there: soft hyphen,
// bidirectional controls, zero-width ones, BOM), and the line and paragraph separators.
const INVISIBLE = '\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890-\\u0891\\u08e2\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';

export interface TextRule {
  readonly schema: { readonly type: 'string'; readonly minLength: number; readonly maxLength: number; readonly pattern: string };
  readonly test: (value: unknown) => value is string;
}

function textRule(maxLength: number, pattern: string): TextRule {
  const regex = new RegExp(pattern, 'u');
  return {
    schema: { type: 'string', minLength: 1, maxLength, pattern },
    // The length first: the pattern then reads at most maxLength code points.
    test: (value: unknown): value is string => typeof value === 'string' && [...value].length <= maxLength && !/\p{Cs}/u.test(value) && regex.test(value),
  };
}

/**
 * A player's name: 1 to 40 characters, not only spaces; no control, invisible format (beyond the BMP too: tags,
 * …), noncharacter beyond the BMP or separator character; at most MAX_MARKS_IN_A_ROW combining marks in a row
 * (no text hidden in a stack of marks).
 */
export const PLAYER_NAME = textRule(40, `^${NO_HIDDEN_TEXT}[^${CONTROL}${INVISIBLE}]*[^\\s${CONTROL}${INVISIBLE}][^${CONTROL}${INVISIBLE}]*$`);

/** A name's rule in words, for the descriptions. */
export const NAME_WORDS = `1 to 40 printable characters, not only spaces, at most ${MAX_MARKS_IN_A_ROW} combining marks in a row`;

/** The rule of a cut (libs/rules `normalCut`), as the answers and the document word it. */
export const CUT_WORDS = CUT_RULE;

/**
 * The cut in the document: the pattern libs/rules tests the cut's NFC form with (CUT_PATTERN: in the BMP
 * Unicode's letters, marks, numbers, punctuation, symbols and the space, beyond it all but the format
 * characters and noncharacters; not only spaces, at most MAX_MARKS_IN_A_ROW marks in a row) and its length. A client tests the text as it sends it; the service tests its NFC form,
 * which is the same text for almost every cut (docs/fairness.md says where they can differ).
 */
export const CUT_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: CUT_MAX_LENGTH,
  pattern: CUT_PATTERN,
} as const;

/** A seed: 1 to 128 characters with no control character (logs and terminals show it). */
export const SEED_TEXT = textRule(128, `^[^${CONTROL}]+$`);

/** Versions are PostgreSQL integers. */
export const MAX_VERSION = 2147483647;

export const integer = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: 'integer', description, ...extra }) as ApiPropertyOptions;

export const seat = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: 'integer', enum: [0, 1, 2], description, ...extra }) as ApiPropertyOptions;

// Seat lists stay `number[]` in clients (an enum would make `winners.includes(i)` a type error).
export const seats = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 2 }, description, ...extra }) as ApiPropertyOptions;

/** One integer per seat, seat 0 first. */
export const triple = (description: string, example: number[] = [0, 0, 0]): ApiPropertyOptions =>
  ({ type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 3, example, description }) as ApiPropertyOptions;

/** A yes or no per seat, seat 0 first. */
export const seatFlags = (description: string, example: boolean[]): ApiPropertyOptions =>
  ({ type: 'array', items: { type: 'boolean' }, minItems: 3, maxItems: 3, example, description }) as ApiPropertyOptions;

export const card = (description: string, example = 'QH'): ApiPropertyOptions => ({ ...CARD_ITEM, example, description }) as ApiPropertyOptions;

export const cards = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: 'array', items: CARD_ITEM, description, ...extra }) as ApiPropertyOptions;

/** A seat token as the service issues it: opaque, shown once. */
export const SEAT_TOKEN = {
  pattern: '^bsk_[A-Za-z0-9_-]{32}$',
  example: 'bsk_3q2l0m9VfQd0b6K0u0wz1y8yq0f7v3xA',
  description: 'The seat token (`bsk_` and 32 base64url characters), shown only once: send it as `Authorization: Bearer <token>`.',
} as const;

/** A player account's id (docs/players.md). */
export const PLAYER_ID = {
  pattern: '^pl-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  example: 'pl-6f1c2f0e-8a8e-4a53-9d4e-2b0f3c1d5e7a',
  description: "The player's id (`pl-` and a UUID): public, shown at the tables the player sits at.",
} as const;

/** A SHA-256 as 64 lowercase hex digits. */
export const sha256 = (description: string, extra: ApiPropertyOptions = {}): ApiPropertyOptions =>
  ({ type: 'string', pattern: '^[0-9a-f]{64}$', example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description, ...extra }) as ApiPropertyOptions;

/** The three seats' names in seat order, null for an open seat. */
export const playerNames = (description: string): ApiPropertyOptions =>
  ({ type: 'array', items: { type: 'string', nullable: true }, minItems: 3, maxItems: 3, example: ['Astrid', null, null], description }) as ApiPropertyOptions;
