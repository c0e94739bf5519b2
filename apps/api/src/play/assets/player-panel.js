// The lobby's "Player" panel: create a player or sign in with its token; signed in, the player's name,
// "Sign out", and "My matches" (those where it is the player's turn first, each a link to its table),
// read again when the page is shown again and every 15 s.
import { call, refusesToken } from './api.js';
import { $, copyRow, el } from '../../pages/assets/dom.js';
import { checkPlayer, forgetPlayer, playerToken, rememberPlayer } from './player.js';

const REFRESH_MS = 15_000;
const REFUSED = 'This browser’s player token was refused (revoked, or its player deleted), so it was forgotten here. Sign in with another token of the player, or create a player.';

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
      el('h2', { id: 'player-title' }, 'Player'),
      el('p', { id: 'playerMessage', role: 'status', class: message ? 'warn' : 'muted' }, message || 'A player keeps your matches together: its token seats you at them on any device.'),
      el('form', { id: 'createPlayer', onsubmit: (e) => {
        e.preventDefault();
        void busy('#createPlayerBtn', async () => {
          const created = await call('POST', '/api/players', { body: { name: name.value.trim() } });
          rememberPlayer(created.token);
          set(await checkPlayer(created.token), '', created.token);
        });
      } }, el('label', {}, 'Name of a new player ', name), el('button', { id: 'createPlayerBtn', type: 'submit' }, 'Create a player')),
      el('form', { id: 'signIn', onsubmit: (e) => {
        e.preventDefault();
        void busy('#signInBtn', async () => {
          const given = token.value.trim();
          if (!given.startsWith('bskp_')) return say('That is not a player token: a player token begins with bskp_ (a seat’s link is opened, not pasted here).');
          try {
            const signed = await checkPlayer(given);
            rememberPlayer(given);
            set(signed);
          } catch (error) {
            if (!refusesToken(error)) throw error;
            say('The service does not know this token (mistyped, revoked, or its player deleted).');
          }
        });
      } }, el('label', {}, 'Sign in with a token ', token), el('button', { id: 'signInBtn', type: 'submit' }, 'Sign in')),
      el('p', { id: 'signInHelp', class: 'muted' }, 'The token was shown once, when the player was created.'),
    );
  }

  function showSignedIn(shownToken) {
    box.replaceChildren(
      el('h2', { id: 'player-title' }, 'Player'),
      ...(shownToken ? [tokenOnce(shownToken)] : []),
      el('div', { class: 'row' }, el('p', { id: 'signedIn' }, 'Signed in as ', el('strong', { id: 'playerWho' }, player.me.name)),
        el('button', { id: 'signOut', type: 'button', onclick: () => { forgetPlayer(); set(null, 'Signed out: this browser no longer holds the player’s token.'); $('#playerName')?.focus(); } }, 'Sign out')),
      el('h3', { id: 'myMatches-title' }, 'My matches'),
      el('ul', { id: 'myMatches', 'aria-labelledby': 'myMatches-title', 'aria-live': 'polite' }),
    );
    void refresh();
  }

  /** The new player's token, shown this once, with a copy button and what it is. */
  function tokenOnce(token) {
    const { row } = copyRow({ id: 'newPlayerToken', 'aria-label': 'Your player’s token', 'aria-describedby': 'newPlayerTokenHelp', autocomplete: 'off' }, token, 'copyPlayerToken', 'Copy the token');
    const shown = el('div', { id: 'tokenOnce' },
      el('p', { id: 'newPlayerTokenHelp' }, el('strong', {}, 'Your player’s token, shown only now. '), 'It is the player’s key for every device: sign in with it wherever you play. Keep it like a password; whoever has it plays as you.'),
      row,
      el('button', { id: 'tokenKept', type: 'button', onclick: () => { shown.remove(); $('#signOut').focus(); } }, 'I have kept it'));
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
        return set(null, REFUSED);
      }
      return void $('#myMatches')?.replaceChildren(el('li', { class: 'muted' }, `My matches could not be read: ${error.message}`));
    }
    if (player !== asked || !$('#myMatches')) return;
    const items = [...mine.items].sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn));
    $('#myMatches').replaceChildren(...(items.length ? items.map(matchItem) : [el('li', { class: 'muted' }, 'No match in play.')]));
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
      say(`${error.title ?? 'Something went wrong'}${error.detail ? `: ${error.detail}` : ''}`);
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
  checkPlayer(token).then((signed) => set(signed), (error) => set(null, refusesToken(error) ? REFUSED : `The player could not be read: ${error.message}`));
}

/** One match of the list: who is at the table, and whether it waits for this player. */
function matchItem(m) {
  const others = m.opponents.map((o) => o.name ?? 'an open seat').join(' and ');
  return el('li', { class: m.yourTurn ? 'mine' : '' },
    el('a', { href: `/play/${encodeURIComponent(m.id)}`, 'data-match': m.id }, `with ${others}`),
    m.yourTurn ? el('span', { class: 'badge turn' }, 'your turn') : el('span', { class: 'muted' }, m.status === 'waiting' ? ' waiting for players' : ''));
}
