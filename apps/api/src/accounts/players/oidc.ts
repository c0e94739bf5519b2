import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { errors, jwtVerify } from 'jose';
import type { OidcConfig } from '../../platform/config/app.config';
import { IdentityProviderUnavailable, IssuerKeys, RETRY_AFTER_MS } from './issuer-keys';
import { isPlayerName } from '../names/seat-names.validator';

/**
 * Sign-in with the deployment's OpenID Connect provider (docs/players.md, "Signing in with an identity
 * provider"): a bearer JWT of `OIDC_ISSUER` for `OIDC_AUDIENCE` acts as a player. The issuer's keys are
 * found by discovery (`/.well-known/openid-configuration` → `jwks_uri`) at the first such token, and
 * fetched again when they grow old or a token names a key not among them (a rotation): issuer-keys.ts.
 */

/** A compact JWS (three base64url parts): what a JWT looks like, told apart from the opaque `bsk_`/`bskp_` tokens by its dots. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const looksLikeJwt = (token: string): boolean => token.length <= 16_384 && JWT_SHAPE.test(token);

/** Asymmetric signatures only: never `none`, never an HMAC (whose key would be a secret shared with every client). */
export const OIDC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Clocks of the issuer and this service may differ by this much (`exp`, `nbf`, `iat`). */
export const OIDC_CLOCK_TOLERANCE_S = 30;
/** The name of an account whose token names none that fits a player's name. */
export const OIDC_DEFAULT_NAME = 'Player';

/** Who a verified token names: the issuer's opaque subject id and the name it suggests (validated), or null. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  name: string | null;
  /** When the token stops being accepted (its `exp`, in ms since the epoch). */
  expiresAt: number;
}

/** A token this service does not take (answered 401, with `message` as the detail). */
export class IdentityRefused extends Error {}

