/** A setting the operator got wrong: start-up stops with this message alone (no stack). */
export class SettingError extends Error {}

/** An integer setting from the environment, or its default; anything else stops the start-up. */
export function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
