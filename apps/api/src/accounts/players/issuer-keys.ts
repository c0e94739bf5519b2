import { createLocalJWKSet, errors, type CryptoKey, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { MatchCache } from '../../platform/cache/match-cache';

/**
 * The signing keys of one issuer, as issuers rotate them (docs/players.md, "Key rotation"):
 * - a key id the set does not hold is looked for in a set fetched after its token arrived: fetches begin
 *   at most once per `windowMs` (every token waiting then shares the one fetch), so forged key ids
 *   cannot make the service hammer the issuer, and a key published right after a forger's fetch is
 *   found at the next window, not refused for a long cooldown;
 * - a key id such a fetch did not hold is refused without any fetch for UNKNOWN_KEY_MS (per algorithm
 *   and key id, so a forged token cannot get a real key refused by naming it with another algorithm);
 * - the set is fetched again once older than `maxAgeMs` (a key the issuer removed stops working);
 * - a fetch that fails or takes longer than `timeoutMs` makes the issuer unavailable: every token that
 *   needs it is answered at once (503, Retry-After) for `retryAfterMs`, then one fetch in the background
 *   tries it again while tokens are still answered at once, until it answers. Keys already fetched and
 *   still fresh keep working meanwhile.
 *
 * jose's `createRemoteJWKSet` has a cooldown, a maximum age and a timeout, but within its cooldown a
 * new key id is refused rather than looked for at the window's end, and it cannot tell whether its set
 * was fetched after a given token arrived, which the negative cache needs: so the fetching is here and
 * jose chooses the key in the set (`createLocalJWKSet`).
 */
export interface IssuerKeySettings {
  /** At most one fetch begins per this long (a token naming an unknown key waits for the next one). */
  windowMs: number;
  /** A set older than this is fetched again before it is used. */
  maxAgeMs: number;
  /** One attempt (discovery and keys together) waits at most this long. */
  timeoutMs: number;
  /** After a failed attempt, the issuer is answered as unavailable this long before it is tried again (RETRY_AFTER_MS). */
  retryAfterMs: number;
}

/** An unknown key id, once a set fetched after its token arrived did not hold it, is refused this long without a fetch. */
export const UNKNOWN_KEY_MS = 60_000;
/** After a failed attempt, the issuer is answered as unavailable this long before it is tried again. */
export const RETRY_AFTER_MS = 5_000;
/** The unknown key ids remembered (least recently seen forgotten first): forged ids cannot grow memory. */
const UNKNOWN_KEYS_KEPT = 10_000;

/** The issuer could not be asked (discovery or keys): nothing is known about the token (answered 503). */
export class IdentityProviderUnavailable extends Error {
  constructor(
    message: string,
    /** Seconds until the issuer is tried again. */
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

type LocalSet = ReturnType<typeof createLocalJWKSet>;

export class IssuerKeys {
  private set: { local: LocalSet; fetchedFrom: number } | null = null;
  private pending: { startedAt: number; done: Promise<void> } | null = null;
  private lastStart = -Infinity;
  private down: { until: number; reason: string } | null = null;
  /** `alg kid` → until when it is refused without a fetch. */
  private readonly unknown = new MatchCache<number>(UNKNOWN_KEYS_KEPT);

  /** @param load fetches the key set (discovery included), giving up when `signal` aborts. */
  constructor(
    private readonly load: (signal: AbortSignal) => Promise<unknown>,
    private readonly settings: IssuerKeySettings,
  ) {}

  /** For jose's `jwtVerify`: the key the token names, or JWKSNoMatchingKey, or IdentityProviderUnavailable. */
  readonly getKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    const seen = Date.now();
    const which = `${header.alg} ${header.kid ?? ''}`;
    if ((this.unknown.get(which) ?? 0) > seen) throw new errors.JWKSNoMatchingKey();
    await this.fetchedSince(seen - this.settings.maxAgeMs);
    try {
      return await this.set!.local(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
    }
    // Not in the set: it may be newer than the set. A set fetched after this token arrived says.
    await this.fetchedSince(seen);
    try {
      return await this.set!.local(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) this.unknown.set(which, Date.now() + UNKNOWN_KEY_MS);
      throw error;
    }
  };

  /**
   * Returns once the set comes from a fetch begun at `since` or later: one already begun, or one
   * begun as soon as the window allows. Throws IdentityProviderUnavailable at once while the issuer
   * is down, or after the one bounded wait of the fetch that found it down.
   */
  private async fetchedSince(since: number): Promise<void> {
    for (;;) {
      if (this.set && this.set.fetchedFrom >= since) return;
      if (this.pending && this.pending.startedAt >= since) {
        await this.pending.done;
        continue;
      }
      if (this.down) {
        this.probe();
        throw new IdentityProviderUnavailable(this.down.reason, Math.max(1, Math.ceil((this.down.until - Date.now()) / 1000)));
      }
      if (this.pending) {
        await this.pending.done.catch(() => undefined);
        continue;
      }
      const wait = this.lastStart + this.settings.windowMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else await this.begin();
    }
  }

  /** Tries a down issuer again, in the background, once its `retryAfterMs` have passed. */
  private probe(): void {
    if (this.pending === null && this.down !== null && this.down.until <= Date.now()) this.begin().catch(() => undefined);
  }

  private begin(): Promise<void> {
    const startedAt = Date.now();
    this.lastStart = startedAt;
    const done: Promise<void> = this.load(AbortSignal.timeout(this.settings.timeoutMs))
      .then((jwks) => createLocalJWKSet(jwks as JSONWebKeySet))
      .then(
        (local) => {
          if (!this.set || this.set.fetchedFrom < startedAt) this.set = { local, fetchedFrom: startedAt };
          this.down = null;
        },
        (error: unknown) => {
          const reason = error instanceof errors.JWKSInvalid ? `The issuer's key set is malformed: ${error.message}` : (error as Error).message;
          this.down = { until: Date.now() + this.settings.retryAfterMs, reason };
          throw new IdentityProviderUnavailable(reason, Math.max(1, Math.ceil(this.settings.retryAfterMs / 1000)));
        },
      )
      .finally(() => {
        if (this.pending?.done === done) this.pending = null;
      });
    this.pending = { startedAt, done };
    return done;
  }
}
