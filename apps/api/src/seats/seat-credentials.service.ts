import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/app.config';
import { MatchCache } from '../matches/match-cache';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EventStore } from '@bismarck/event-store';
import { MatchReader, SecretReader } from '@bismarck/projections';
import type { Seat } from '@bismarck/rules';
import { bearerOf } from '../edge/caller';
import { ProblemException } from '../problem/problem';

export interface IssuedToken {
  seat: Seat;
  token: string;
  hash: string;
}

const TOKEN_PREFIX = 'bsk_';

/**
 * Seat tokens: 192 random bits, shown once, stored only as SHA-256 hashes, and compared in constant
 * time against all three seats of the match (no early exit that would tell which seat came close).
 */
@Injectable()
export class SeatCredentials {
  /** Per match, the token hash of each seat (null: an open seat). Kept only once all three are taken. */
  private readonly hashesByMatch: MatchCache<(Buffer | null)[]>;
  private readonly secrets: SecretReader;
  private readonly matches: MatchReader;

  constructor(store: EventStore, @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.secrets = new SecretReader(store.queryable);
    this.matches = new MatchReader(store.queryable);
    this.hashesByMatch = new MatchCache(config.stateCacheSize);
  }

  issue(seats: readonly Seat[] = [0, 1, 2]): IssuedToken[] {
    return seats.map((seat) => {
      const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
      return { seat, token, hash: hashToken(token) };
    });
  }

  /** `full`: no seat is open (bot seats, which have no token, count as taken). */
  remember(matchId: string, issued: IssuedToken[], full = issued.length === 3): void {
    if (!full) {
      this.hashesByMatch.delete(matchId); // a lobby table: read the seats from the database until full
      return;
    }
    const hashes: (Buffer | null)[] = [null, null, null];
    for (const t of issued) hashes[t.seat] = Buffer.from(t.hash, 'hex');
    this.hashesByMatch.set(matchId, hashes);
  }

  /**
   * The seat this bearer token acts for in this match. Null without a token (a spectator).
   * 401 for an unknown token, 403 for a token of another match, 404 for an unknown match.
   */
  async seatFor(matchId: string, authorization: string | undefined): Promise<Seat | null> {
    if (authorization === undefined || authorization === '') return null;
    const token = bearerOf(authorization);
    if (token === undefined || !/^[A-Za-z0-9_-]{1,200}$/.test(token)) throw new ProblemException('UNAUTHORIZED', 'Send the seat token as "Authorization: Bearer <token>".');
    const presented = Buffer.from(hashToken(token), 'hex');
    const hashes = await this.hashesOf(matchId);
    if (hashes.every((h) => h === null) && !(await this.matches.exists(matchId))) {
      throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
    }
    let seat: Seat | null = null;
    hashes.forEach((hash, i) => {
      if (hash !== null && timingSafeEqual(hash, presented)) seat = i as Seat;
    });
    if (seat !== null) return seat;
    if (await this.secrets.tokenElsewhere(presented.toString('hex'))) throw new ProblemException('FORBIDDEN', 'This token belongs to another match.');
    throw new ProblemException('UNAUTHORIZED', 'Unknown seat token.');
  }

  private async hashesOf(matchId: string): Promise<(Buffer | null)[]> {
    const known = this.hashesByMatch.get(matchId);
    if (known) return known;
    const rows = await this.secrets.tokenHashes(matchId);
    const hashes: (Buffer | null)[] = [null, null, null];
    for (const r of rows) hashes[r.seat] = Buffer.from(r.token_hash, 'hex');
    if (rows.length === 3) this.hashesByMatch.set(matchId, hashes);
    return hashes;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
