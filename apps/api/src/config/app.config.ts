import { registerAs } from '@nestjs/config';

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

function integer(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Configuration from the environment, validated once at start-up. */
export const appConfig = registerAs('app', (): AppConfig => {
  const adminToken = process.env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 16) throw new Error('ADMIN_TOKEN must be at least 16 characters');
  return {
    port: integer('PORT', 3000, 0, 65535),
    adminToken,
    logLevel: process.env.LOG_LEVEL || 'info',
    bodyLimit: process.env.BODY_LIMIT || '16kb',
    stateCacheSize: integer('STATE_CACHE_SIZE', 10_000, 0, 10_000_000),
  };
});
