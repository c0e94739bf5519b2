/** SQLSTATE classes and codes that mean "the database is away", not "this request is wrong". */
const UNAVAILABLE_SQLSTATES = /^(08|57P0[1-3]|53300)/;
/** Node's socket errors when the server cannot be reached or went away. */
const UNAVAILABLE_SYSCALLS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** pg and pg-pool say these in words only. */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended|the database system is (starting up|shutting down)/i;

/**
 * True when an error means the database cannot be reached right now (a restart, a failover, a cut
 * network): the request may succeed if sent again, so it is answered 503 with Retry-After, not 500.
 * TypeORM wraps the driver's error (`driverError`); the event store may wrap it as `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.test(e.code) || UNAVAILABLE_SYSCALLS.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (error instanceof AggregateError && error.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
