import { rowsOf, type Queryable } from '@bismarck/event-store';
import type { ForkedFrom, Seat } from '@bismarck/rules';
import { CONNECTED_OF_VIEW, type Connected } from './presence';

/** A document and the stream version it reflects (the ETag of a GET), with the presence it shows if any. */
export interface Versioned<T> {
  version: number;
  body: T;
  /** The public state's `connected` (presence changes with no new version: the ETag says it too). */
  connected?: Connected;
}

export interface MatchSummary {
  id: string;
  version: number;
  status: string;
  phase: string;
  dealNumber: number;
  dealsInMatch: number;
  players: string[];
  options: unknown;
  seeded: boolean;
  totals: number[];
  winners: number[] | null;
  createdAt: string;
  updatedAt: string;
  /** A fork's origin, null for any other match. */
  forkedFrom: ForkedFrom | null;
}

/** Which matches a page of the list shows (every one when empty). */
export interface ListFilter {
  status?: string;
  /** Only the forks of this match. */
  forkedFrom?: string;
}

/** A place in the match list: the last row of a page (its `createdAt` text, as the list returns it). */
export interface ListPosition {
  createdAt: string;
  id: string;
}

/**
 * The view stores its checkpoint's version; its hash is the event's, read with the view (a
 * primary-key lookup) rather than copied into every row a command writes.
 */
/** Fields a view stored before they existed lacks: null (unknown) until its match moves on or a rebuild. */
const LATER_FIELDS = `'{"quotas": null}'::jsonb`;
const CHECKPOINT_JOIN = `LEFT JOIN events c ON c.stream_id = v.match_id AND c.version = (v.doc #>> '{checkpoint,version}')::int`;
const CHECKPOINT = `jsonb_build_object('checkpoint', jsonb_build_object('version', c.version, 'hash', encode(c.hash, 'hex')))`;

/** The read side's queries: one projection row (or one page of the list) per call. Null: no such match. */
export class MatchReader {
  constructor(private readonly db: Queryable) {}

  /** The seat of the match bound to this player account (docs/players.md), or null. */
  async seatOfPlayer(id: string, playerId: string): Promise<Seat | null> {
    const [row] = rowsOf(
      await this.db.query(`SELECT (s->>'seat')::int AS seat FROM match_views v, jsonb_array_elements(v.doc->'seats') s WHERE v.match_id = $1 AND s->>'player' = $2`, [id, playerId]),
    );
    return row ? (Number(row.seat) as Seat) : null;
  }

  /** The public view, with presence (`connected`: not a projection, read beside it in the same query). */
  publicState(id: string): Promise<Versioned<unknown> | null> {
    return this.doc(`SELECT v.version, ${LATER_FIELDS} || v.doc || ${CHECKPOINT} || ${CONNECTED_OF_VIEW} AS doc FROM match_views v ${CHECKPOINT_JOIN} WHERE v.match_id = $1`, [id]);
  }

  /** The public view (with presence) and the seat's own part on top (both rows are written in one transaction). */
  seatView(id: string, seat: Seat): Promise<Versioned<unknown> | null> {
    return this.doc(
      `SELECT v.version, ${LATER_FIELDS} || v.doc || s.doc || ${CHECKPOINT} || ${CONNECTED_OF_VIEW} AS doc
         FROM match_views v JOIN seat_views s ON s.match_id = v.match_id ${CHECKPOINT_JOIN}
        WHERE v.match_id = $1 AND s.seat = $2`,
      [id, seat],
    );
  }

  /** The scorecard as of the match's current version (its row changes only when a deal is scored, …). */
  scorecard(id: string): Promise<Versioned<unknown> | null> {
    return this.doc(
      `SELECT v.version, s.doc || jsonb_build_object('id', v.match_id, 'version', v.version) AS doc
         FROM match_views v JOIN scorecards s ON s.match_id = v.match_id
        WHERE v.match_id = $1`,
      [id],
    );
  }

  /**
   * Newest first, `limit` at most, after `after` (checked by the caller: see isListTime); `next` is
   * where the following page starts, null on the last page.
   */
  async list(limit: number, { status, forkedFrom }: ListFilter, after?: ListPosition): Promise<{ items: MatchSummary[]; next: ListPosition | null }> {
    const params: unknown[] = [limit + 1];
    const where: string[] = [];
    if (status) {
      params.push(status);
      where.push(`status = $${params.length}`);
    }
    if (forkedFrom) {
      // IS NOT NULL spelled out: it is the condition of the partial index match_list_forks.
      params.push(forkedFrom);
      where.push(`forked_from IS NOT NULL AND forked_from->>'matchId' = $${params.length}`);
    }
    if (after) {
      params.push(after.createdAt, after.id);
      where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    const rows = rowsOf(
      await this.db.query(
        `SELECT id, version, status, phase, deal_number, deals_in_match, players, options, seeded, totals, winners, forked_from,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
         FROM match_list ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC LIMIT $1`,
        params,
      ),
    );
    const items = rows.slice(0, limit).map(toSummary);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { items, next: last ? { createdAt: String(last.created_at), id: String(last.id) } : null };
  }

  /** Whether the match exists (its list row is written with its first event). */
  async exists(id: string): Promise<boolean> {
    return rowsOf(await this.db.query('SELECT 1 FROM match_list WHERE id = $1', [id])).length > 0;
  }

  private async doc(sql: string, params: unknown[]): Promise<Versioned<unknown> | null> {
    const [row] = rowsOf(await this.db.query(sql, params));
    if (!row) return null;
    const connected = (row.doc as { connected?: Connected }).connected;
    return connected ? { version: row.version as number, body: row.doc, connected } : { version: row.version as number, body: row.doc };
  }
}

function toSummary(r: Record<string, unknown>): MatchSummary {
  return {
    id: r.id as string,
    version: r.version as number,
    status: r.status as string,
    phase: r.phase as string,
    dealNumber: r.deal_number as number,
    dealsInMatch: r.deals_in_match as number,
    players: r.players as string[],
    options: r.options,
    seeded: r.seeded as boolean,
    totals: r.totals as number[],
    winners: r.winners as number[] | null,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    forkedFrom: (r.forked_from as ForkedFrom | null) ?? null,
  };
}

/** The `created_at` text of a list row (to_char above): UTC, microseconds. */
const LIST_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

/**
 * Whether a value is a time of exactly the list's format that names a real instant: no 2020-02-30,
 * which JavaScript would roll over and PostgreSQL refuses (an error, not an empty page).
 */
export function isListTime(value: unknown): value is string {
  const m = typeof value === 'string' ? LIST_TIME.exec(value) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return year >= 1970 && at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}
