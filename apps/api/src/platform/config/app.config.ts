import { registerAs } from '@nestjs/config';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';
import { envInteger, SettingError } from './env';

export interface AppConfig {
  port: number;
  /** Bearer token for the admin routes; the routes answer 404 when it is unset. */
  adminToken: string | null;
  logLevel: string;
  /** Largest accepted JSON body. */
  bodyLimit: string;
  /** Folded match states kept in memory per api process. */
  stateCacheSize: number;
  /** Append statements in flight at once; appends arriving meanwhile wait and share the next one. */
  appendsInFlight: number;
  /** A lobby table with open seats and no change for this long is abandoned; 0: never. */
  lobbyTtlMs: number;
  /** How often this process looks for such tables. */
  lobbySweepMs: number;
  /** Worker threads for bot decisions (0: decide in the main thread). */
  botThreads: number;
  /** How much lower the bot threads' OS priority is than the event loop's (nice increment, 0–19). */
  botNice: number;
  /** A pause before each bot move (0: at once), for people who like to watch. */
  botDelayMs: number;
  /**
   * A pause before a bot takes the four table cards (its discard) in a match a person sits in, so the
   * person sees them; 0: none. Counted from the move that made the discard due.
   */
  botTableCardsPauseMs: number;
  /** How often this process looks for bot turns nobody took (a wake-up lost to a crash or an outage); 0: only at start-up. */
  botSweepMs: number;
  /** How often this process looks for turn clocks that ran out (on any instance's matches). */
  clockSweepMs: number;
  /** How long after the database was away nobody is timed out: its outage must not cost a person the turn. */
  clockOutageGraceMs: number;
  /** The strategy that stands in for a person whose clock ran out or who is away. */
  standInBot: StrategyName;
  /**
   * Live matches with a strong bot seat one caller (a player account, else a client address) may have
   * created at once, per process; 0: no cap (docs/bots.md, "Fair shares").
   */
  strongBotMatchesPerCaller: number;
  /** An OpenID Connect issuer whose JWTs act as players (docs/players.md, "Signing in with an identity provider"); null: none. */
  oidc: OidcConfig | null;
}

export interface OidcConfig {
  /** `OIDC_ISSUER`: the issuer's identifier, exactly as its tokens' `iss` and its discovery document's `issuer` say it. */
  issuer: string;
  /** `OIDC_AUDIENCE`: the `aud` values a token must carry one of (comma-separated: a client id, an API's resource id). */
  audience: string[];
  /** How long the issuer's keys are used before they are fetched again: a key the issuer removed stops working within this. */
  jwksMaxAgeMs: number;
  /** A token signed with a key not in the fetched set waits for the next fetch of the keys; fetches begin at most this often (players/issuer-keys.ts). */
  jwksCooldownMs: number;
}

/**
 * Configuration from the environment, validated once at start-up (when the app is created). Read it
 * one way, through Nest, as this config and edgeConfig are everywhere: `@Inject(appConfig.KEY)`,
 * `inject: [appConfig.KEY]`, or `app.get(appConfig.KEY)` once the app exists. Calling appConfig()
 * would read the environment again, past the validated copy.
 */
export const appConfig = registerAs('app', (): AppConfig => {
  const adminToken = process.env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 16) throw new SettingError('ADMIN_TOKEN must be at least 16 characters');
  return {
    port: envInteger('PORT', 3000, 0, 65535),
    adminToken,
    logLevel: process.env.LOG_LEVEL || 'info',
    bodyLimit: process.env.BODY_LIMIT || '16kb',
    stateCacheSize: envInteger('STATE_CACHE_SIZE', 10_000, 0, 10_000_000),
    // 1 makes the largest batches: least CPU per command in the api and PostgreSQL, and the most
    // commands per second at 16 clients (2 and 4 measured 7–11 % fewer; docs/performance.md).
    appendsInFlight: envInteger('APPENDS_IN_FLIGHT', 1, 1, 64),
    lobbyTtlMs: envInteger('LOBBY_TTL_MS', 86_400_000, 0, 31_536_000_000),
    lobbySweepMs: envInteger('LOBBY_SWEEP_MS', 60_000, 50, 86_400_000),
    botThreads: envInteger('BOT_THREADS', 1, 0, 64),
    // Bots think with the CPU the requests leave: a person's command never waits for a core behind them.
    botNice: envInteger('BOT_NICE', 10, 0, 19),
    botDelayMs: envInteger('BOT_DELAY_MS', 0, 0, 60_000),
    botTableCardsPauseMs: envInteger('BOT_TABLE_CARDS_PAUSE_MS', 1_500, 0, 60_000),
    botSweepMs: envInteger('BOT_SWEEP_MS', 10_000, 0, 86_400_000),
    // Short: a stand-in's move is due within a second of the deadline, on whichever instance sweeps first.
    clockSweepMs: envInteger('CLOCK_SWEEP_MS', 100, 50, 60_000),
    clockOutageGraceMs: envInteger('CLOCK_OUTAGE_GRACE_MS', 10_000, 0, 600_000),
    standInBot: standInBot(process.env.STAND_IN_BOT || 'strong'),
    strongBotMatchesPerCaller: envInteger('STRONG_BOT_MATCHES_PER_CALLER', 4, 0, 1_000_000),
    oidc: oidcConfig(),
  };
});

function oidcConfig(): OidcConfig | null {
  const issuer = (process.env.OIDC_ISSUER ?? '').trim();
  const audience = (process.env.OIDC_AUDIENCE ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (issuer === '') {
    if (audience.length > 0) throw new SettingError('OIDC_AUDIENCE is set without OIDC_ISSUER');
    return null;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new SettingError(`OIDC_ISSUER must be a URL, got "${issuer}"`);
  }
  // Keys fetched over plain HTTP could be anyone's: only a provider on this machine may go without TLS.
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new SettingError('OIDC_ISSUER must be an https URL (http only on localhost)');
  if (url.search !== '' || url.hash !== '') throw new SettingError('OIDC_ISSUER must have no query nor fragment');
  // Without an audience, a token the issuer made for any other application would act here too.
  if (audience.length === 0) throw new SettingError('OIDC_AUDIENCE is required with OIDC_ISSUER: the client id (or API identifier) the tokens are issued for');
  return {
    issuer,
    audience,
    jwksMaxAgeMs: envInteger('OIDC_JWKS_MAX_AGE_MS', 600_000, 1_000, 86_400_000),
    jwksCooldownMs: envInteger('OIDC_JWKS_COOLDOWN_MS', 1_000, 0, 60_000),
  };
}

function standInBot(name: string): StrategyName {
  if (!(STRATEGIES as readonly string[]).includes(name)) throw new SettingError(`STAND_IN_BOT must be one of ${STRATEGIES.join(', ')}`);
  return name as StrategyName;
}
