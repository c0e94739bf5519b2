// Draws the seat's table from its view (or the deal end held on screen, follow.js): the two other
// seats, the middle, this seat's badges, actions and hand, the scorecard, the deal's summary and the
// seat's link; the page's data-* attributes say what it shows (the browser tests read them).
import { renderActions } from './actions.js';
import { back } from './cards.js';
import { renderSummary } from './deal-summary.js';
import { $, el } from '../../pages/assets/dom.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
import { scorecardParts } from './scorecard.js';
import { renderSeatLink } from './seat-link.js';
import { roles, tally } from './seat-words.js';
import { renderCentre } from './table-centre.js';
import { renderHand } from './table-hand.js';
import { awayNote, renderBack, signalTurn } from './turn-clock.js';
/** @import { ShownView } from './follow.js' */
/** @import { Table } from './table-state.js' */

/** @param {Table} table */
export function render(table) {
  const { id, token, state, follower, name } = table;
  if (!state.view) return;
  const view = follower.shown(state.view, state.scorecard);
  if (state.pickedDeal !== view.dealNumber || view.legal?.action !== 'discard') {
    state.picked.clear();
    state.pickedDeal = view.dealNumber;
  }
  $('#game').hidden = false;
  $('#match').textContent = `${t('schedule-name', { schedule: view.options.schedule })} · ${id}`;
  const me = view.seat;
  renderOpponent($('#opp-a'), view, (me + 1) % 3, name);
  renderOpponent($('#opp-b'), view, (me + 2) % 3, name);
  renderCentre(view, name, state.showLast);
  $('#me').className = view.turn === me ? 'turn' : '';
  renderBack($('#backBar'), view, () => table.act(`seats/${me}/back`));
  $('#myInfo').replaceChildren(el('h2', {}, el('span', { class: 'name' }, t('me-name', { name: name(me) })), ...roles(view, me)), el('div', { class: 'stats' }, tally(view, me)));
  renderActions($('#actions'), view, { id, token, act: table.act, name, picked: state.picked });
  renderHand(table, view);
  // A move on its way: the table may move meanwhile (another seat, a bot), but nothing is offered
  // again until the answer is in.
  if (state.busy) holdControls();
  if (state.scorecard) $('#scorecard').replaceChildren(...scorecardParts(view, follower.scorecardShown(state.scorecard), name));
  renderSummary(follower.current(), { name, me, deals: view.dealsInMatch, onContinue: () => moveOn(table) });
  renderSeatLink($('#seatTools'), view, token);
  signalTurn(state.view); // the live turn: it may wait behind a deal's summary
  document.body.dataset.version = String(view.version);
  document.body.dataset.status = state.view.status; // the match's own, whatever deal end is held
  document.body.dataset.legal = view.legal ? view.legal.action : 'none';
  document.body.dataset.ready = 'true';
}

/** Another seat: its name and badges, whether it is away, its cards as backs, its tricks. @param {HTMLElement} box @param {ShownView} view @param {number} seat @param {(seat: number) => string} name */
function renderOpponent(box, view, seat, name) {
  box.className = `seat ${view.turn === seat ? 'turn' : ''}`;
  box.dataset.seat = String(seat);
  const count = view.handSizes[seat];
  box.replaceChildren(
    el('h2', {}, el('span', { class: 'name' }, name(seat)), ...roles(view, seat)),
    ...[awayNote(view, seat, name(seat))].filter((note) => note !== null),
    el('div', { class: 'stats' }, t('card-count', { n: count }), ' · ', tally(view, seat)),
    el('div', { class: 'cards backs', role: 'img', 'aria-label': tAttr('backs', 'aria-label', { n: count }) }, ...Array.from({ length: count }, back)),
  );
}

/** Every control of the seat off, while its move is on its way. */
export function holdControls() {
  for (const b of document.querySelectorAll('#actions button, #hand button, #backBtn')) if (b instanceof HTMLButtonElement) b.disabled = true;
}

/** The person is done with a deal's end: the next one, or the live table. @param {Table} table */
function moveOn(table) {
  const active = document.activeElement;
  if (active instanceof HTMLElement || active instanceof SVGElement) active.blur();
  table.follower.dismiss();
  render(table);
}
