import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { randomBytes, randomUUID } from 'node:crypto';
import { ConcurrencyError, EventStore } from '@bismarck/event-store';
import { decidePlayer, PlayerRuleViolation, type PlayerCommand, type PlayerErrorCode } from '@bismarck/players';
import {
  finishedMatchesOfPlayer,
  foldPlayerEvents,
  matchesOfPlayer,
  NO_FOLDED_PLAYER,
  PLAYER_PROJECT_FUNCTION,
  PlayerReader,
  projectPlayer,
  type PlayerMatchPosition,
  type PlayerProfileRow,
  type PlayerProjectionArgument,
} from '@bismarck/projections';
import { MatchCache } from '../../platform/cache/match-cache';
import { decodeCursor, encodeCursor } from '../../platform/http/page-cursor';
import { ProblemException, type ProblemCode } from '../../platform/problem/problem';
import { RatingsService } from '../ratings/ratings.service';
import { appConfig } from '../../platform/config/app.config';
import { hashToken, PLAYER_TOKEN_PREFIX } from '../tokens';
import { IdentityProviderUnavailable } from './issuer-keys';
import { identityPlayerId, IdentityRefused, looksLikeJwt, OIDC_CLOCK_TOLERANCE_S, OIDC_DEFAULT_NAME, OidcVerifier, type VerifiedIdentity } from './oidc';
import { isAccountEntry, type AccountEntry, type PlayerEntry } from '../names/seat-names.validator';
import type { Triple } from '@bismarck/rules';


export interface NewToken {
  token: string;
  tokenId: string;
}
export interface PlayerCreated extends NewToken {
  id: string;
  name: string;
}
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

/**
 * Each refusal of the account rules as the HTTP contract answers it. Every command but a registration
 * acts for the caller's own account, found by its credential: one decided after the account's deletion
 * (a request racing `DELETE /api/players/me`) is answered as the same credential is a moment later,
 * 401, not a 404 the operations do not declare.
 */
const PROBLEM_OF: Record<PlayerErrorCode, ProblemCode> = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  PLAYER_EXISTS: 'CONCURRENT_UPDATE',
  PLAYER_NOT_FOUND: 'PLAYER_NOT_FOUND',
  PLAYER_DELETED: 'UNAUTHORIZED',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  TOKEN_NOT_FOUND: 'TOKEN_NOT_FOUND',
};

/** The `detail` of a refusal whose rules' message does not say it as the client should read it. */
const DETAIL_OF = {
  PLAYER_NOT_FOUND: (id: string) => `There is no player ${id}.`,
  PLAYER_DELETED: () => 'Unknown or revoked player token: the account was deleted.',
} satisfies Partial<Record<PlayerErrorCode, (id: string) => string>>;

const OWNER_MEMORY_MS = 10_000;

/**
 * What may be a player's credential, before any lookup: a personal access token (`bskp_…`) or a JWT
 * (which only a deployment with OIDC_ISSUER takes; without it, it is refused like any unknown token).
 */
/** A player credential's end: its player's stream, its token id (a personal access token) or its expiry (a JWT). */
export interface CredentialLife {
  playerId: string;
  tokenId: string | null;
  expiresAt: number | null;
}

/** Whether these events of a player's stream refuse the credential from then on. */
export const endsCredential = (life: CredentialLife, events: readonly { type: string; data: unknown }[]): boolean =>
  events.some((e) => e.type === 'PlayerDeleted' || (e.type === 'TokenRevoked' && life.tokenId !== null && (e.data as { tokenId?: unknown }).tokenId === life.tokenId));

export const isPlayerCredential = (token: string): boolean => token.startsWith(PLAYER_TOKEN_PREFIX) || looksLikeJwt(token);

const newToken = (): NewToken & { hash: string } => {
  const token = PLAYER_TOKEN_PREFIX + randomBytes(24).toString('base64url');
  return { token, tokenId: `tok_${randomBytes(9).toString('base64url')}`, hash: hashToken(token) };
};

