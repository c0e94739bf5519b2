// The middle of the table: where the match stands (in words), the table cards, the trick under way
// (or the one just taken), and the last trick on demand.
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { faceUp, suitMark } from './cards.js';
/** @import { ShownView } from './follow.js' */
/** @import { Child } from '../../pages/assets/dom.js' */

/** @param {ShownView} view @param {(seat: number) => string} name @param {boolean} showLast */
export function renderCentre(view, name, showLast) {
  $('#info').replaceChildren(...infoLine(view, name));
  $('#tableCards').replaceChildren(...(view.tableCards.length ? [el('span', { class: 'label' }, t('table-cards')), ...view.tableCards.map((c) => faceUp(c))] : []));
  renderTrick(view, name);
  renderLastTrick(view, name, showLast);
}

/** The deal, the contract and whose turn it is; the winners once finished. @param {ShownView} view @param {(seat: number) => string} name */
function infoLine(view, name) {
  /** @type {Child[]} */
  const info = [];
  if (view.status === 'finished') {
    const winners = view.winners ?? [];
    // The last deal's summary on screen: the header names that deal too.
    if (view.scored) info.push(t('deal-of', { number: view.dealNumber, total: view.dealsInMatch }), ' · ', t('summary-scored'), ' · ');
    info.push(el('strong', {}, t('match-over', { n: winners.length, names: winners.map((s) => name(s)).join(', ') })));
  } else if (view.status === 'playing') {
    info.push(t('deal-of', { number: view.dealNumber || 1, total: view.dealsInMatch }));
    if (view.contract) info.push(' · ', t('contract-now', { contract: view.contract }), ...(view.trump ? [' ', suitMark(view.trump)] : []));
    if (view.turn !== null) info.push(' · ', view.turn === view.seat ? el('strong', {}, t('your-turn')) : t('seat-to-act', { name: name(view.turn) }));
    if (view.scored) info.push(' · ', t('summary-scored'));
  } else if (view.status === 'waiting') info.push(t('waiting-players'));
  else if (view.status === 'abandoned') info.push(t('table-closed'));
  else info.push(t('match-status', { status: view.status }));
  return info;
}

/**
 * The trick under way. A trick just taken stays on the table until the next card is led, as cards do
 * on a real table (the bots answer at once: else a person never sees the cards that fell after their own).
 * @param {ShownView} view @param {(seat: number) => string} name
 */
function renderTrick(view, name) {
  const last = view.lastTrick;
  const taken = view.trick.length === 0 && view.phase === 'play' && last ? last : null;
  const who = (/** @type {number} */ seat) => (seat === view.seat ? t('you') : name(seat));
  $('#trick').classList.toggle('taken', !!taken);
  $('#trick').replaceChildren(
    ...(taken ? taken.cards : view.trick).map((p) => el('figure', {}, faceUp(p.card), el('figcaption', {}, who(p.seat)))),
    ...(taken ? [el('p', { class: 'takenBy' }, taken.winner === view.seat ? t('taken-by-you') : t('taken-by', { name: name(taken.winner) }))] : []),
  );
}

/** The last trick, shown or hidden by its toggle. @param {ShownView} view @param {(seat: number) => string} name @param {boolean} showLast */
function renderLastTrick(view, name, showLast) {
  const last = view.lastTrick;
  const toggle = $('#lastTrickToggle');
  toggle.hidden = !last;
  toggle.textContent = showLast ? t('last-trick-hide') : t('last-trick-show');
  toggle.setAttribute('aria-expanded', String(showLast && !!last));
  $('#lastTrick').hidden = !(last && showLast);
  $('#lastTrick').replaceChildren(...(last && showLast ? [el('span', { class: 'label' }, last.winner === view.seat ? t('last-trick-you') : t('last-trick', { name: name(last.winner) })), ...last.cards.map((p) => faceUp(p.card))] : []));
}
