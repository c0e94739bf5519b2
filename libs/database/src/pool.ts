import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** The pg Pool under a TypeORM postgres DataSource (the driver's `master`); undefined before initialize() or on another driver. */
export function pgPool(dataSource: DataSource): Pool | undefined {
  return (dataSource.driver as PostgresDriver).master as Pool | undefined;
}