/**
 * Player accounts (docs/players.md): each command reads the player's stream, lets the account rules
 * decide, and appends at the version it read, with the inline projection (`players`, and the token
 * hashes beside the log) in the same transaction. Accounts change seldom: a lost race is simply
 * decided again once.
 */
@Injectable()
export class PlayersService {
  private readonly reader: PlayerReader;
  /** The rate limits' view of credentials' owners (by hash), a few seconds old at most: counting needs no fresher. */
  private readonly ownersForLimits = new MatchCache<{ player: string | null; until: number }>(10_000);
  private readonly oidc: OidcVerifier | null;
  private readonly logger = new Logger('PlayersService');

  constructor(
    private readonly store: EventStore,
    private readonly ratings: RatingsService,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.reader = new PlayerReader(store.queryable);
    this.oidc = config.oidc ? new OidcVerifier(config.oidc) : null;
  }

  async register(name: string): Promise<PlayerCreated> {
    const id = `pl-${randomUUID()}`;
    const issued = newToken();
    await this.write(id, { type: 'registerPlayer', playerId: id, name, tokenId: issued.tokenId }, issued.hash);
    return { id, name, token: issued.token, tokenId: issued.tokenId };
  }

  async rename(id: string, name: string): Promise<PlayerProfile> {
    await this.write(id, { type: 'renamePlayer', name });
    return this.profile(id);
  }

  async issueToken(id: string): Promise<NewToken> {
    const issued = newToken();
    await this.write(id, { type: 'issueToken', tokenId: issued.tokenId }, issued.hash);
    return { token: issued.token, tokenId: issued.tokenId };
  }

  async revokeToken(id: string, tokenId: string): Promise<void> {
    await this.write(id, { type: 'revokeToken', tokenId });
  }

  async delete(id: string): Promise<void> {
    await this.write(id, { type: 'deletePlayer' });
  }

  async profile(id: string): Promise<PlayerProfile> {
    const row = await this.reader.profile(id);
    if (!row) throw new ProblemException('PLAYER_NOT_FOUND', `There is no player ${id}.`);
    return { ...profileOf(row, await finishedMatchesOfPlayer(this.store.queryable, id)), rating: await this.ratings.ratingOf(id) };
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
    const identity = await this.oidc?.verify(token).catch(() => null);
    return identity ? identityPlayerId(identity.issuer, identity.subject) : null;
  }

  /**
   * The player a bearer credential acts for, or null (not a player's credential, unknown or revoked):
   * the one place a request's credential becomes a player (PlayerGuard, seats, the lobby's join, a
   * creation's bound seats). A personal access token is looked up by its hash; a JWT of the
   * deployment's OpenID Connect issuer is verified, and its identity's first use registers the
   * account. A JWT the issuer check refuses is a 401 with the reason; one whose account was deleted
   * is a 401 too (the account is not registered again); an issuer that cannot be asked is a 503.
   */
  async playerOf(credential: string): Promise<string | null> {
    if (credential.startsWith(PLAYER_TOKEN_PREFIX)) return (await this.reader.tokenOwner(hashToken(credential)))?.playerId ?? null;
    if (this.oidc === null || !looksLikeJwt(credential)) return null;
    let identity: VerifiedIdentity;
    try {
      identity = await this.oidc.verify(credential);
    } catch (error) {
      if (error instanceof IdentityRefused) throw new ProblemException('UNAUTHORIZED', error.message);
      if (error instanceof IdentityProviderUnavailable) {
        this.logger.warn(error.message);
        throw new ProblemException('SERVICE_UNAVAILABLE', 'The identity provider cannot be reached to check the token; try again shortly.', { retryAfter: error.retryAfter });
      }
      throw error;
    }
    return this.identityPlayer(identity);
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
    if (this.oidc === null || !looksLikeJwt(credential)) return null;
    const identity = await this.oidc.verify(credential).catch(() => null);
    // Taken until its expiry plus the clock tolerance (oidc.ts): ended then, not sooner, or a reconnection would be taken again.
    return identity && { playerId: identityPlayerId(identity.issuer, identity.subject), tokenId: null, expiresAt: identity.expiresAt + OIDC_CLOCK_TOLERANCE_S * 1000 };
  }

