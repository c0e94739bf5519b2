import { rowsOf, type Queryable } from '@bismarck/event-store';

/** Match versions a sweep leaves out of its read (it is waiting to try them again), paired by index. */
export interface MatchVersions {
  readonly ids: readonly string[];
  readonly versions: readonly number[];
}

export const NONE: MatchVersions = { ids: [], versions: [] };

/**
 * Matches whose person to act is due a stand-in by `now`: a turn clock ran out, or the seat is away or
 * timed out already for at least `handoverMs` (match_list.turn_deadline, from the rules' turnDue),
 * soonest first (less those in `skip`), each with the version it was found at: a move made after this read has a later one.
 */
export async function overdueTurns(db: Queryable, now: Date, handoverMs: number, limit: number, skip: MatchVersions = NONE): Promise<{ id: string; version: number }[]> {
  // A stand-in due has its turn's start as deadline (turn_deadline = updated_at): only once handed over.
  const rows = rowsOf(
    await db.query(
      `SELECT id, version FROM match_list l
        WHERE turn_deadline <= $1::timestamptz
          AND (turn_deadline > updated_at OR updated_at <= $2::timestamptz)
          AND NOT EXISTS (SELECT 1 FROM unnest($4::text[], $5::int[]) AS s(id, version) WHERE s.id = l.id AND s.version = l.version)
        ORDER BY turn_deadline LIMIT $3`,
      [now.toISOString(), new Date(now.getTime() - handoverMs).toISOString(), limit, skip.ids, skip.versions],
    ),
  );
  return rows.map((r) => ({ id: String(r.id), version: Number(r.version) }));
}
