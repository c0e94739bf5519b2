import { rowsOf, type Queryable } from '@bismarck/event-store';

/**
 * Matches whose person to act is due a stand-in by `now` (an ISO time): a turn clock ran out, or the
 * seat is away or timed out already (match_list.turn_deadline, from the rules' turnDue), soonest
 * first, each with the version it was found at: a move made after this read has a later one.
 */
export async function overdueTurns(db: Queryable, now: string, limit: number): Promise<{ id: string; version: number }[]> {
  const rows = rowsOf(
    await db.query(`SELECT id, version FROM match_list WHERE turn_deadline <= $1::timestamptz ORDER BY turn_deadline LIMIT $2`, [now, limit]),
  );
  return rows.map((r) => ({ id: String(r.id), version: Number(r.version) }));
}
