import { invalidParameter } from '../problem/problem';

/** An opaque page cursor: the sort key of a page's last row, as base64url JSON. */
export const encodeCursor = (key: readonly unknown[]): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * The sort key `encodeCursor` made, as `read` takes it (null, or a throw: not one of ours); anything
 * else is refused as 400 VALIDATION_FAILED at `cursor`, before it reaches SQL.
 */
export function decodeCursor<T>(cursor: string, read: (key: unknown[]) => T | null): T {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const found = Array.isArray(key) ? read(key) : null;
    if (found !== null) return found;
  } catch {
    // the problem below
  }
  throw invalidParameter('cursor', 'cursor is not one this service handed out.');
}
