import { ProblemException } from '../problem/problem';

/** The service names every match with a lowercase UUID (crypto.randomUUID). */
export const MATCH_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A match id from a URL, checked for shape before it reaches SQL (PostgreSQL refuses a NUL byte in
 * text with an error, which must not become a 500). Anything else names no match: 404.
 */
export function parseMatchId(value: unknown): string {
  if (typeof value === 'string' && MATCH_ID_PATTERN.test(value)) return value;
  throw new ProblemException('MATCH_NOT_FOUND', 'There is no such match (match ids are lowercase UUIDs).');
}
