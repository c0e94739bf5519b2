import { DataSource, type DataSourceOptions } from 'typeorm';

interface PgPoolLike {
  on(event: 'connect', listener: (client: PgClientLike) => void): unknown;
  _clients?: PgClientLike[];
}
interface PgClientLike {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

const guarded = new WeakSet<object>();

/**
 * Keeps a lost database connection from crashing the process. pg-pool listens for errors only on
 * idle clients; a client that is checked out when the server ends its session (a restart, a failover,
 * pg_terminate_backend) emits an 'error' nobody handles, and Node exits. With a listener on every
 * client the error is reported instead; the query in flight still fails (the caller answers 5xx and
 * a client retries), and pg-pool drops the broken client when it is released.
 */
export function guardConnectionErrors(dataSource: DataSource, onError: (err: Error) => void): void {
  const pool = (dataSource.driver as unknown as { master?: PgPoolLike }).master;
  if (!pool || typeof pool.on !== 'function') return;
  const guard = (client: PgClientLike) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', onError);
  };
  pool.on('connect', guard);
  for (const client of pool._clients ?? []) guard(client);
}

/** An initialised DataSource whose pooled connections cannot crash the process when the server drops them. */
export async function openDataSource(
  options: DataSourceOptions,
  onConnectionError: (err: Error) => void = (err) => console.warn(`database connection lost: ${err.message}`),
): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  guardConnectionErrors(dataSource, onConnectionError);
  return dataSource;
}
