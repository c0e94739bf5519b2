/**
 * The rows of a query's result, whichever way the Queryable ran it: pg answers `{ rows }`, TypeORM's
 * `query()` the rows themselves.
 */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return (result as { rows?: Record<string, unknown>[] }).rows ?? [];
}
