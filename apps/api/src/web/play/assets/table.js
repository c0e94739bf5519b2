// The table of the seat whose token this page holds: drawn from the seat's view, live. Its parts:
// table-state.js (what they share), table-render.js (drawing), table-updates.js (reads and moves),
// table-live.js (the stream).
import { refusesToken, statusOf } from './api.js';
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { listenToKeys } from './keys.js';
import { showProblem } from './notice.js';
import { forgetPlayer, isPlayerToken } from './player.js';
import { listenToSummaryKeys, scorecardToggle } from './deal-summary.js';
import { dealFollower } from './follow.js';
import { seatName } from './seat-words.js';
import { forgetEverywhere } from './seats.js';
import { follow } from './table-live.js';
import { render } from './table-render.js';
import { newState } from './table-state.js';
import { act, update } from './table-updates.js';
import { startClocks } from './turn-clock.js';
/** @import { Table } from './table-state.js' */

/** Sits down at match `id` with `token` (a seat's, or the player's whose seat it is). @param {string} id @param {string} token */
export function seated(id, token) {
  const api = `/api/matches/${encodeURIComponent(id)}`;
  /** @type {Table} */
  const table = {
    id,
    token,
    api,
    state: newState(),
    // A deal's end stays on screen until the person moves on; the live view goes on behind it.
    follower: dealFollower(api, token),
    name: (seat) => seatName(table.state.view?.seats ?? [], seat),
    render: () => render(table),
    act: (command, body) => act(table, command, body),
    update: () => update(table),
  };
  $('#lastTrickToggle').addEventListener('click', () => { table.state.showLast = !table.state.showLast; table.render(); });
  listenToKeys();
  listenToSummaryKeys();
  scorecardToggle();
  startClocks();
  table.update().then(() => follow(table), (error) => cannotSit(id, token, error));
}

/** The table did not open: said, with the way to a new match if there is no such match. @param {string} id @param {string} token @param {unknown} error */
function cannotSit(id, token, error) {
  const status = statusOf(error);
  // A token the service refuses (or a match it does not know) is kept nowhere.
  if (refusesToken(error) || status === 404) forgetEverywhere(id);
  if (status === 401 && isPlayerToken(token)) forgetPlayer();
  showProblem(error);
  if (status === 404) {
    document.title = t('title-no-match');
    $('#notice').append(' ', el('a', { href: '/play' }, t('start-new-match')));
  }
  document.body.dataset.ready = 'failed';
}
