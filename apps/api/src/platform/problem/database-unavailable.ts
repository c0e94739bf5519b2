/** SQLSTATEs (PostgreSQL's appendix A) that mean "the database is away", not "this request is wrong". */
const CONNECTION_EXCEPTION_CLASS = '08'; // every code of class 08
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a write reached a standby (a failover under way)
]);
const isUnavailableSqlState = (code: string): boolean => code.length === 5 && (code.startsWith(CONNECTION_EXCEPTION_CLASS) || UNAVAILABLE_SQLSTATES.has(code));
/** Node's socket errors when the server cannot be reached or went away. */
const UNAVAILABLE_SYSCALLS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** pg and pg-pool say these in words only. */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Connection ended|the database system is (starting up|shutting down)|server is in hot standby mode/i;

/**
 * True when an error means the database cannot be reached right now (a restart, a failover, a cut
 * network): the request may succeed if sent again, so it is answered 503 with Retry-After, not 500.
 * TypeORM wraps the driver's error (`driverError`); the event store may wrap it as `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (isUnavailableSqlState(e.code) || UNAVAILABLE_SYSCALLS.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (error instanceof AggregateError && error.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
