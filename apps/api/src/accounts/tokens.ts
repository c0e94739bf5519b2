import { createHash } from 'node:crypto';

/** A seat token's prefix (SeatCredentials issues them). */
export const SEAT_TOKEN_PREFIX = 'bsk_';
/** A player's personal access token (players/player-accounts.service.ts issues them): the prefix tells it from a seat token, and secret scanners can look for it. */
export const PLAYER_TOKEN_PREFIX = 'bskp_';

/** What is kept of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
