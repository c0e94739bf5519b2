import { registerDecorator, type ValidationOptions } from 'class-validator';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';

/**
 * A player's name: 1 to 40 characters (code points, as JSON Schema's `maxLength` counts them), not only
 * spaces, and printable: no control or format character (they would end up in logs and terminals), no
 * line or paragraph separator, and no lone UTF-16 surrogate (\p{Cs}: no character at all, and PostgreSQL
 * refuses to store it). The OpenAPI document states exactly this (PLAYER_NAME_SCHEMA), so that a client's
 * own validation agrees with the service's.
 */
const NOT_PRINTABLE = '\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}';
export const PLAYER_NAME_PATTERN = `^[^${NOT_PRINTABLE}]*[^\\s${NOT_PRINTABLE}][^${NOT_PRINTABLE}]*$`;
const PLAYER_NAME = new RegExp(PLAYER_NAME_PATTERN, 'u');
export const PLAYER_NAME_SCHEMA = { type: 'string', minLength: 1, maxLength: 40, pattern: PLAYER_NAME_PATTERN } as const;

export const isPlayerName = (value: unknown): value is string => typeof value === 'string' && PLAYER_NAME.test(value) && [...value].length <= 40;

/** A strategy the service can play a bot seat with (`strong` too, once libs/bots has it). */
export const isStrategy = (value: unknown): value is StrategyName => typeof value === 'string' && (STRATEGIES as readonly string[]).includes(value);

/** A bot seat at creation: `{ "bot": "greedy" }`, optionally with a `name` (nothing else). */
export interface BotEntry {
  bot: StrategyName;
  name?: string;
}
export const isBotEntry = (value: unknown): value is BotEntry =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).every((k) => k === 'bot' || k === 'name') &&
  isStrategy((value as { bot?: unknown }).bot) &&
  ((value as { name?: unknown }).name === undefined || isPlayerName((value as { name?: unknown }).name));

/** The name a bot seat gets when none is given: `Greedy bot`. */
export const defaultBotName = (bot: string): string => `${bot[0].toUpperCase()}${bot.slice(1)} bot`;

/** What a `players` entry may be, in the words of the problems that refuse one. */
export const SEAT_ENTRY = `a name of 1 to 40 printable characters, null (an open seat) or a bot seat { "bot": ${STRATEGIES.map((s) => `"${s}"`).join(' | ')}, "name"?: … }`;

/**
 * Exactly three entries, each a player's name, a bot seat or null (an open seat someone may join). Two checks, so
 * that a problem's `errors` names the entry at fault (`/players/1`), not only the list.
 */
export function IsSeatNames(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const property = String(propertyName);
    registerDecorator({
      name: 'isSeatList',
      target: target.constructor,
      propertyName: property,
      options: { message: `${property} must be 3 entries, each ${SEAT_ENTRY}`, ...options },
      validator: { validate: (value: unknown) => Array.isArray(value) && value.length === 3 },
    });
    registerDecorator({
      name: 'isSeatName',
      target: target.constructor,
      propertyName: property,
      options: { message: `each entry of ${property} must be ${SEAT_ENTRY}`, ...options, each: true },
      // Not a list at all is the other check's to report.
      validator: { validate: (value: unknown, args) => !Array.isArray(args?.value) || value === null || isPlayerName(value) || isBotEntry(value) },
    });
  };
}

/** A single player's name (see isPlayerName). */
export function IsPlayerName(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isPlayerName',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be 1 to 40 printable characters`, ...options },
      validator: { validate: isPlayerName },
    });
}
