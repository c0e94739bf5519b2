import { rowsOf, type Queryable } from '@bismarck/event-store';
import { NONE, type MatchVersions } from './clocks';

/**
 * Lobby tables still waiting for players whose last change is older than `idleMs`, oldest first
 * (match_list.updated_at is the time of the match's last event), each with the version it was idle
 * at: a table joined after this read has a later one, and is no longer idle.
 */
export async function idleLobbyTables(db: Queryable, idleMs: number, limit: number): Promise<{ id: string; version: number }[]> {
  const rows = rowsOf(
    await db.query(
      `SELECT id, version FROM match_list
        WHERE status = 'waiting' AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY updated_at LIMIT $2`,
      [idleMs, limit],
    ),
  );
  return rows.map((r) => ({ id: String(r.id), version: Number(r.version) }));
}

/**
 * Matches being played whose turn is a bot seat's (the public view marks bot seats) and whose last
 * change is at least `idleMs` old, oldest first (less those in `skip`), each with its version: the service's bot runner acts on them at start-up
 * (idleMs 0) and, now and then, on any a lost wake-up left waiting. Reads only the playing matches
 * (match_list's status index), then their public view.
 */
export async function matchesAwaitingBots(db: Queryable, idleMs: number, limit: number, skip: MatchVersions = NONE): Promise<{ id: string; version: number }[]> {
  const rows = rowsOf(
    await db.query(
      `SELECT l.id, l.version FROM match_list l JOIN match_views v ON v.match_id = l.id
        WHERE l.status = 'playing'
          AND l.updated_at <= now() - make_interval(secs => $1::double precision / 1000)
          AND jsonb_typeof(v.doc->'turn') = 'number'
          AND jsonb_typeof(v.doc->'seats'->((v.doc->>'turn')::int)->'bot') = 'string'
          AND NOT EXISTS (SELECT 1 FROM unnest($3::text[], $4::int[]) AS s(id, version) WHERE s.id = l.id AND s.version = l.version)
        ORDER BY l.updated_at LIMIT $2`,
      [idleMs, limit, skip.ids, skip.versions],
    ),
  );
  return rows.map((r) => ({ id: String(r.id), version: Number(r.version) }));
}
