import { DataSource, type DataSourceOptions } from 'typeorm';
import { pgPool } from './pool';

const guarded = new WeakSet<object>();

/**
 * Keeps a lost database connection from crashing the process. pg-pool listens for errors only on
 * idle clients; a client that is checked out when the server ends its session (a restart, a failover,
 * pg_terminate_backend) emits an 'error' nobody handles, and Node exits. With a listener on every
 * client the error is reported instead; the query in flight still fails (the caller answers 5xx and
 * a client retries), and pg-pool drops the broken client when it is released.
 */
export function guardConnectionErrors(dataSource: DataSource, onError: (err: Error) => void): void {
  const pool = pgPool(dataSource);
  if (!pool || typeof pool.on !== 'function') return;
  // 'acquire' rather than 'connect': it also reaches the clients the pool opened before this call
  // (initialize() uses one), and it comes exactly when a client loses the pool's idle listener.
  pool.on('acquire', (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', onError);
  });
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
