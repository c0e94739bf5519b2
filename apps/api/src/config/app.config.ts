import { registerAs } from '@nestjs/config';
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
  /** A pause before each bot move (0: at once), for people who like to watch. */
  botDelayMs: number;
  /** How often this process looks for bot turns nobody took (a wake-up lost to a crash or an outage); 0: only at start-up. */
  botSweepMs: number;
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
    botDelayMs: envInteger('BOT_DELAY_MS', 0, 0, 60_000),
    botSweepMs: envInteger('BOT_SWEEP_MS', 10_000, 0, 86_400_000),
  };
});
