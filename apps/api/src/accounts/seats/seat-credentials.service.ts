import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../platform/config/app.config';
import { MatchCache } from '../../platform/cache/match-cache';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { EventStore } from '@bismarck/event-store';
import { MatchReader, SecretReader, type SeatCredentialRow } from '@bismarck/projections';
import type { Seat } from '@bismarck/rules';
import { bearerOf } from '../../platform/edge/caller';
import { ProblemException } from '../../platform/problem/problem';
import { looksLikeJwt } from '../players/oidc';
import { PlayerCredentials } from '../players/player-credentials.service';
import { hashToken, SEAT_TOKEN_PREFIX } from '../tokens';

export interface IssuedToken {
  seat: Seat;
  token: string;
  hash: string;
}

/** What an opaque token (a seat's, a player's) may look like; anything else is refused before any lookup. */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

/** A live player token whose player holds no seat of the match: a spectator there, refused where a seat acts. */
export const NOT_SEATED = Symbol('not seated');

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

  constructor(
    store: EventStore,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
    private readonly players: PlayerCredentials,
  ) {
    this.secrets = new SecretReader(store.queryable);
    this.matches = new MatchReader(store.queryable);
    this.hashesByMatch = new MatchCache(config.stateCacheSize);
  }

  issue(seats: readonly Seat[] = [0, 1, 2]): IssuedToken[] {
    return seats.map((seat) => {
      const token = SEAT_TOKEN_PREFIX + randomBytes(24).toString('base64url');
      return { seat, token, hash: hashToken(token) };
    });
  }

  /** `full`: no seat is open (bot seats, which have no token, count as taken). */
  remember(matchId: string, issued: readonly Pick<IssuedToken, 'seat' | 'hash'>[], full = issued.length === 3): void {
    if (!full) {
      this.hashesByMatch.delete(matchId); // a lobby table: read the seats from the database until full
      return;
    }
    const hashes: (Buffer | null)[] = [null, null, null];
    for (const t of issued) hashes[t.seat] = Buffer.from(t.hash, 'hex');
    this.hashesByMatch.set(matchId, hashes);
  }

  /**
   * A rematch's credentials (docs/clients.md, "Rematch"): each of `seats` keeps in `to` the token hash
   * it has in `from`, so the token its person holds acts there too. Only hashes are read and written:
   * no token is known here, and none travels in the log or a stream.
   */
  async carriedOver(from: string, to: string, seats: readonly Seat[]): Promise<SeatCredentialRow[]> {
    const rows = await this.secrets.tokenHashes(from);
    return rows.filter((r) => seats.includes(r.seat as Seat)).map((r) => ({ match_id: to, seat: r.seat as Seat, token_hash: r.token_hash }));
  }

  /**
   * The seat this bearer token acts for in this match. Null without a token (a spectator). A player
   * token (or, with OIDC_ISSUER, a JWT of that issuer) acts for the seat bound to its player
   * (docs/players.md), else answers NOT_SEATED; it is looked up in the database each time, so a
   * revoked one is refused at once on every instance. 401 for an unknown token, 403 for a token of
   * another match, 404 for an unknown match.
   */
  async seatFor(matchId: string, authorization: string | undefined): Promise<Seat | null | typeof NOT_SEATED> {
    if (authorization === undefined || authorization === '') return null;
    const token = bearerOf(authorization);
    // A JWT has dots and may be long: it goes to PlayerCredentials, never to the seat tokens' lookups.
    if (token !== undefined && looksLikeJwt(token)) {
      const player = await this.players.playerOf(token);
      if (player === null) throw new ProblemException('UNAUTHORIZED', 'Unknown seat token.');
      return this.seatOfPlayer(matchId, player);
    }
    if (token === undefined || !OPAQUE_TOKEN.test(token)) throw new ProblemException('UNAUTHORIZED', 'Send the seat token as "Authorization: Bearer <token>".');
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
    const player = await this.players.playerOf(token);
    if (player !== null) return this.seatOfPlayer(matchId, player);
    if (await this.secrets.tokenElsewhere(presented.toString('hex'))) throw new ProblemException('FORBIDDEN', 'This token belongs to another match.');
    throw new ProblemException('UNAUTHORIZED', 'Unknown seat token.');
  }

  /** The seat of the match bound to this player; NOT_SEATED when it holds none; 404 for an unknown match. */
  private async seatOfPlayer(matchId: string, player: string): Promise<Seat | typeof NOT_SEATED> {
    const seat = await this.matches.seatOfPlayer(matchId, player);
    if (seat !== null) return seat;
    if (!(await this.matches.exists(matchId))) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
    return NOT_SEATED;
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
