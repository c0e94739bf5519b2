// The lobby's "Player" panel: create a player or sign in with its token; signed in, the player's name,
// "Sign out", and "My matches" (those where it is the player's turn first, each a link to its table),
// read again when the page is shown again and every 15 s.
import { call, problemText, refusesToken } from './api.js';
import { $, copyRow, el, find } from '../../pages/assets/dom.js';
import { language, t, tAttr } from '../../pages/assets/i18n.js';
import { checkPlayer, forgetPlayer, playerToken, rememberPlayer } from './player.js';
/** @import { Player } from './player.js' */
/** @import { PlayerCreated, PlayerMatch, PlayerMatchList } from '../../pages/assets/types' */

const REFRESH_MS = 15_000;

/**
 * The panel: where it is drawn, who is signed in, the timer of "My matches", and whom to tell.
 * @typedef {object} Panel
 * @property {HTMLElement} box
 * @property {Player | null} player
 * @property {number | undefined} timer
 * @property {(player: Player | null) => void} changed
 */

/**
 * Draws the panel into `#player`; `changed(player)` is told whenever who is signed in changes (null: nobody).
 * @param {(player: Player | null) => void} changed
 */
export function playerPanel(changed) {
  /** @type {Panel} */
  const panel = { box: $('#player'), player: null, timer: undefined, changed };
  const again = () => { if (document.visibilityState === 'visible') void refresh(panel); };
  document.addEventListener('visibilitychange', again);
  window.addEventListener('pageshow', again);

  panel.box.hidden = false;
  const token = playerToken();
  if (!token) return set(panel, null);
  checkPlayer(token).then((signed) => set(panel, signed), (error) => set(panel, null, refusesToken(error) ? t('player-refused') : t('player-unread', { message: problemText(error).title })));
}

/**
 * Who is signed in now (null: nobody), with a message for a signed-out panel, or the token a new
 * player is shown once.
 * @param {Panel} panel @param {Player | null} next
 */
function set(panel, next, message = '', shownToken = '') {
  panel.player = next;
  clearInterval(panel.timer);
  panel.timer = undefined;
  if (panel.player) {
    showSignedIn(panel, shownToken);
    panel.timer = setInterval(() => refresh(panel), REFRESH_MS);
  } else showSignedOut(panel, message);
  panel.changed(panel.player);
}

/** The two forms: a new player, or signing in with a player's token. @param {Panel} panel @param {string} message */
function showSignedOut(panel, message) {
  panel.box.replaceChildren(
    el('h2', { id: 'player-title' }, t('player-title')),
    el('p', { id: 'playerMessage', role: 'status', class: message ? 'warn' : 'muted' }, message || t('player-intro')),
    createForm(panel),
    signInForm(panel),
    el('p', { id: 'signInHelp', class: 'muted' }, t('sign-in-help')),
  );
}

/** A new player: its name; the token the service makes is kept, and shown once. @param {Panel} panel */
function createForm(panel) {
  const name = el('input', { id: 'playerName', name: 'playerName', autocomplete: 'nickname', maxlength: '40', required: true });
  return el('form', { id: 'createPlayer', onsubmit: (e) => {
    e.preventDefault();
    void busy('#createPlayerBtn', async () => {
      const created = /** @type {PlayerCreated} */ (await call('POST', '/api/players', { body: { name: name.value.trim() } }));
      rememberPlayer(created.token);
      set(panel, await checkPlayer(created.token), '', created.token);
    });
  } }, el('label', {}, el('span', {}, t('new-player-name')), ' ', name), el('button', { id: 'createPlayerBtn', type: 'submit' }, t('create-player')));
}

/** Signing in with a player's token (`bskp_…`), checked with the service first. @param {Panel} panel */
function signInForm(panel) {
  const token = el('input', { id: 'playerTokenIn', name: 'playerToken', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: 'bskp_…', 'aria-describedby': 'signInHelp' });
  return el('form', { id: 'signIn', onsubmit: (e) => {
    e.preventDefault();
    void busy('#signInBtn', async () => {
      const given = token.value.trim();
      if (!given.startsWith('bskp_')) return say(t('not-player-token'));
      try {
        const signed = await checkPlayer(given);
        rememberPlayer(given);
        set(panel, signed);
      } catch (error) {
        if (!refusesToken(error)) throw error;
        say(t('token-unknown'));
      }
    });
  } }, el('label', {}, el('span', {}, t('sign-in-token')), ' ', token), el('button', { id: 'signInBtn', type: 'submit' }, t('sign-in')));
}

