import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Seat, Viewer } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { ProblemException } from '../problem/problem';
import { storedEventView, type EventView } from '@bismarck/projections';
import { parseMatchId } from './match-id';
import { MatchStreams } from './match-streams.service';

export interface Versioned<T> {
  version: number;
  body: T;
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
}

export interface MatchPage {
  items: MatchSummary[];
  nextCursor: string | null;
}

export interface EventPage {
  events: EventView[];
  version: number;
  next: number | null;
  /** The newest version whose hash may be shown (nothing secret up to it), and that hash. */
  checkpoint: { version: number; hash: string };
}

/**
 * The view stores its checkpoint's version; its hash is the event's, read with the view (a
 * primary-key lookup) rather than copied into every row a command writes.
 */
const CHECKPOINT_JOIN = `LEFT JOIN events c ON c.stream_id = v.match_id AND c.version = (v.doc #>> '{checkpoint,version}')::int`;
const CHECKPOINT = `jsonb_build_object('checkpoint', jsonb_build_object('version', c.version, 'hash', encode(c.hash, 'hex')))`;

/** The read side: projection rows, one query each, and the log as the caller may see it. */
@Injectable()
export class MatchQueries {
  constructor(
    private readonly db: DataSource,
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
  ) {}

  publicState(id: string): Promise<Versioned<unknown>> {
    return this.doc(`SELECT v.version, v.doc || ${CHECKPOINT} AS doc FROM match_views v ${CHECKPOINT_JOIN} WHERE v.match_id = $1`, [id], id);
  }

  /** The public view with the seat's own part on top (both rows are written in one transaction). */
  seatView(id: string, seat: Seat): Promise<Versioned<unknown>> {
    return this.doc(
      `SELECT v.version, v.doc || s.doc || ${CHECKPOINT} AS doc
         FROM match_views v JOIN seat_views s ON s.match_id = v.match_id ${CHECKPOINT_JOIN}
        WHERE v.match_id = $1 AND s.seat = $2`,
      [id, seat],
      id,
    );
  }

  /** The scorecard as of the match's current version (its row changes only when a deal is scored, …). */
  scorecard(id: string): Promise<Versioned<unknown>> {
    return this.doc(
      `SELECT v.version, s.doc || jsonb_build_object('id', v.match_id, 'version', v.version) AS doc
         FROM match_views v JOIN scorecards s ON s.match_id = v.match_id
        WHERE v.match_id = $1`,
      [id],
      id,
    );
  }

  async list(limit: number, status?: string, cursor?: string): Promise<MatchPage> {
    const params: unknown[] = [limit + 1];
    const where: string[] = [];
    if (status) {
      params.push(status);
      where.push(`status = $${params.length}`);
    }
    if (cursor) {
      const [createdAt, id] = decodeCursor(cursor);
      params.push(createdAt, id);
      where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT id, version, status, phase, deal_number, deals_in_match, players, options, seeded, totals, winners,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
         FROM match_list ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC LIMIT $1`,
      params,
    );
    const items = rows.slice(0, limit).map(toSummary);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { items, nextCursor: last ? encodeCursor(String(last.created_at), String(last.id)) : null };
  }

  /** The log, each event redacted for this caller as of now (a scored deal has no secrets left). */
  async events(id: string, viewer: Viewer, after: number, limit: number): Promise<EventPage> {
    // Caught up with the log first (another instance may have appended), so that `version` is the
    // log's and redaction uses the newest state: a deal scored by now has no secrets left.
    const latest = await this.streams.load(id, true);
    if (!latest) throw notFound(id);
    const stored = await this.store.readStream(id, { after, limit: limit + 1 });
    const page = stored.slice(0, limit);
    const pinned = page.find((e) => e.version === latest.checkpoint);
    return {
      events: page.map((e) => storedEventView(e, viewer, latest)),
      version: latest.version,
      next: stored.length > limit ? page[page.length - 1].version : null,
      checkpoint: { version: latest.checkpoint, hash: pinned ? pinned.hash : await this.store.hashAt(id, latest.checkpoint) },
    };
  }

  private async doc(sql: string, params: unknown[], id: string): Promise<Versioned<unknown>> {
    const rows: { version: number; doc: unknown }[] = await this.db.query(sql, params);
    if (rows.length === 0) throw notFound(id);
    return { version: rows[0].version, body: rows[0].doc };
  }
}

function notFound(id: string): ProblemException {
  return new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
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
  };
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

/** The `created_at` text of a list row (to_char above): UTC, microseconds. */
const CURSOR_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;

/**
 * Only what encodeCursor makes: a time of exactly the list's format that names a real instant (no
 * 2020-02-30, which JavaScript would roll over and PostgreSQL refuses), and a match id.
 */
function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(value) && value.length === 2 && isCursorTime(value[0])) return [value[0], parseMatchId(value[1])];
  } catch {
    // fall through to the problem below
  }
  throw new ProblemException('VALIDATION_FAILED', 'cursor is not one this service handed out.');
}

function isCursorTime(value: unknown): value is string {
  const m = typeof value === 'string' ? CURSOR_TIME.exec(value) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return year >= 1970 && at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}
