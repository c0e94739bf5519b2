import { rowsOf, type Queryable } from '@bismarck/event-store';

/**
 * Lobby tables still waiting for players whose last change is older than `idleMs`, oldest first
 * (match_list.updated_at is the time of the match's last event).
 */
export async function idleLobbyTables(db: Queryable, idleMs: number, limit: number): Promise<string[]> {
  const rows = rowsOf(
    await db.query(
      `SELECT id FROM match_list
        WHERE status = 'waiting' AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY updated_at LIMIT $2`,
      [idleMs, limit],
    ),
  );
  return rows.map((r) => String(r.id));
}
