// The end of a deal, shown until the person moves on: the contract, each seat's tricks against its
// quota and its points, the table cards, the four laid away and the hands as dealt (all public once
// the deal is scored). Also the scorecard's toggle near the top, so that a phone reaches it without
// scrolling away from the table.
import { $, el, find } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { byHandOrder, faceUp, suitMark } from './cards.js';
/** @import { DealEnd } from './follow.js' */
/** @import { Card } from '../../pages/assets/types' */

/** A card of the summary: face up, but no `data-card` (that marks the cards of the seat's own view). @param {Card} code */
const shownCard = (code) => {
  const card = faceUp(code, 'span', { class: 'mini' });
  card.removeAttribute('data-card');
  card.dataset.summaryCard = code;
  return card;
};
/** @param {Card[]} codes @param {string} label */
const cardRow = (codes, label) => el('div', { class: 'cards summaryCards', role: 'group', 'aria-label': label }, ...[...codes].sort(byHandOrder).map(shownCard));

/** @param {DealEnd} end */
const contractWords = (end) => {
  const words = t(`summary-contract-${end.contract}`);
  return end.trump ? [words, ' ', suitMark(end.trump)] : [words];
};

/** @type {DealEnd | null} */
let drawn = null;

/**
 * Draws the deal end `end` (follow.js; null: none) into `#dealSummary`, made once after the table.
 * `name(seat)` names a seat; `me` is this page's seat; `deals` the match's number of deals; `onContinue()` moves on.
 * @param {DealEnd | null} end
 * @param {{ name: (seat: number) => string, me: number, deals: number, onContinue: () => void }} seat
 */
export function renderSummary(end, { name, me, deals, onContinue }) {
  let box = find('#dealSummary');
  if (!box) {
    box = el('section', { id: 'dealSummary', 'aria-labelledby': 'dealSummary-title', hidden: true });
    $('#table').after(box);
  }
  document.body.dataset.summary = end ? String(end.deal) : '';
  if (!end) {
    box.hidden = true;
    box.replaceChildren();
    drawn = null;
    return;
  }
  if (drawn === end) return; // drawn already: a redraw would take the focus from the button
  drawn = end;
  const who = (/** @type {number} */ seat) => (seat === me ? t('summary-you', { name: name(seat) }) : name(seat));
  const pass = end.contract === 'pass';
  const rows = [0, 1, 2].map((seat) => el('tr', { 'data-seat': String(seat) },
    el('th', { scope: 'row' }, who(seat), ...(seat === end.forehand ? [' ', el('span', { class: 'badge' }, t('summary-forehand'))] : [])),
    el('td', { 'data-tricks': String(end.tricks[seat]) }, t(pass ? 'summary-tricks-pass' : 'summary-tricks', { tricks: end.tricks[seat], quota: end.quotas[seat] })),
    el('td', { 'data-points': String(end.points[seat]) }, `${end.points[seat] > 0 ? '+' : ''}${end.points[seat]}`),
    el('td', { 'data-total': String(end.totals[seat]) }, String(end.totals[seat]))));
  const button = el('button', { id: 'summaryContinue', type: 'button', onclick: onContinue }, end.finished ? t('summary-continue-final') : t('summary-continue'));
  box.replaceChildren(
    el('h2', { id: 'dealSummary-title' }, t('summary-title', { deal: end.deal, deals })),
    el('p', { id: 'summaryContract', 'data-contract': end.contract, 'data-trump': end.trump ?? '' }, t('summary-contract-label'), ' ', el('strong', {}, ...contractWords(end)), ' · ', t('summary-forehand-is', { name: who(end.forehand) })),
    el('div', { class: 'summaryScroll' }, el('table', { id: 'summaryTable' },
      el('caption', { class: 'muted' }, t(pass ? 'summary-quota-pass' : 'summary-quota')),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('summary-seat')), el('th', { scope: 'col' }, t('summary-tricks-head')), el('th', { scope: 'col' }, t('summary-points-head')), el('th', { scope: 'col' }, t('summary-total-head')))),
      el('tbody', {}, ...rows))),
    el('div', { class: 'row' }, button, el('span', { class: 'muted' }, t('summary-key'))),
    el('h3', {}, t('summary-table-cards')),
    cardRow(end.tableCards, t('summary-table-cards')),
    el('h3', {}, t('summary-laid-away', { name: who(end.forehand) })),
    el('div', { id: 'summaryAway' }, cardRow(end.laidAway, t('summary-laid-away', { name: who(end.forehand) }))),
    el('h3', {}, t('summary-hands')),
    el('div', { id: 'summaryHands' }, ...end.hands.map((hand, seat) => el('div', { class: 'summaryHand', 'data-seat': String(seat) },
      el('p', {}, who(seat)), cardRow(hand ?? [], t('summary-hand-of', { name: who(seat) }))))),
  );
  box.hidden = false;
  button.focus();
}

/** C continues from a summary; S opens or closes the scorecard. */
export function listenToSummaryKeys() {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target instanceof Element && e.target.closest('input, select, textarea'))) return;
    const key = e.key.toLowerCase();
    const button = key === 'c' ? find('#summaryContinue') : key === 's' ? find('#scorecardToggle') : null;
    if (button && !button.closest('[hidden]')) {
      e.preventDefault();
      button.click();
    }
  });
}

/** The scorecard's toggle at the top of the table: opens it as a panel over the bottom of the screen. */
export function scorecardToggle() {
  if (find('#scorecardToggle')) return;
  const button = el('button', { id: 'scorecardToggle', type: 'button', 'aria-controls': 'scorecard', 'aria-expanded': 'false' }, t('summary-scorecard-open'));
  const set = (/** @type {boolean} */ open) => {
    document.body.classList.toggle('scorecardOpen', open);
    button.setAttribute('aria-expanded', String(open));
    button.textContent = open ? t('summary-scorecard-close') : t('summary-scorecard-open');
  };
  button.addEventListener('click', () => set(!document.body.classList.contains('scorecardOpen')));
  $('#centre').prepend(button);
}
