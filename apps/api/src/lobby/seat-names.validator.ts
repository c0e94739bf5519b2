import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * No control characters in names (they would end up in logs and terminals), and no lone UTF-16
 * surrogate (\p{Cs}): it is no character at all, and PostgreSQL refuses to store it.
 */
export const PRINTABLE_NAME = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]+$/u;

/** A player's name: 1 to 40 printable characters, not only spaces. */
export const isPlayerName = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= 40 && value.trim() !== '' && PRINTABLE_NAME.test(value);

/**
 * Exactly three entries, each a player's name or null (an open seat someone may join). Two checks, so
 * that a problem's `errors` names the entry at fault (`/players/1`), not only the list.
 */
export function IsSeatNames(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const property = String(propertyName);
    registerDecorator({
      name: 'isSeatList',
      target: target.constructor,
      propertyName: property,
      options: { message: `${property} must be 3 entries, each a name of 1 to 40 printable characters or null (an open seat)`, ...options },
      validator: { validate: (value: unknown) => Array.isArray(value) && value.length === 3 },
    });
    registerDecorator({
      name: 'isSeatName',
      target: target.constructor,
      propertyName: property,
      options: { message: `each entry of ${property} must be a name of 1 to 40 printable characters or null (an open seat)`, ...options, each: true },
      // Not a list at all is the other check's to report.
      validator: { validate: (value: unknown, args) => !Array.isArray(args?.value) || value === null || isPlayerName(value) },
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
