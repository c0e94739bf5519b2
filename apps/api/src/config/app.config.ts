import { registerAs } from '@nestjs/config';
import { envInteger } from './env';

export interface AppConfig {
  port: number;
  /** Bearer token for the admin routes; the routes answer 404 when it is unset. */
  adminToken: string | null;
  logLevel: string;
  /** Largest accepted JSON body. */
  bodyLimit: string;
  /** Folded match states kept in memory per api process. */
  stateCacheSize: number;
}

/** Configuration from the environment, validated once at start-up. */
export const appConfig = registerAs('app', (): AppConfig => {
  const adminToken = process.env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 16) throw new Error('ADMIN_TOKEN must be at least 16 characters');
  return {
    port: envInteger('PORT', 3000, 0, 65535),
    adminToken,
    logLevel: process.env.LOG_LEVEL || 'info',
    bodyLimit: process.env.BODY_LIMIT || '16kb',
    stateCacheSize: envInteger('STATE_CACHE_SIZE', 10_000, 0, 10_000_000),
  };
});
