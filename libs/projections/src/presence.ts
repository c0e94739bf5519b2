import { rowsOf, type Queryable } from '@bismarck/event-store';
import type { Seat } from '@bismarck/rules';

/** The NOTIFY channel of presence: its payload is the id of the match whose presence may have changed. */
export const PRESENCE_CHANNEL = 'seat_presence';

/** Per seat: whether a live stream opened with that seat's credential is open on some api instance. */
export type Connected = [boolean, boolean, boolean];

export const NOBODY_CONNECTED: Readonly<Connected> = [false, false, false];

/** One api instance's open streams for one seat of a match (0: none left, the row goes). */
export interface SeatStreams {
  matchId: string;
  seat: Seat;
  streams: number;
}

/**
 * `connected` of the match `v.match_id` as a jsonb object, for a read of the public state: one
 * primary-key range of `seat_presence`, rows past `expires_at` left out (an instance gone).
 */
export const CONNECTED_OF_VIEW = `jsonb_build_object('connected', (
  SELECT jsonb_build_array(coalesce(bool_or(p.seat = 0), false), coalesce(bool_or(p.seat = 1), false), coalesce(bool_or(p.seat = 2), false))
    FROM seat_presence p WHERE p.match_id = v.match_id AND p.expires_at > now()))`;

/**
 * `seat_presence` (migration SeatPresence1799000016000): each api instance's count of open seat
 * streams per match and seat, valid until `expires_at`. Presence is no game fact: nothing here
 * touches the log, and no command reads it. Times are the database's (`now()`), so the instances'
 * clocks need not agree.
 */
export class PresenceTable {
  constructor(private readonly db: Queryable) {}

  /**
   * Writes this instance's counts (a row with 0 streams is deleted), valid for `ttlMs`, and with
   * `notify` tells every instance (NOTIFY PRESENCE_CHANNEL, at commit) that these matches may have
   * changed. Writing all of an instance's rows again is its heartbeat: rows lost meanwhile (swept
   * while it stalled, or a database crash emptying the unlogged table) come back.
   */
  async write(instanceId: string, ttlMs: number, rows: readonly SeatStreams[], notify: boolean): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `WITH w AS (SELECT * FROM unnest($2::text[], $3::smallint[], $4::int[]) AS w(match_id, seat, streams)),
            gone AS (DELETE FROM seat_presence p USING w
                      WHERE p.instance_id = $1 AND p.match_id = w.match_id AND p.seat = w.seat AND w.streams = 0),
            kept AS (INSERT INTO seat_presence (match_id, seat, instance_id, streams, expires_at)
                     SELECT match_id, seat, $1, streams, now() + $5 * interval '1 millisecond' FROM w WHERE streams > 0
                     ON CONFLICT (match_id, seat, instance_id) DO UPDATE SET streams = excluded.streams, expires_at = excluded.expires_at)
       SELECT pg_notify($6, m) FROM (SELECT DISTINCT match_id AS m FROM w) d WHERE $7::boolean`,
      [instanceId, rows.map((r) => r.matchId), rows.map((r) => r.seat), rows.map((r) => r.streams), ttlMs, PRESENCE_CHANNEL, notify],
    );
  }

  /** Deletes every row of this instance (it shuts down) and tells the other instances. */
  async forget(instanceId: string): Promise<void> {
    await this.db.query(
      `WITH gone AS (DELETE FROM seat_presence WHERE instance_id = $1 RETURNING match_id)
       SELECT pg_notify($2, m) FROM (SELECT DISTINCT match_id AS m FROM gone) d`,
      [instanceId, PRESENCE_CHANNEL],
    );
  }

  /** Deletes the rows past their time (instances gone); they count for nothing already. */
  async sweep(): Promise<void> {
    await this.db.query(`DELETE FROM seat_presence WHERE expires_at < now()`);
  }

  /** `connected` of each of these matches (one query), from the rows still valid. */
  async connected(matchIds: readonly string[]): Promise<Map<string, Connected>> {
    const found = new Map<string, Connected>(matchIds.map((id) => [id, [...NOBODY_CONNECTED]]));
    if (matchIds.length === 0) return found;
    const rows = rowsOf(
      await this.db.query(`SELECT DISTINCT match_id, seat FROM seat_presence WHERE match_id = ANY($1::text[]) AND expires_at > now()`, [matchIds]),
    );
    for (const row of rows) {
      const seat = Number(row.seat);
      const connected = found.get(String(row.match_id));
      if (connected && (seat === 0 || seat === 1 || seat === 2)) connected[seat] = true;
    }
    return found;
  }
}
