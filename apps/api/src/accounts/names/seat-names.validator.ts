import { registerDecorator, type ValidationOptions } from 'class-validator';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';
import { isPlayerId } from '@bismarck/players';
import { PLAYER_NAME } from '../../platform/http/fields';

/** A player's name (PLAYER_NAME in platform/http/fields.ts: the document states the same rule). */
export const PLAYER_NAME_SCHEMA = PLAYER_NAME.schema;
export const isPlayerName = PLAYER_NAME.test;

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

/** A `players` entry at creation as the service takes it: a person's name, a bot seat, a seat bound to a player account (named after it), or null (an open seat). */
export type PlayerEntry = string | { bot: string; name?: string } | { account: string; name: string } | null;

/** A seat bound at creation to the caller's own player account: `{ "player": "pl-…" }` (nothing else). */
export interface AccountEntry {
  player: string;
}
export const isAccountEntry = (value: unknown): value is AccountEntry =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && isPlayerId((value as { player?: unknown }).player);

/** The name a bot seat gets when none is given: `Greedy bot`. */
export const defaultBotName = (bot: string): string => `${bot[0].toUpperCase()}${bot.slice(1)} bot`;

/** What a `players` entry may be, in the words of the problems that refuse one. */
export const SEAT_ENTRY = `a name of 1 to 40 printable characters, null (an open seat), a bot seat { "bot": ${STRATEGIES.map((s) => `"${s}"`).join(' | ')}, "name"?: … } or the caller's own player account { "player": "pl-…" }`;

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
      validator: { validate: (value: unknown, args) => !Array.isArray(args?.value) || value === null || isPlayerName(value) || isBotEntry(value) || isAccountEntry(value) },
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
