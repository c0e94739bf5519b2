import { rowsOf } from './rows';
import { START, type Checkpoint, type Queryable } from './types';

/**
 * Stores a subscription's checkpoint with the caller's connection: call it inside the transaction
 * that writes the projection rows, and rows and checkpoint commit (or roll back) together.
 */
export async function saveCheckpoint(runner: Queryable, name: string, checkpoint: Checkpoint): Promise<void> {
  await runner.query(
    `INSERT INTO subscription_checkpoints (name, tx_id, position, updated_at)
     VALUES ($1, $2::xid8, $3::bigint, now())
     ON CONFLICT (name) DO UPDATE SET tx_id = EXCLUDED.tx_id, position = EXCLUDED.position, updated_at = now()`,
    [name, checkpoint.txId, checkpoint.position],
  );
}

/** The stored checkpoint of a subscription, or START when it has none. */
export async function loadCheckpoint(runner: Queryable, name: string): Promise<Checkpoint> {
  const rows = rowsOf(
    await runner.query(
      `SELECT tx_id::text AS tx_id, position::text AS position FROM subscription_checkpoints WHERE name = $1`,
      [name],
    ),
  );
  if (rows.length === 0) return START;
  return { txId: String(rows[0].tx_id), position: String(rows[0].position) };
}

/** Removes a checkpoint (a projection rebuild starts again from START). */
export async function resetCheckpoint(runner: Queryable, name: string): Promise<void> {
  await runner.query(`DELETE FROM subscription_checkpoints WHERE name = $1`, [name]);
}
