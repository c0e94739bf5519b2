// The scorecard. No spoilers: the moment on screen shows the deals scored up to it and the totals of
// its own replay; a deal scored later is an empty row, as it was then.
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { state } from './state.js';
import { contractNodes, seatName } from './words.js';
/** @import { ReplayView } from '../../pages/assets/types' */

/** The scorecard at the moment `version` on screen. @param {ReplayView} view @param {number} version */
export function renderScorecard(view, version) {
  const sc = state.scorecard;
  if (!sc) return;
  const names = sc.seats.map((_, s) => seatName(sc.seats, s));
  const known = new Map(sc.deals.filter((d) => (state.scoredAt.get(d.number) ?? Infinity) <= version).map((d) => [d.number, d]));
  const count = Math.max(view.dealsInMatch, ...sc.deals.map((d) => d.number));
  const rows = Array.from({ length: count }, (_, i) => i + 1).map((number) => {
    const d = known.get(number);
    if (!d) {
      const current = number === view.dealNumber && view.status === 'playing';
      return el('tr', { class: current ? 'current' : 'future', 'data-deal': String(number) },
        el('td', {}, String(number)), el('td', { colspan: String(2 + names.length) }, current ? t('scorecard-in-play') : '—'));
    }
    return el('tr', { 'data-deal': String(number), 'data-scored': 'true' },
      el('td', {}, String(number)), el('td', {}, names[d.forehand]), el('td', {}, ...contractNodes(d.contract, d.trump)),
      ...d.tricks.map((x, s) => el('td', {}, `${x} (${d.points[s] > 0 ? '+' : ''}${d.points[s]})`)));
  });
  const label = view.status === 'finished' ? t('scorecard-final') : t('scorecard-totals-at', { version });
  $('#scorecard-body').replaceChildren(
    el('table', { id: 'scorecard-table' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('scorecard-deal')), el('th', { scope: 'col' }, t('scorecard-forehand')), el('th', { scope: 'col' }, t('scorecard-contract')),
        ...names.map((n) => el('th', { scope: 'col' }, n)))),
      el('tbody', {}, ...rows),
      el('tfoot', {}, el('tr', {}, el('td', { colspan: '3' }, label), ...view.totals.map((x, s) => el('td', { 'data-total': String(s) }, String(x)))))));
}
