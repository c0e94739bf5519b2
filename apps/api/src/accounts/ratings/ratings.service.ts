import { Injectable } from '@nestjs/common';
import { EventStore, rowsOf } from '@bismarck/event-store';
import { BOT_PREFIX, DEFAULT_RATING, ratingView, type RatingView } from '@bismarck/ratings';
import { decodeCursor, encodeCursor } from '../../platform/http/page-cursor';

export interface RatingItem {
  id: string;
  name: string;
  rating: RatingView;
  matches: number;
}
export interface RatingPage {
  items: RatingItem[];
  nextCursor: string | null;
}

/** The rating before a first rated match: OpenSkill's prior. */
export const PRIOR_VIEW: RatingView = ratingView(DEFAULT_RATING);

/** "Strong bot" for `bot:strong`. */
export const botName = (id: string): string => {
  const kind = id.slice(BOT_PREFIX.length);
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} bot`;
};

/** The ratings table as the leaderboard reads it (the projector writes it: ratings.projector.ts). */
@Injectable()
export class RatingsService {
  constructor(private readonly store: EventStore) {}

  /** Best ordinal first, ties by id in code-point order; keyset pages after (ordinal, id). */
  async list(limit: number, cursor?: string): Promise<RatingPage> {
    const after = cursor === undefined ? null : decodeCursor(cursor, ratingPosition);
    const rows = rowsOf(
      await this.store.queryable.query(
        `SELECT r.id, r.mu, r.sigma, r.ordinal, r.matches, p.name, p.deleted
           FROM ratings r LEFT JOIN players p ON p.id = r.id
          WHERE $1::float8 IS NULL OR r.ordinal < $1::float8 OR (r.ordinal = $1::float8 AND r.id COLLATE "C" > $2::text COLLATE "C")
          ORDER BY r.ordinal DESC, r.id COLLATE "C"
          LIMIT $3`,
        [after?.[0] ?? null, after?.[1] ?? null, limit + 1],
      ),
    );
    const items = rows.slice(0, limit).map((r) => ({
      id: String(r.id),
      name: nameOf(String(r.id), r.name === null ? null : String(r.name), r.deleted === true),
      rating: { mu: Number(r.mu), sigma: Number(r.sigma), ordinal: Number(r.ordinal) },
      matches: Number(r.matches),
    }));
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor([last.rating.ordinal, last.id]) : null };
  }

  /** An identity's rating, the prior before its first rated match. */
  async ratingOf(id: string): Promise<RatingView> {
    const [row] = rowsOf(await this.store.queryable.query(`SELECT mu, sigma, ordinal FROM ratings WHERE id = $1`, [id]));
    return row ? { mu: Number(row.mu), sigma: Number(row.sigma), ordinal: Number(row.ordinal) } : PRIOR_VIEW;
  }
}

const nameOf = (id: string, name: string | null, deleted: boolean): string =>
  id.startsWith(BOT_PREFIX) ? botName(id) : deleted || name === null ? 'deleted player' : name;

/** Only what list() hands out: a finite ordinal and an id. */
const ratingPosition = (key: unknown[]): [number, string] | null =>
  key.length === 2 && Number.isFinite(key[0]) && typeof key[1] === 'string' && key[1].length <= 100 ? [key[0] as number, key[1]] : null;
