import { rowsOf, type Queryable, type StoredEvent } from '@bismarck/event-store';
import { evolvePlayer, NO_PLAYER, shownName, type PlayerEvent, type PlayerState } from '@bismarck/players';
import type { PlayerRow } from './tables';

/** A player's stream folded: its state, its version and when it began and last changed. */
export interface FoldedPlayer {
  state: PlayerState;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const NO_FOLDED_PLAYER: FoldedPlayer = { state: NO_PLAYER, version: 0, createdAt: '', updatedAt: '' };

/** `known` with the stream's next events folded on. */
export function foldPlayerEvents(known: FoldedPlayer, events: readonly Pick<StoredEvent, 'type' | 'data' | 'version' | 'recordedAt'>[]): FoldedPlayer {
  let { state, version, createdAt, updatedAt } = known;
  for (const e of events) {
    if (e.version !== version + 1) throw new Error(`player stream: version ${e.version} after ${version}`);
    state = evolvePlayer(state, { type: e.type, data: e.data } as PlayerEvent);
    version = e.version;
    if (createdAt === '') createdAt = e.recordedAt;
    updatedAt = e.recordedAt;
  }
  return { state, version, createdAt, updatedAt };
}

/** The `players` row of a folded account (null before it is registered). */
export function projectPlayer(id: string, folded: FoldedPlayer): PlayerRow | null {
  const name = shownName(folded.state);
  if (name === null) return null;
  return { id, version: folded.version, name, deleted: folded.state.status === 'deleted', created_at: folded.createdAt, updated_at: folded.updatedAt };
}

/** A player's public profile as the projection holds it. */
export interface PlayerProfileRow {
  id: string;
  name: string;
  deleted: boolean;
  createdAt: string;
}

/** The reads of accounts: profiles, and the player a token acts for. */
export class PlayerReader {
  constructor(private readonly db: Queryable) {}

  async profile(id: string): Promise<PlayerProfileRow | null> {
    const [row] = rowsOf(await this.db.query(`SELECT id, name, deleted, created_at FROM players WHERE id = $1`, [id]));
    return row ? { id: String(row.id), name: String(row.name), deleted: row.deleted === true, createdAt: new Date(String(row.created_at)).toISOString() } : null;
  }

  /** The player whose live token has this SHA-256 (hex), with the token's id; null for none (unknown or revoked). */
  async tokenOwner(tokenHash: string): Promise<{ playerId: string; tokenId: string } | null> {
    const [row] = rowsOf(await this.db.query(`SELECT player_id, token_id FROM player_tokens WHERE token_hash = $1`, [tokenHash]));
    return row ? { playerId: String(row.player_id), tokenId: String(row.token_id) } : null;
  }
}

/** A match a player sits in, as "my matches" lists it. */
export interface PlayerMatchRow {
  id: string;
  seat: number;
  status: string;
  yourTurn: boolean;
  seats: { seat: number; name: string | null; bot: string | null; player?: string }[];
  updatedAt: string;
}

/** Where a page of a player's matches ends: its last row's order key. */
export interface PlayerMatchPosition {
  yourTurn: boolean;
  updatedAt: string;
  id: string;
}

/**
 * The matches a player's seats are bound in, found in the public views (a seat's `player`, under a
 * GIN index of `doc->'seats'`): those where it is the player's turn first, then the latest moved.
 */
export async function matchesOfPlayer(
  db: Queryable,
  playerId: string,
  statuses: readonly string[] | null,
  limit: number,
  after?: PlayerMatchPosition,
): Promise<{ items: PlayerMatchRow[]; next: PlayerMatchPosition | null }> {
  const rows = rowsOf(
    await db.query(
      `SELECT * FROM (
         SELECT l.id, (s->>'seat')::int AS seat, l.status, (v.doc->'turn' = s->'seat') AS your_turn, v.doc->'seats' AS seats,
                l.updated_at, l.updated_at::text AS updated_text
           FROM match_views v
           JOIN match_list l ON l.id = v.match_id
           CROSS JOIN LATERAL jsonb_array_elements(v.doc->'seats') s
          WHERE v.doc->'seats' @> jsonb_build_array(jsonb_build_object('player', $1::text))
            AND s->>'player' = $1
            AND ($2::text[] IS NULL OR l.status = ANY($2::text[]))) m
        WHERE $4::boolean IS NULL OR (m.your_turn::int, m.updated_at, m.id) < ($4::boolean::int, $5::timestamptz, $6::text)
        ORDER BY m.your_turn DESC, m.updated_at DESC, m.id DESC
        LIMIT $3`,
      [playerId, statuses, limit + 1, after ? after.yourTurn : null, after?.updatedAt ?? null, after?.id ?? null],
    ),
  );
  const page = rows.slice(0, limit).map((r) => ({
    id: String(r.id),
    seat: Number(r.seat),
    status: String(r.status),
    yourTurn: r.your_turn === true,
    seats: r.seats as PlayerMatchRow['seats'],
    updatedAt: new Date(String(r.updated_at)).toISOString(),
    text: String(r.updated_text),
  }));
  const last = page.at(-1);
  return {
    items: page.map(({ text: _text, ...item }) => item),
    next: rows.length > limit && last ? { yourTurn: last.yourTurn, updatedAt: last.text, id: last.id } : null,
  };
}

/** How many finished matches the player sat in. */
export async function finishedMatchesOfPlayer(db: Queryable, playerId: string): Promise<number> {
  const [row] = rowsOf(
    await db.query(
      `SELECT count(*)::int AS n FROM match_views v JOIN match_list l ON l.id = v.match_id
        WHERE v.doc->'seats' @> jsonb_build_array(jsonb_build_object('player', $1::text)) AND l.status = 'finished'`,
      [playerId],
    ),
  );
  return Number(row.n);
}
