import { registerAs } from '@nestjs/config';
import { envInteger } from './env';

/** What faces client developers: live streams, rate limits, CORS. Read from the environment once. */
export interface EdgeConfig {
  /** A comment line on every open event stream this often, so proxies keep it open. */
  sseKeepAliveMs: number;
  /**
   * How long after MatchFinished a finished match's live streams stay open for its RematchOffered
   * (docs/clients.md, "Rematch"); 0 ends them at MatchFinished.
   */
  rematchWindowMs: number;
  /** Requests per window per seat token (Authorization: Bearer …); 0 turns the limit off. */
  rateLimitPerToken: number;
  /** Requests per window per client address; 0 turns the limit off. */
  rateLimitPerAddress: number;
  rateLimitWindowMs: number;
  /** Match creations per window per client address (on top of the request limits); 0 turns it off. */
  createsPerAddress: number;
  /** Requests, and creations, per window per player account (all its tokens together); 0 turns a limit off. */
  rateLimitPerPlayer: number;
  createsPerPlayer: number;
  /** Whole-match reads (audit, export, notation) per window per client address (on top of the request limits); 0 turns it off. */
  wholeMatchReadsPerAddress: number;
  /**
   * Presence (docs/architecture.md, "Presence"): how often an instance renews its `seat_presence` rows
   * and reads the presence of the matches it streams again; a row not renewed for three of these runs out.
   */
  presenceHeartbeatMs: number;
  /** Open live streams per client address and per seat token, in one process; 0 turns a limit off. */
  streamsPerAddress: number;
  streamsPerToken: number;
  /** A client must send its request's headers within this, and the whole request within the next. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Origins allowed by CORS: null = CORS off (no headers), ['*'] = any origin. */
  corsOrigins: string[] | null;
  /**
   * Express's `trust proxy`: the proxies (a hop count, or addresses, subnets and names such as
   * `loopback` or `uniquelocal`) whose X-Forwarded-For names the client the limits count; false: none.
   */
  trustProxy: false | number | string;
}

/** Read through Nest only, like appConfig: `@Inject(edgeConfig.KEY)` or `app.get(edgeConfig.KEY)`. */
export const edgeConfig = registerAs('edge', (): EdgeConfig => {
  const cors = (process.env.CORS_ORIGINS ?? '').trim();
  return {
    sseKeepAliveMs: envInteger('SSE_KEEPALIVE_MS', 15_000, 100, 3_600_000),
    rematchWindowMs: envInteger('REMATCH_WINDOW_MS', 300_000, 0, 86_400_000),
    presenceHeartbeatMs: envInteger('PRESENCE_HEARTBEAT_MS', 10_000, 100, 600_000),
    rateLimitPerToken: envInteger('RATE_LIMIT_PER_TOKEN', 30_000, 0, 100_000_000),
    rateLimitPerAddress: envInteger('RATE_LIMIT_PER_ADDRESS', 120_000, 0, 100_000_000),
    rateLimitWindowMs: envInteger('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    createsPerAddress: envInteger('RATE_LIMIT_CREATES_PER_ADDRESS', 60, 0, 100_000_000),
    // A player's tokens together: as much as one token, so that twenty tokens do not buy twenty times the limit.
    rateLimitPerPlayer: envInteger('RATE_LIMIT_PER_PLAYER', 30_000, 0, 100_000_000),
    createsPerPlayer: envInteger('RATE_LIMIT_CREATES_PER_PLAYER', 60, 0, 100_000_000),
    // Each reads and checks a whole log: up to ~35 ms of the api's thread for a 12-deal match, a
    // hundred commands' worth. 600 a minute is 10 a second from one address.
    wholeMatchReadsPerAddress: envInteger('RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS', 600, 0, 100_000_000),
    streamsPerAddress: envInteger('STREAMS_PER_ADDRESS', 200, 0, 1_000_000),
    streamsPerToken: envInteger('STREAMS_PER_TOKEN', 8, 0, 1_000_000),
    headersTimeoutMs: envInteger('HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: envInteger('REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    corsOrigins: cors === '' ? null : cors.split(',').map((o) => o.trim()).filter(Boolean),
    trustProxy: envTrustProxy(),
  };
});

function envTrustProxy(): false | number | string {
  const raw = (process.env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}
