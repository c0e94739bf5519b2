// The lobby's "Player" panel: create a player or sign in with its token; signed in, the player's name,
// "Sign out", and "My matches" (those where it is the player's turn first, each a link to its table),
// read again when the page is shown again and every 15 s.
import { call, problemText, refusesToken } from './api.js';
import { $, copyRow, el } from '../../pages/assets/dom.js';
import { language, t, tAttr } from '../../pages/assets/i18n.js';
import { checkPlayer, forgetPlayer, playerToken, rememberPlayer } from './player.js';

const REFRESH_MS = 15_000;

/**
 * Draws the panel into `#player`; `changed(player)` is told whenever who is signed in changes (null: nobody).
 * @param {(player: import('./player.js').Player | null) => void} changed
 */
export function playerPanel(changed) {
  const box = $('#player');
  /** @type {import('./player.js').Player | null} */
  let player = null;
  let timer = null;

  const set = (next, message = '', shownToken = '') => {
    player = next;
    clearInterval(timer);
    timer = null;
    if (player) {
      showSignedIn(shownToken);
      timer = setInterval(refresh, REFRESH_MS);
    } else showSignedOut(message);
    changed(player);
  };

  function showSignedOut(message) {
    const name = el('input', { id: 'playerName', name: 'playerName', autocomplete: 'nickname', maxlength: '40', required: true });
    const token = el('input', { id: 'playerTokenIn', name: 'playerToken', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: 'bskp_…', 'aria-describedby': 'signInHelp' });
    box.replaceChildren(
      el('h2', { id: 'player-title' }, t('player-title')),
      el('p', { id: 'playerMessage', role: 'status', class: message ? 'warn' : 'muted' }, message || t('player-intro')),
      el('form', { id: 'createPlayer', onsubmit: (e) => {
        e.preventDefault();
        void busy('#createPlayerBtn', async () => {
          const created = await call('POST', '/api/players', { body: { name: name.value.trim() } });
          rememberPlayer(created.token);
          set(await checkPlayer(created.token), '', created.token);
        });
      } }, el('label', {}, el('span', {}, t('new-player-name')), ' ', name), el('button', { id: 'createPlayerBtn', type: 'submit' }, t('create-player'))),
      el('form', { id: 'signIn', onsubmit: (e) => {
        e.preventDefault();
        void busy('#signInBtn', async () => {
          const given = token.value.trim();
          if (!given.startsWith('bskp_')) return say(t('not-player-token'));
          try {
            const signed = await checkPlayer(given);
            rememberPlayer(given);
            set(signed);
          } catch (error) {
            if (!refusesToken(error)) throw error;
            say(t('token-unknown'));
          }
        });
      } }, el('label', {}, el('span', {}, t('sign-in-token')), ' ', token), el('button', { id: 'signInBtn', type: 'submit' }, t('sign-in'))),
      el('p', { id: 'signInHelp', class: 'muted' }, t('sign-in-help')),
    );
  }

  function showSignedIn(shownToken) {
    box.replaceChildren(
      el('h2', { id: 'player-title' }, t('player-title')),
      ...(shownToken ? [tokenOnce(shownToken)] : []),
      el('div', { class: 'row' }, el('p', { id: 'signedIn' }, `${t('signed-in-as')} `, el('strong', { id: 'playerWho' }, player.me.name)),
        el('button', { id: 'signOut', type: 'button', onclick: () => { forgetPlayer(); set(null, t('signed-out')); $('#playerName')?.focus(); } }, t('sign-out'))),
      el('h3', { id: 'myMatches-title' }, t('my-matches')),
      el('ul', { id: 'myMatches', 'aria-labelledby': 'myMatches-title', 'aria-live': 'polite' }),
    );
    void refresh();
  }

  /** The new player's token, shown this once, with a copy button and what it is. */
  function tokenOnce(token) {
    const { row } = copyRow({ id: 'newPlayerToken', 'aria-label': tAttr('player-token-field', 'aria-label'), 'aria-describedby': 'newPlayerTokenHelp', autocomplete: 'off' }, token, 'copyPlayerToken', t('copy-token'), t('copied'));
    const shown = el('div', { id: 'tokenOnce' },
      el('p', { id: 'newPlayerTokenHelp' }, el('strong', {}, t('token-once')), ` ${t('token-once-help')}`),
      row,
      el('button', { id: 'tokenKept', type: 'button', onclick: () => { shown.remove(); $('#signOut').focus(); } }, t('token-kept')));
    return shown;
  }

  /** "My matches": the player's turns first (the service's order), each a link to its table. */
  async function refresh() {
    if (!player) return;
    const asked = player;
    let mine;
    try {
      mine = await call('GET', '/api/players/me/matches?status=playing', { token: asked.token });
    } catch (error) {
      if (player !== asked) return;
      if (refusesToken(error)) {
        forgetPlayer();
        return set(null, t('player-refused'));
      }
      return void $('#myMatches')?.replaceChildren(el('li', { class: 'muted' }, t('my-matches-unread', { message: problemText(error).title })));
    }
    if (player !== asked || !$('#myMatches')) return;
    const items = [...mine.items].sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn));
    $('#myMatches').replaceChildren(...(items.length ? items.map(matchItem) : [el('li', { class: 'muted' }, t('no-match-in-play'))]));
  }

  const say = (text) => {
    $('#playerMessage').textContent = text;
    $('#playerMessage').className = 'warn';
  };

  /** Runs a form's request with its button off; a refusal is said in the panel. */
  async function busy(button, work) {
    $(button).disabled = true;
    try {
      await work();
    } catch (error) {
      const { title, detail } = problemText(error);
      say(detail ? `${title}: ${detail}` : title);
    } finally {
      if ($(button)) $(button).disabled = false;
    }
  }

  const again = () => { if (document.visibilityState === 'visible') void refresh(); };
  document.addEventListener('visibilitychange', again);
  window.addEventListener('pageshow', again);

  box.hidden = false;
  const token = playerToken();
  if (!token) return set(null);
  checkPlayer(token).then((signed) => set(signed), (error) => set(null, refusesToken(error) ? t('player-refused') : t('player-unread', { message: problemText(error).title })));
}

/** One match of the list: who is at the table, and whether it waits for this player. */
function matchItem(m) {
  const others = new Intl.ListFormat(language(), { type: 'conjunction' }).format(m.opponents.map((o) => o.name ?? t('an-open-seat')));
  return el('li', { class: m.yourTurn ? 'mine' : '' },
    el('a', { href: `/play/${encodeURIComponent(m.id)}`, 'data-match': m.id }, t('match-with', { names: others })),
    m.yourTurn ? el('span', { class: 'badge turn' }, t('your-turn')) : el('span', { class: 'muted' }, m.status === 'waiting' ? ` ${t('waiting-for-players')}` : ''));
}
