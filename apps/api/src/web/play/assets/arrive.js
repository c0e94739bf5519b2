// `/play/{id}`: who this page plays. A token in the fragment (then taken out of the address bar) or in
// this tab's storage sits down at once; so does the signed-in player's token when the player holds a
// seat here; a seat this browser held before is offered back; else a waiting table's open seat (taken
// as the player when signed in), or a word on how to get the seat's link.
import { call, pageProblem, Problem } from './api.js';
import { $ } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { clearProblem, showNotice, showProblem } from './notice.js';
import { playerKept, signedInPlayer } from './player.js';
import { browserSeat, forgetInBrowser, rememberInTab, tabToken } from './seats.js';
/** @import { Player } from './player.js' */
/** @import { HeldSeat } from './seats.js' */
/** @import { PublicState, SeatJoined } from '../../pages/assets/types' */

/** Opens the table for the seat of a token. @typedef {(token: string) => unknown} Sit */

/** The match's public state (`GET /api/matches/{id}`). @param {string} id @returns {Promise<PublicState>} */
const publicState = async (id) => /** @type {PublicState} */ (await call('GET', `/api/matches/${encodeURIComponent(id)}`));

/** `sit(token)` opens the table for the seat of that token. @param {string} id @param {Sit} sit */
export function arrive(id, sit) {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    rememberInTab(id, fromHash);
    history.replaceState(history.state, '', location.pathname + location.search);
    return sit(fromHash);
  }
  const token = tabToken(id);
  if (token) return sit(token);
  void signedInPlayer().catch(() => null).then(async (player) => {
    const pub = player ? await publicState(id).catch(() => null) : null;
    // The player's own seat: the player's token acts for it (view, commands), no seat token needed.
    if (player && pub?.seats.some((s) => s.player === player.me.id)) return sit(player.token);
    const held = browserSeat(id);
    const offered = held ? offerBack(id, held, sit, player) : Promise.resolve(false);
    const shown = await offered.catch(() => false) || await join(id, sit, player).catch(() => false);
    if (!shown) needsLink(id);
  });
}

/**
 * The seat this browser held, offered back while the match is open; a finished one is forgotten.
 * @param {string} id @param {HeldSeat} held @param {Sit} sit @param {Player | null} player
 */
async function offerBack(id, held, sit, player) {
  const pub = await publicState(id);
  if (pub.status !== 'waiting' && pub.status !== 'playing') {
    forgetInBrowser(id);
    return false;
  }
  document.title = t('title-offer');
  const heldBy = pub.seats[held.seat]?.name;
  $('#offerWho').textContent = heldBy ? t('offer-who', { name: heldBy, seat: held.seat }) : t('offer-who-open', { seat: held.seat });
  $('#offer').hidden = false;
  $('#takeBack').focus();
  $('#takeBack').addEventListener('click', () => {
    $('#offer').hidden = true;
    rememberInTab(id, held.token);
    sit(held.token);
  }, { once: true });
  $('#forgetSeat').addEventListener('click', () => {
    // Someone else at this browser: the seat is not offered here again, and the page goes on as for anyone.
    forgetInBrowser(id);
    $('#offer').hidden = true;
    void join(id, sit, player).catch(() => false).then((shown) => { if (!shown) needsLink(id); });
  }, { once: true });
  document.body.dataset.ready = 'offer';
  return true;
}

/**
 * A waiting table's open seat, taken with a name: the seat's token goes to this tab, and the table
 * opens. Signed in, it is taken with the player's token (no name asked: the seat is named after the
 * player and bound to it), and the table plays it with that token.
 * @param {string} id @param {Sit} sit @param {Player | null} player
 */
async function join(id, sit, player) {
  const api = `/api/matches/${encodeURIComponent(id)}`;
  const pub = await publicState(id);
  const open = () => pub.seats.filter((s) => s.name === null).map((s) => s.seat);
  if (pub.status === 'abandoned') {
    document.title = t('title-closed');
    showNotice(t('closed-title'), ` ${t('closed-detail')} `, [t('start-new-match'), '/play']);
    document.body.dataset.ready = 'abandoned';
    return true;
  }
  if (pub.status !== 'waiting' || !open().length) return false;
  document.title = t('title-join');
  const named = pub.seats.flatMap((s) => (s.name === null ? [] : [s.bot ? t('seat-bot-name', { name: s.name }) : s.name]));
  $('#joinWho').textContent = t('join-who', { names: named.join(', '), open: open().length, schedule: t('schedule-name', { schedule: pub.options.schedule }) });
  $('#join').hidden = false;
  $('#joinNameLabel').hidden = !!player;
  $('#joinName', HTMLInputElement).required = !player;
  $('#joinAs').hidden = !player;
  $('#joinAs').textContent = player ? t('join-as', { name: player.me.name }) : '';
  (player ? $('#joinBtn') : $('#joinName')).focus();
  $('#joinForm').addEventListener('submit', async (e) => {
    e.preventDefault();
    clearProblem();
    $('#joinBtn', HTMLButtonElement).disabled = true;
    try {
      // Someone faster may take a seat meanwhile (409 SEAT_TAKEN): the next open one, read again.
      for (;;) {
        const seats = open();
        if (!seats.length) throw pageProblem('TABLE_FULL');
        try {
          const body = player ? {} : { name: $('#joinName', HTMLInputElement).value.trim() };
          const joined = /** @type {SeatJoined} */ (await call('POST', `${api}/seats/${seats[0]}/join`, { body, token: player?.token }));
          $('#join').hidden = true;
          if (player && playerKept()) return sit(player.token);
          rememberInTab(id, joined.token); // a reload finds it (without storage, this page holds it in memory)
          sit(joined.token);
          return;
        } catch (error) {
          if (!(error instanceof Problem) || error.code !== 'SEAT_TAKEN') throw error;
          Object.assign(pub, await publicState(id));
        }
      }
    } catch (error) {
      showProblem(error);
      $('#joinBtn', HTMLButtonElement).disabled = false;
    }
  });
  document.body.dataset.ready = 'join';
  return true;
}

/** @param {string} id */
function needsLink(id) {
  showNotice(t('needs-link-title'), ` ${t('needs-link-detail')} `,
    [t('start-new-match'), '/play'], ' · ', [t('watch-match'), `/viewer/${encodeURIComponent(id)}`]);
  document.body.dataset.ready = 'no-token';
}