  /**
   * The account of an identity, registered at its first use. Its id is derived from the issuer and
   * subject, and the registration appends at "no stream": of two first uses at once (two instances),
   * one appends and the other finds the account there.
   */
  private async identityPlayer(identity: VerifiedIdentity): Promise<string> {
    const id = identityPlayerId(identity.issuer, identity.subject);
    for (let attempt = 0; ; attempt++) {
      const row = await this.reader.profile(id);
      if (row?.deleted) throw new ProblemException('UNAUTHORIZED', "This identity's player account was deleted; it is not registered again.");
      if (row) return id;
      try {
        const command: PlayerCommand = { type: 'registerPlayer', playerId: id, name: identity.name ?? OIDC_DEFAULT_NAME, identity: { issuer: identity.issuer, subject: identity.subject } };
        await this.write(id, command);
        return id;
      } catch (error) {
        // Another request registered it meanwhile (CONCURRENT_UPDATE): read it again, once.
        if (!(error instanceof ProblemException) || error.code !== 'CONCURRENT_UPDATE' || attempt > 0) throw error;
      }
    }
  }

  private async write(id: string, command: PlayerCommand, tokenHash?: string, attempt = 0): Promise<void> {
    const stored = await this.store.readStream(id);
    const known = foldPlayerEvents(NO_FOLDED_PLAYER, stored);
    let events;
    try {
      events = decidePlayer(command, known.state);
    } catch (error) {
      if (!(error instanceof PlayerRuleViolation)) throw error;
      throw new ProblemException(PROBLEM_OF[error.code], DETAIL_OF[error.code as keyof typeof DETAIL_OF]?.(id) ?? error.message);
    }
    if (events.length === 0) return;
    const at = new Date().toISOString();
    const folded = foldPlayerEvents(known, events.map((e, i) => ({ ...e, version: known.version + 1 + i, recordedAt: at })));
    const issued = events.find((e) => e.type === 'TokenIssued');
    const arg: PlayerProjectionArgument = {
      player: projectPlayer(id, folded)!,
      ...(issued && tokenHash ? { token: { token_hash: tokenHash, player_id: id, token_id: issued.data.tokenId, created_at: at } } : {}),
      ...(command.type === 'revokeToken' ? { revoked: [command.tokenId] } : {}),
    };
    try {
      await this.store.append(id, known.version, events.map((e) => ({ ...e, metadata: { at } })), { inline: { fn: PLAYER_PROJECT_FUNCTION, arg } });
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (attempt > 0 || command.type === 'registerPlayer') throw new ProblemException('CONCURRENT_UPDATE', 'The account changed while this was decided; send it again.');
      return this.write(id, command, tokenHash, attempt + 1);
    }
  }
}

/** Only what `matches` hands out: [yourTurn, the database's text of a time, a match id]. */
const matchPosition = (key: unknown[]): PlayerMatchPosition | null =>
  key.length === 3 && typeof key[0] === 'boolean' && typeof key[1] === 'string' && /^\d{4}-\d\d-\d\d [\d:.]+\+00$/.test(key[1]) && typeof key[2] === 'string' && /^[0-9a-f-]{36}$/.test(key[2])
    ? { yourTurn: key[0], updatedAt: key[1], id: key[2] }
    : null;

const profileOf = (row: PlayerProfileRow, matches: number): Omit<PlayerProfile, 'rating'> => ({
  id: row.id,
  name: row.name,
  matches,
  deleted: row.deleted,
  createdAt: row.createdAt,
});
