// The player's account as this browser holds it (docs/players.md): one `bskp_` token in local storage
// (`bismarck.player`), sent only in the Authorization header of this origin's API calls, never in an
// address. Unlike a seat's token it acts for every seat bound to the player, on any device.
import { call, refusesToken } from './api.js';
import { attempt } from './seats.js';

const KEY = 'bismarck.player';

/** @import { PlayerProfile } from '../../pages/assets/types' */
/** The player signed in on this browser: its token, and who it is (`GET /api/players/me`). @typedef {{ token: string, me: PlayerProfile }} Player */

/** A player's token (a seat's is `bsk_…`): the page never puts it in a seat's link or a seat's storage. @param {unknown} token */
export const isPlayerToken = (token) => typeof token === 'string' && token.startsWith('bskp_');

// Without storage the token is held by this page only (a reload signs out).
/** @type {string | null} */
let held = null;

/** The token this browser holds, if any. */
export const playerToken = () => attempt(() => localStorage.getItem(KEY), null) ?? held;

/** @param {string} token */
export function rememberPlayer(token) {
  held = token;
  attempt(() => localStorage.setItem(KEY, token), undefined);
}

/** Whether the token is in the browser's storage (a table opened next finds it there). */
export const playerKept = () => attempt(() => localStorage.getItem(KEY) !== null, false);

/** Sign out: the token is forgotten in this browser (it still works wherever else it is kept). */
export function forgetPlayer() {
  held = null;
  attempt(() => localStorage.removeItem(KEY), undefined);
}

/**
 * Who the token belongs to (`GET /api/players/me`). A token the service refuses (unknown, revoked, a
 * deleted account) is forgotten, and the refusal thrown for the caller to show.
 * @param {string} token
 * @returns {Promise<Player>}
 */
export async function checkPlayer(token) {
  try {
    return { token, me: /** @type {PlayerProfile} */ (await call('GET', '/api/players/me', { token })) };
  } catch (error) {
    if (refusesToken(error)) forgetPlayer();
    throw error;
  }
}

/** The player signed in on this browser, or null (none, or the token was refused: then forgotten). */
export async function signedInPlayer() {
  const token = playerToken();
  if (!token) return null;
  try {
    return await checkPlayer(token);
  } catch (error) {
    if (refusesToken(error)) return null;
    throw error;
  }
}
