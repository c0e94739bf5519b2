import { registerAs } from '@nestjs/config';

/** What faces client developers: live streams, rate limits, CORS. Read from the environment once. */
export interface EdgeConfig {
  /** A comment line on every open event stream this often, so proxies keep it open. */
  sseKeepAliveMs: number;
  /** Requests per window per seat token (Authorization: Bearer …); 0 turns the limit off. */
  rateLimitPerToken: number;
  /** Requests per window per client address; 0 turns the limit off. */
  rateLimitPerAddress: number;
  rateLimitWindowMs: number;
  /** Origins allowed by CORS: null = CORS off (no headers), ['*'] = any origin. */
  corsOrigins: string[] | null;
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

export function readEdgeConfig(): EdgeConfig {
  const cors = (process.env.CORS_ORIGINS ?? '').trim();
  return {
    sseKeepAliveMs: integer('SSE_KEEPALIVE_MS', 15_000, 100, 3_600_000),
    rateLimitPerToken: integer('RATE_LIMIT_PER_TOKEN', 30_000, 0, 100_000_000),
    rateLimitPerAddress: integer('RATE_LIMIT_PER_ADDRESS', 120_000, 0, 100_000_000),
    rateLimitWindowMs: integer('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    corsOrigins: cors === '' ? null : cors.split(',').map((o) => o.trim()).filter(Boolean),
  };
}

export const edgeConfig = registerAs('edge', readEdgeConfig);
