// `/play`: a one-form lobby that creates a match against bots, or with seats left open for friends.
import { call } from './api.js';
import { $ } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { showProblem, clearProblem } from './notice.js';
import { playerKept } from './player.js';
import { playerPanel } from './player-panel.js';
import { rememberInTab } from './seats.js';
/** @import { Player } from './player.js' */
/** @import { Bot, CreateMatch, MatchCreated, Schedule } from '../../pages/assets/types' */
/** Who takes the other two seats (the form's `others`). @typedef {'bots' | 'friend' | 'friends'} Others */

// A table with friends at it gets a turn clock unless the person sets another: a friend who walks away
// must not stall the others. Against two bots nobody waits for the person, so none.
/** @type {Record<Others, string>} */
const CLOCK_BY_OTHERS = { bots: '', friend: '60', friends: '60' };

/**
 * The body of `POST /api/matches` the form asks for; `me` is the person's seat: a name, or `{ player }` (signed in).
 * @param {CreateMatch['players'][number]} me @param {Others} others @param {Bot} bot @param {Schedule} schedule @param {string} clock
 * @returns {CreateMatch}
 */
function creation(me, others, bot, schedule, clock) {
  const rest = { bots: [{ bot }, { bot }], friend: [null, { bot }], friends: [null, null] }[others];
  /** @type {NonNullable<CreateMatch['options']>} */
  const options = { schedule };
  if (clock) options.clock = { turnSeconds: Number(clock), onTimeout: 'standIn' };
  return { players: [me, ...rest], options };
}

export function lobby() {
  document.title = t('title-lobby');
  // Friends in the other seats: those seats stay open, and the table shows the link that takes them.
  const others = () => /** @type {Others} */ ($('#others', HTMLSelectElement).value);
  // Signed in as a player, the person's seat is bound to the player (named after it): no name asked.
  /** @type {Player | null} */
  let player = null;
  playerPanel((signed) => {
    player = signed;
    $('#nameLabel').hidden = !!player;
    $('#name', HTMLInputElement).required = !player;
    $('#playsAs').hidden = !player;
    $('#playsAs').textContent = player ? t('lobby-plays-as', { name: player.me.name }) : '';
    $('#lobbyHelp').textContent = player ? t('lobby-help-player') : t('lobby-help');
  });
  let clockChosen = false;
  $('#clock').addEventListener('change', () => { clockChosen = true; });
  const follow = () => {
    $('#botLabel').hidden = others() === 'friends';
    $('#botHelp').hidden = others() === 'friends';
    if (!clockChosen) $('#clock', HTMLSelectElement).value = CLOCK_BY_OTHERS[others()];
  };
  $('#others').addEventListener('change', follow);
  follow();
  $('#lobby').hidden = false;
  $('#newLink').hidden = true;
  $('#name').focus();
  $('#lobbyForm').addEventListener('submit', async (e) => {
    e.preventDefault();
    clearProblem();
    $('#start', HTMLButtonElement).disabled = true;
    try {
      const me = player ? { player: player.me.id } : $('#name', HTMLInputElement).value.trim();
      // The selects offer only the values the API takes (play.html).
      const value = (/** @type {string} */ sel) => $(sel, HTMLSelectElement).value;
      const body = creation(me, others(), /** @type {Bot} */ (value('#bot')), /** @type {Schedule} */ (value('#schedule')), value('#clock'));
      const match = /** @type {MatchCreated} */ (await call('POST', '/api/matches', { body, token: player?.token }));
      const mine = match.seats.find((s) => s.token);
      if (!mine) throw new Error('The new match has no seat token for this page.');
      const table = `/play/${encodeURIComponent(match.id)}`;
      // A player's seat needs no seat token: the table finds the player's token in the browser's storage.
      if (player && playerKept()) return location.assign(table);
      // The table finds the token in this tab's storage: no address, not even for a moment, holds it.
      // Without storage it goes in the fragment (never sent to the server), which the table removes.
      location.assign(rememberInTab(match.id, mine.token) ? table : `${table}#token=${encodeURIComponent(mine.token)}`);
    } catch (error) {
      showProblem(error);
      $('#start', HTMLButtonElement).disabled = false;
    }
  });
  document.body.dataset.ready = 'lobby';
}