/** UUID version 5 (RFC 9562 §5.5) of `name` in this service's namespace. */
function uuidV5(name: string): string {
  const NAMESPACE = Buffer.from('0d9a3b4e5c6f4a7b8c9d0e1f2a3b4c5d', 'hex'); // Bismarck's OIDC identities; never change it
  const bytes = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The player id of an identity: the same on every instance and at every sign-in, so that two first
 * uses at once register one account (the second append finds the stream there). A version-5 UUID
 * never equals the version-4 ones of accounts registered with POST /api/players.
 */
export const identityPlayerId = (issuer: string, subject: string): string => `pl-${uuidV5(JSON.stringify([issuer, subject]))}`;

/** The name an account registered from a token starts with: `name`, else `preferred_username`, if it is a valid player name. */
export function suggestedName(claims: Record<string, unknown>): string | null {
  for (const claim of ['name', 'preferred_username']) {
    const value = claims[claim];
    if (typeof value === 'string' && isPlayerName(value.trim())) return value.trim();
  }
  return null;
}

/** One attempt to reach the issuer (discovery, when due, and its keys) waits at most this long. */
export const OIDC_FETCH_TIMEOUT_MS = 3_000;
/** The discovery document is read again after this long: its `jwks_uri` seldom changes. */
export const OIDC_DISCOVERY_MAX_AGE_MS = 24 * 60 * 60_000;

/** Verifies JWTs of the configured issuer. One per process; the key set is shared by every request. */
export class OidcVerifier {
  private readonly keys: IssuerKeys;
  private discovered: { jwksUri: URL; at: number } | null = null;
  private readonly logger = new Logger('OidcVerifier');

  constructor(private readonly config: OidcConfig) {
    this.keys = new IssuerKeys((signal) => this.loadKeys(signal), {
      windowMs: config.jwksCooldownMs,
      maxAgeMs: config.jwksMaxAgeMs,
      timeoutMs: OIDC_FETCH_TIMEOUT_MS,
      retryAfterMs: RETRY_AFTER_MS,
    });
  }

  async verify(token: string): Promise<VerifiedIdentity> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.keys.getKey, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: OIDC_ALGORITHMS,
        clockTolerance: OIDC_CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      throw refusalOf(error);
    }
    // jose checks `iat` only against a maximum age: a token issued in the future is refused here (beyond the same tolerance).
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + OIDC_CLOCK_TOLERANCE_S) throw new IdentityRefused('The identity token is not valid yet (iat).');
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255) throw new IdentityRefused('The identity token names no subject (sub).');
    return { issuer: this.config.issuer, subject, name: suggestedName(payload), expiresAt: (payload.exp as number) * 1000 };
  }

  /** The issuer's key set, from the `jwks_uri` of its discovery document (read at the first fetch, then once a day). */
  private async loadKeys(signal: AbortSignal): Promise<unknown> {
    const uri = await this.jwksUri(signal);
    let res: Response;
    try {
      res = await fetch(uri, { headers: { accept: 'application/jwk-set+json, application/json' }, redirect: 'manual', signal });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return await res.json();
    } catch (error) {
      throw new Error(`The issuer's keys at ${uri} could not be fetched: ${(error as Error).message}`);
    }
  }

  private async jwksUri(signal: AbortSignal): Promise<URL> {
    const known = this.discovered;
    if (known && Date.now() - known.at < OIDC_DISCOVERY_MAX_AGE_MS) return known.jwksUri;
    try {
      this.discovered = { jwksUri: await this.discover(signal), at: Date.now() };
      return this.discovered.jwksUri;
    } catch (error) {
      if (!known) throw error;
      // Read again later; the keys are where they were until the issuer says otherwise.
      this.logger.warn(`${(error as Error).message}; the keys are fetched from ${known.jwksUri} meanwhile`);
      this.discovered = { jwksUri: known.jwksUri, at: Date.now() - OIDC_DISCOVERY_MAX_AGE_MS + 60 * 60_000 };
      return known.jwksUri;
    }
  }

  private async discover(signal: AbortSignal): Promise<URL> {
    const where = `${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(where, { headers: { accept: 'application/json' }, signal });
      if (!res.ok) throw new Error(`status ${res.status}`);
      document = (await res.json()) as typeof document;
    } catch (error) {
      throw new Error(`OpenID Connect discovery at ${where} failed: ${(error as Error).message}`);
    }
    // OpenID Connect Discovery 1.0 §4.3: the document must name exactly the issuer it was fetched for.
    if (document.issuer !== this.config.issuer) throw new Error(`The discovery document at ${where} names another issuer: ${JSON.stringify(document.issuer)}`);
    if (typeof document.jwks_uri !== 'string') throw new Error(`The discovery document at ${where} has no jwks_uri`);
    const jwksUri = new URL(document.jwks_uri);
    if (jwksUri.protocol !== 'https:' && new URL(this.config.issuer).protocol === 'https:') throw new Error(`The jwks_uri of ${where} is not https`);
    return jwksUri;
  }
}

/** What a failed verification tells the client (nothing of the token itself), or that the issuer could not be asked. */
function refusalOf(error: unknown): Error {
  if (error instanceof IdentityProviderUnavailable) return error;
  if (error instanceof errors.JWTExpired) return new IdentityRefused('The identity token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new IdentityRefused(`The identity token is not from this deployment's issuer.`);
    if (error.claim === 'aud') return new IdentityRefused('The identity token is not meant for this service (aud).');
    if (error.claim === 'nbf' || error.claim === 'iat') return new IdentityRefused('The identity token is not valid yet.');
    return new IdentityRefused(`The identity token's ${error.claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new IdentityRefused('The identity token must be signed with an asymmetric algorithm (RS*, PS*, ES*, EdDSA).');
  if (error instanceof errors.JWKSNoMatchingKey) return new IdentityRefused("The identity token is signed with a key the issuer does not publish.");
  if (error instanceof errors.JWSSignatureVerificationFailed) return new IdentityRefused("The identity token's signature does not verify.");
  if (!(error instanceof errors.JOSEError)) return new IdentityProviderUnavailable(`The token could not be checked: ${(error as Error).message}`, RETRY_AFTER_MS / 1000);
  return new IdentityRefused('The identity token is malformed or unsupported.');
}
