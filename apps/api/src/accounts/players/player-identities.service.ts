import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { EventStore } from '@bismarck/event-store';
import { PlayerReader } from '@bismarck/projections';
import { appConfig } from '../../platform/config/app.config';
import { ProblemException } from '../../platform/problem/problem';
import { IdentityProviderUnavailable } from './issuer-keys';
import { identityPlayerId, IdentityRefused, looksLikeJwt, OIDC_CLOCK_TOLERANCE_S, OIDC_DEFAULT_NAME, OidcVerifier, type VerifiedIdentity } from './oidc';
import { PlayerAccounts } from './player-accounts.service';

/**
 * The players of an OpenID Connect issuer (OIDC_ISSUER): a JWT of that issuer is verified, and its
 * identity's first use registers the account. Without OIDC_ISSUER no JWT is anyone's.
 */
@Injectable()
export class PlayerIdentities {
  private readonly oidc: OidcVerifier | null;
  private readonly reader: PlayerReader;
  private readonly logger = new Logger('PlayerIdentities');

  constructor(
    store: EventStore,
    private readonly accounts: PlayerAccounts,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.oidc = config.oidc ? new OidcVerifier(config.oidc) : null;
    this.reader = new PlayerReader(store.queryable);
  }

  /** Whether this may be a JWT this deployment takes (before any check). */
  takes(credential: string): boolean {
    return this.oidc !== null && looksLikeJwt(credential);
  }

  /**
   * The player of a JWT, registered at its first use. A JWT the issuer check refuses is a 401 with the
   * reason; one whose account was deleted is a 401 too (it is not registered again); an issuer that
   * cannot be asked is a 503.
   */
  async playerOf(jwt: string): Promise<string | null> {
    if (!this.takes(jwt)) return null;
    let identity: VerifiedIdentity;
    try {
      identity = await this.oidc!.verify(jwt);
    } catch (error) {
      if (error instanceof IdentityRefused) throw new ProblemException('UNAUTHORIZED', error.message);
      if (error instanceof IdentityProviderUnavailable) {
        this.logger.warn(error.message);
        throw new ProblemException('SERVICE_UNAVAILABLE', 'The identity provider cannot be reached to check the token; try again shortly.', { retryAfter: error.retryAfter });
      }
      throw error;
    }
    return this.registered(identity);
  }

  /** The player of a JWT without registering anyone, or null for any failure (the rate limits' and streams' view). */
  async knownPlayerOf(jwt: string): Promise<{ playerId: string; expiresAt: number } | null> {
    if (!this.takes(jwt)) return null;
    const identity = await this.oidc!.verify(jwt).catch(() => null);
    // Taken until its expiry plus the clock tolerance (oidc.ts): ended then, not sooner, or a reconnection would be taken again.
    return identity && { playerId: identityPlayerId(identity.issuer, identity.subject), expiresAt: identity.expiresAt + OIDC_CLOCK_TOLERANCE_S * 1000 };
  }

  /**
   * The account of an identity, registered at its first use. Its id is derived from the issuer and
   * subject, and the registration appends at "no stream": of two first uses at once (two instances),
   * one appends and the other finds the account there.
   */
  private async registered(identity: VerifiedIdentity): Promise<string> {
    const id = identityPlayerId(identity.issuer, identity.subject);
    const row = await this.reader.profile(id);
    if (!row) {
      const registered = await this.accounts.registerIdentity(id, identity.name ?? OIDC_DEFAULT_NAME, { issuer: identity.issuer, subject: identity.subject }).then(
        () => true,
        (error: unknown) => {
          // Registered meanwhile by another request: it is there now, and may be deleted already.
          if (error instanceof ProblemException && error.code === 'CONCURRENT_UPDATE') return false;
          throw error;
        },
      );
      if (registered) return id;
    }
    if ((row ?? (await this.reader.profile(id)))?.deleted) throw new ProblemException('UNAUTHORIZED', "This identity's player account was deleted; it is not registered again.");
    return id;
  }
}
