// The next match with the same players, bots and options. "Play again" asks for it
// (`POST …/rematch`); when another seat asked first, the finished match's stream carries
// `RematchOffered { matchId }` and a page that watched the match end asks too, with its own token: the
// service answers the same new match (never a credential: the token the page asked with acts for its
// seat there too), and the page moves to that table.
import { call } from './api.js';
import { el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { showProblem } from './notice.js';
import { isPlayerToken } from './player.js';
import { rememberInTab } from './seats.js';
/** @import { RematchCreated, SeatView } from '../../pages/assets/types' */

let moving = false;

/** Asks for the rematch with this seat's token and opens its table (once, however many times it is told). @param {string} id @param {string} token */
export async function rematch(id, token) {
  if (moving) return;
  moving = true;
  try {
    const next = /** @type {RematchCreated} */ (await call('POST', `/api/matches/${encodeURIComponent(id)}/rematch`, { token }));
    const table = `/play/${encodeURIComponent(next.id)}`;
    // Asked with the player's token: the new table finds that token as the player's.
    if (isPlayerToken(token)) return location.assign(table);
    // As from the lobby: the new table finds the seat's token in this tab's storage, else in the fragment.
    location.assign(rememberInTab(next.id, token) ? table : `${table}#token=${encodeURIComponent(token)}`);
  } catch (error) {
    moving = false;
    throw error;
  }
}

/**
 * The end of a finished match: "Play again" (the same players, bots and options at a new table), or,
 * once a rematch was asked for (a page opened after the others moved on), the way to it.
 * @param {HTMLElement} box @param {SeatView} view @param {{ id: string, token: string }} seat
 */
export function renderPlayAgain(box, view, { id, token }) {
  const label = view.rematch ? t('join-rematch') : t('play-again');
  const drawn = box.querySelector('#playAgain');
  if (drawn) return void (drawn.textContent = label); // kept: its request may be on its way
  const again = el('button', { id: 'playAgain', type: 'button', onclick: () => {
    again.disabled = true;
    rematch(id, token).catch((error) => {
      showProblem(error);
      again.disabled = false;
    });
  } }, label);
  box.replaceChildren(
    el('p', {}, t('match-over-below')),
    el('div', { class: 'row' }, again, el('a', { href: '/play' }, t('or-new-match'))),
  );
}

/** A stream message (an event, RematchOffered's data naming the rematch) or a state (its `rematch`). @typedef {{ type?: unknown, data?: { matchId?: unknown } | null, rematch?: unknown }} RematchMessage */

/**
 * The id of the rematch a stream message or a state offers, or null.
 * @param {RematchMessage | null} message
 * @returns {string | null}
 */
export function offeredRematch(message) {
  if (message?.type === 'RematchOffered') return typeof message.data?.matchId === 'string' ? message.data.matchId : null;
  return typeof message?.rematch === 'string' ? message.rematch : null;
}