/** The player's name, "Sign out" and "My matches" (read at once). @param {Panel} panel @param {string} shownToken */
function showSignedIn(panel, shownToken) {
  const name = panel.player?.me.name ?? '';
  panel.box.replaceChildren(
    el('h2', { id: 'player-title' }, t('player-title')),
    ...(shownToken ? [tokenOnce(shownToken)] : []),
    el('div', { class: 'row' }, el('p', { id: 'signedIn' }, `${t('signed-in-as')} `, el('strong', { id: 'playerWho' }, name)),
      el('button', { id: 'signOut', type: 'button', onclick: () => { forgetPlayer(); set(panel, null, t('signed-out')); find('#playerName')?.focus(); } }, t('sign-out'))),
    el('h3', { id: 'myMatches-title' }, t('my-matches')),
    el('ul', { id: 'myMatches', 'aria-labelledby': 'myMatches-title', 'aria-live': 'polite' }),
  );
  void refresh(panel);
}

/** The new player's token, shown this once, with a copy button and what it is. @param {string} token */
function tokenOnce(token) {
  const { row } = copyRow({ id: 'newPlayerToken', 'aria-label': tAttr('player-token-field', 'aria-label'), 'aria-describedby': 'newPlayerTokenHelp', autocomplete: 'off' }, token, 'copyPlayerToken', t('copy-token'), t('copied'));
  const shown = el('div', { id: 'tokenOnce' },
    el('p', { id: 'newPlayerTokenHelp' }, el('strong', {}, t('token-once')), ` ${t('token-once-help')}`),
    row,
    el('button', { id: 'tokenKept', type: 'button', onclick: () => { shown.remove(); $('#signOut').focus(); } }, t('token-kept')));
  return shown;
}

/** "My matches": the player's turns first (the service's order), each a link to its table. @param {Panel} panel */
async function refresh(panel) {
  if (!panel.player) return;
  const asked = panel.player;
  /** @type {PlayerMatchList} */
  let mine;
  try {
    mine = /** @type {PlayerMatchList} */ (await call('GET', '/api/players/me/matches?status=playing', { token: asked.token }));
  } catch (error) {
    if (panel.player !== asked) return;
    if (refusesToken(error)) {
      forgetPlayer();
      return set(panel, null, t('player-refused'));
    }
    return void find('#myMatches')?.replaceChildren(el('li', { class: 'muted' }, t('my-matches-unread', { message: problemText(error).title })));
  }
  const list = find('#myMatches');
  if (panel.player !== asked || !list) return;
  const items = [...mine.items].sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn));
  list.replaceChildren(...(items.length ? items.map(matchItem) : [el('li', { class: 'muted' }, t('no-match-in-play'))]));
}

/** A word of the panel's own, as a warning. @param {string} text */
function say(text) {
  $('#playerMessage').textContent = text;
  $('#playerMessage').className = 'warn';
}

/**
 * Runs a form's request with its button off; a refusal is said in the panel.
 * @param {string} button @param {() => Promise<void>} work
 */
async function busy(button, work) {
  $(button, HTMLButtonElement).disabled = true;
  try {
    await work();
  } catch (error) {
    const { title, detail } = problemText(error);
    say(detail ? `${title}: ${detail}` : title);
  } finally {
    const still = find(button, HTMLButtonElement);
    if (still) still.disabled = false;
  }
}

/** One match of the list: who is at the table, and whether it waits for this player. @param {PlayerMatch} m */
function matchItem(m) {
  const others = new Intl.ListFormat(language(), { type: 'conjunction' }).format(m.opponents.map((o) => o.name ?? t('an-open-seat')));
  return el('li', { class: m.yourTurn ? 'mine' : '' },
    el('a', { href: `/play/${encodeURIComponent(m.id)}`, 'data-match': m.id }, t('match-with', { names: others })),
    m.yourTurn ? el('span', { class: 'badge turn' }, t('your-turn')) : el('span', { class: 'muted' }, m.status === 'waiting' ? ` ${t('waiting-for-players')}` : ''));
}
