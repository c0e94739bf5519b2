import { registerAs } from '@nestjs/config';
import { envInteger } from './env';

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

export function readEdgeConfig(): EdgeConfig {
  const cors = (process.env.CORS_ORIGINS ?? '').trim();
  return {
    sseKeepAliveMs: envInteger('SSE_KEEPALIVE_MS', 15_000, 100, 3_600_000),
    rateLimitPerToken: envInteger('RATE_LIMIT_PER_TOKEN', 30_000, 0, 100_000_000),
    rateLimitPerAddress: envInteger('RATE_LIMIT_PER_ADDRESS', 120_000, 0, 100_000_000),
    rateLimitWindowMs: envInteger('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    corsOrigins: cors === '' ? null : cors.split(',').map((o) => o.trim()).filter(Boolean),
  };
}

export const edgeConfig = registerAs('edge', readEdgeConfig);
