import type { QueryRunner } from 'typeorm';
import type { MigrationClass } from './data-source';

/** One statement a migration sends, with its parameters when it has any. */
export interface RecordedStatement {
  sql: string;
  params?: unknown[];
}

/** What a migration runs, each way. */
export interface RecordedMigration {
  up: RecordedStatement[];
  down: RecordedStatement[];
}

interface Runnable {
  up(q: QueryRunner): Promise<unknown>;
  down(q: QueryRunner): Promise<unknown>;
}

/**
 * The statements a migration's up() and down() send, heard by a QueryRunner that runs nothing (every
 * query answers no rows). Its text, not its source: a migration may build its SQL from constants in
 * other files, which the source of up() does not show.
 */
export async function recordMigration(migration: MigrationClass): Promise<RecordedMigration> {
  const m = new migration() as Runnable;
  const listen = (heard: RecordedStatement[]): QueryRunner =>
    ({
      query: async (sql: string, params?: unknown[]) => {
        heard.push(params === undefined ? { sql } : { sql, params });
        return [];
      },
    }) as unknown as QueryRunner;
  const recorded: RecordedMigration = { up: [], down: [] };
  await m.up(listen(recorded.up));
  await m.down(listen(recorded.down));
  return recorded;
}
