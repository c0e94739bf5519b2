import { Injectable } from '@nestjs/common';
import { EventStore } from '@bismarck/event-store';
import { finishedMatchesOfPlayer, matchesOfPlayer, PlayerReader, type PlayerMatchPosition } from '@bismarck/projections';
import { decodeCursor, encodeCursor } from '../../platform/http/page-cursor';
import { ProblemException } from '../../platform/problem/problem';
import { RatingsService } from '../ratings/ratings.service';

export interface PlayerMatch {
  id: string;
  seat: number;
  status: string;
  yourTurn: boolean;
  opponents: { seat: number; name: string | null; bot: string | null; player?: string }[];
  updatedAt: string;
}
export interface PlayerMatchPage {
  items: PlayerMatch[];
  nextCursor: string | null;
}

export interface PlayerProfile {
  id: string;
  name: string;
  rating: { mu: number; sigma: number; ordinal: number };
  matches: number;
  deleted: boolean;
  createdAt: string;
}

/** What is read of accounts: a profile, and the matches a player sits in. */
@Injectable()
export class PlayerQueries {
  private readonly reader: PlayerReader;

  constructor(
    private readonly store: EventStore,
    private readonly ratings: RatingsService,
  ) {
    this.reader = new PlayerReader(store.queryable);
  }

  async profile(id: string): Promise<PlayerProfile> {
    const row = await this.reader.profile(id);
    if (!row) throw new ProblemException('PLAYER_NOT_FOUND', `There is no player ${id}.`);
    const matches = await finishedMatchesOfPlayer(this.store.queryable, id);
    return { id: row.id, name: row.name, matches, deleted: row.deleted, createdAt: row.createdAt, rating: await this.ratings.ratingOf(id) };
  }

  /** The matches the player's seats are bound in (`status`: playing includes waiting lobby tables), its turns first. */
  async matches(id: string, status: 'playing' | 'finished' | undefined, limit: number, cursor?: string): Promise<PlayerMatchPage> {
    if (!(await this.reader.profile(id))) throw new ProblemException('PLAYER_NOT_FOUND', `There is no player ${id}.`);
    const statuses = status === 'playing' ? ['waiting', 'playing'] : status === 'finished' ? ['finished'] : null;
    const page = await matchesOfPlayer(this.store.queryable, id, statuses, limit, cursor === undefined ? undefined : decodeCursor(cursor, matchPosition));
    return {
      items: page.items.map(({ seats, ...m }) => ({ ...m, opponents: seats.filter((s) => s.seat !== m.seat) })),
      nextCursor: page.next ? encodeCursor([page.next.yourTurn, page.next.updatedAt, page.next.id]) : null,
    };
  }
}

/** Only what `matches` hands out: [yourTurn, the database's text of a time, a match id]. */
const matchPosition = (key: unknown[]): PlayerMatchPosition | null =>
  key.length === 3 && typeof key[0] === 'boolean' && typeof key[1] === 'string' && /^\d{4}-\d\d-\d\d [\d:.]+\+00$/.test(key[1]) && typeof key[2] === 'string' && /^[0-9a-f-]{36}$/.test(key[2])
    ? { yourTurn: key[0], updatedAt: key[1], id: key[2] }
    : null;
