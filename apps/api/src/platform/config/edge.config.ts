import { registerAs } from '@nestjs/config';
import { isIP } from 'node:net';
import { envInteger, SettingError } from './env';

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
   * Express's `trust proxy`: the proxies whose X-Forwarded-For names the client the limits count, as
   * the number of them in front of the service or their exact addresses; false: none (parseTrustProxy).
   */
  trustProxy: TrustProxy;
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
    trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
  };
});

/** None, a hop count, or exact addresses: the forms of Express's `trust proxy` that no client can fall inside. */
export type TrustProxy = false | number | string[];

/** More proxies than any deployment chains in front of one service: a larger count is a typo. */
const MAX_HOPS = 10;

/**
 * TRUST_PROXY: unset, empty, `false` or `0` (no proxy: X-Forwarded-For is ignored), the number of
 * proxies in front (`1` behind one nginx: the address it appends is the client's), or a comma-separated
 * list of their exact IPv4/IPv6 addresses. A range or a name (`10.0.0.0/8`, `loopback`, `uniquelocal`)
 * is refused: a client inside it, such as another container on the proxy's network, would be trusted
 * as a proxy and choose, by the X-Forwarded-For it sends, the address every per-address limit counts.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= MAX_HOPS) return hops;
    throw new SettingError(`TRUST_PROXY must be the number of proxies in front of the service (at most ${MAX_HOPS}) or their addresses, got "${raw}"`);
  }
  const addresses = raw.split(',').map((a) => a.trim());
  const wrong = addresses.filter((a) => isIP(a) === 0 || a.includes('%'));
  if (wrong.length === 0) return addresses;
  throw new SettingError(
    `TRUST_PROXY must be the number of proxies in front of the service or a comma-separated list of their exact IP addresses, got "${raw}": ` +
      `${wrong.map((w) => `"${w}"`).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} no IP address, and a range or a name (loopback, uniquelocal, a subnet) would trust ` +
      'every client inside it to name its own address in X-Forwarded-For. Write the hop count instead, e.g. TRUST_PROXY=1 behind one nginx, ' +
"or the proxy's own address, e.g. TRUST_PROXY=10.0.0.5",
  );
}
