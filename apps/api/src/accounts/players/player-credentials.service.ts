import { Injectable } from '@nestjs/common';
import { EventStore } from '@bismarck/event-store';
import { PlayerReader } from '@bismarck/projections';
import type { Triple } from '@bismarck/rules';
import { MatchCache } from '../../platform/cache/match-cache';
import { ProblemException } from '../../platform/problem/problem';
import { isAccountEntry, type AccountEntry, type PlayerEntry } from '../names/seat-names.validator';
import { hashToken, PLAYER_TOKEN_PREFIX } from '../tokens';
import { looksLikeJwt } from './oidc';
import { PlayerIdentities } from './player-identities.service';

const OWNER_MEMORY_MS = 10_000;

/** A player credential's end: its player's stream, its token id (a personal access token) or its expiry (a JWT). */
export interface CredentialLife {
  playerId: string;
  tokenId: string | null;
  expiresAt: number | null;
}

/** Whether these events of a player's stream refuse the credential from then on. */
export const endsCredential = (life: CredentialLife, events: readonly { type: string; data: unknown }[]): boolean =>
  events.some((e) => e.type === 'PlayerDeleted' || (e.type === 'TokenRevoked' && life.tokenId !== null && (e.data as { tokenId?: unknown }).tokenId === life.tokenId));

/**
 * What may be a player's credential, before any lookup: a personal access token (`bskp_…`) or a JWT
 * (which only a deployment with OIDC_ISSUER takes; without it, it is refused like any unknown token).
 */
export const isPlayerCredential = (token: string): boolean => token.startsWith(PLAYER_TOKEN_PREFIX) || looksLikeJwt(token);

/**
 * The one place a request's credential becomes a player (PlayerGuard, seats, the lobby's join, a
 * creation's bound seats, the rate limits, live streams). A personal access token is looked up by
 * its hash; a JWT goes to PlayerIdentities.
 */
@Injectable()
export class PlayerCredentials {
  private readonly reader: PlayerReader;
  /** The rate limits' view of credentials' owners (by hash), a few seconds old at most: counting needs no fresher. */
  private readonly ownersForLimits = new MatchCache<{ player: string | null; until: number }>(10_000);

  constructor(
    store: EventStore,
    private readonly identities: PlayerIdentities,
  ) {
    this.reader = new PlayerReader(store.queryable);
  }

  /** The player a bearer credential acts for, or null (not a player's credential, unknown or revoked). */
  async playerOf(credential: string): Promise<string | null> {
    if (credential.startsWith(PLAYER_TOKEN_PREFIX)) return (await this.reader.tokenOwner(hashToken(credential)))?.playerId ?? null;
    return this.identities.playerOf(credential);
  }

  /**
   * The player a request binds seats to: the caller's own, by its token. 401 without a live player
   * token; 403 when `wanted` names another player (nobody seats someone else's account).
   */
  async caller(token: string | undefined, wanted: readonly string[]): Promise<{ id: string; name: string }> {
    const id = token === undefined ? null : await this.playerOf(token);
    if (id === null) throw new ProblemException('UNAUTHORIZED', 'Binding a seat to a player account needs that player\'s token: send "Authorization: Bearer <player token>".');
    if (wanted.some((w) => w !== id)) throw new ProblemException('FORBIDDEN', 'A seat can be bound only to the caller\'s own player account.');
    const profile = await this.reader.profile(id);
    return { id, name: profile!.name };
  }

  /**
   * A creation's `players` entries with each `{ player }` bound to the caller (named after the
   * account); the others as they are. Only a request that binds a seat needs a player token.
   */
  async bindEntries(entries: readonly (PlayerEntry | AccountEntry)[], token: string | undefined): Promise<Triple<PlayerEntry>> {
    const wanted = entries.flatMap((e) => (isAccountEntry(e) ? [e.player] : []));
    const caller = wanted.length > 0 ? await this.caller(token, wanted) : null;
    return entries.map((e) => (isAccountEntry(e) ? { account: caller!.id, name: caller!.name } : e)) as Triple<PlayerEntry>;
  }

  /**
   * For the per-player rate limits, before any route runs: the player a credential acts for,
   * remembered for OWNER_MEMORY_MS (a revoked token is still refused at once by the routes, which ask
   * the table). A seat token answers at once, without a query; a JWT is verified, never registered
   * here; any failure counts the request as no player's.
   */
  playerForLimits(token: string): string | null | Promise<string | null> {
    if (!isPlayerCredential(token)) return null;
    const hash = hashToken(token);
    const known = this.ownersForLimits.get(hash);
    if (known && known.until > Date.now()) return known.player;
    return this.ownerForLimits(token, hash).then((player) => {
      this.ownersForLimits.set(hash, { player, until: Date.now() + OWNER_MEMORY_MS });
      return player;
    });
  }

  private async ownerForLimits(token: string, hash: string): Promise<string | null> {
    if (token.startsWith(PLAYER_TOKEN_PREFIX)) return (await this.reader.tokenOwner(hash))?.playerId ?? null;
    return (await this.identities.knownPlayerOf(token))?.playerId ?? null;
  }

  /**
   * What ends a live stream opened with this player credential (docs/players.md, "Tokens"): the player's
   * events that refuse it from then on (this token's TokenRevoked, the account's PlayerDeleted) and, for a
   * JWT, its expiry. Null for a credential that is no player's (a seat token), or no longer one. Nothing
   * is registered here: the stream's seat was found with playerOf first.
   */
  async credentialLife(credential: string): Promise<CredentialLife | null> {
    if (credential.startsWith(PLAYER_TOKEN_PREFIX)) {
      const owner = await this.reader.tokenOwner(hashToken(credential));
      return owner && { playerId: owner.playerId, tokenId: owner.tokenId, expiresAt: null };
    }
    const known = await this.identities.knownPlayerOf(credential);
    return known && { playerId: known.playerId, tokenId: null, expiresAt: known.expiresAt };
  }
}
