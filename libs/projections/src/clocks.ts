import { rowsOf, type Queryable } from '@bismarck/event-store';

/** Match versions a sweep leaves out of its read (it is waiting to try them again), paired by index. */
export interface MatchVersions {
  readonly ids: readonly string[];
  readonly versions: readonly number[];
}

export const NONE: MatchVersions = { ids: [], versions: [] };

/**
 * Claims for this instance (`instance`, any id of its own), for `leaseMs`, the matches whose person to act is due a stand-in by `now`:
 * a turn clock ran out, or the seat is away or timed out already for at least `handoverMs`
 * (match_list.turn_deadline, from the rules' turnDue), soonest first, less those in `skip` and those
 * another instance claimed at the same version and whose lease runs; each with the version it was
 * claimed at (a move made after this read has a later one). One statement: of two instances reading
 * together, the second waits for the first's insert of a match and then leaves it out (sweep_claims).
 */
export async function claimOverdueTurns(
  db: Queryable,
  now: Date,
  o: { instance: string; handoverMs: number; leaseMs: number; limit: number; skip?: MatchVersions },
): Promise<{ id: string; version: number }[]> {
  const skip = o.skip ?? NONE;
  // A stand-in due has its turn's start as deadline (turn_deadline = updated_at): only once handed over.
  const rows = rowsOf(
    await db.query(
      `WITH due AS (
         SELECT id, version, turn_deadline FROM match_list l
          WHERE turn_deadline <= $1::timestamptz
            AND (turn_deadline > updated_at OR updated_at <= $2::timestamptz)
            AND NOT EXISTS (SELECT 1 FROM unnest($4::text[], $5::int[]) AS s(id, version) WHERE s.id = l.id AND s.version = l.version)
            AND NOT EXISTS (SELECT 1 FROM sweep_claims c
                             WHERE c.sweep = 'clocks' AND c.match_id = l.id AND c.version = l.version AND c.until > $1::timestamptz AND c.claimed_by <> $7)
          ORDER BY turn_deadline LIMIT $3)
       INSERT INTO sweep_claims AS c (sweep, match_id, version, claimed_by, until)
       SELECT 'clocks', id, version, $7, $6::timestamptz FROM due ORDER BY turn_deadline
       ON CONFLICT (sweep, match_id) DO UPDATE SET version = EXCLUDED.version, claimed_by = EXCLUDED.claimed_by, until = EXCLUDED.until
         WHERE c.until <= $1::timestamptz OR c.version <> EXCLUDED.version OR c.claimed_by = EXCLUDED.claimed_by
       RETURNING match_id, version`,
      [now.toISOString(), new Date(now.getTime() - o.handoverMs).toISOString(), o.limit, skip.ids, skip.versions, new Date(now.getTime() + o.leaseMs).toISOString(), o.instance],
    ),
  );
  return rows.map((r) => ({ id: String(r.match_id), version: Number(r.version) }));
}

/** Forgets the claims that lapsed before `before` (their matches moved on, or nobody needs them now). */
export async function forgetLapsedClaims(db: Queryable, before: Date): Promise<void> {
  await db.query(`DELETE FROM sweep_claims WHERE until < $1::timestamptz`, [before.toISOString()]);
}
