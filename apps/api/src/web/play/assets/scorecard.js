// The scorecard under the table: a row per deal of the schedule (those to come greyed), the totals,
// the winners at the end, and a line on how the match is scored.
import { el } from '../../pages/assets/dom.js';
import { suitMark } from './cards.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
/** @import { ShownScorecard } from './follow.js' */
/** @import { SeatView } from '../../pages/assets/types' */

// How a deal is scored (docs/rules.md §5), in the scorecard's words: each cell is "tricks (points)".
const SCORING = { zeroSum: () => t('scoring-zeroSum'), overOnly: () => t('scoring-overOnly') };

/**
 * The scorecard `sc` of the match `view` shows, seats named by `name`.
 * @param {SeatView} view @param {ShownScorecard} sc @param {(seat: number) => string} name
 */
export function scorecardParts(view, sc, name) {
  const names = sc.seats.map((s, i) => (i === view.seat ? t('me-name', { name: name(i) }) : name(i)));
  const known = new Map(sc.deals.map((d) => [d.number, d]));
  const rows = Array.from({ length: Math.max(view.dealsInMatch, sc.deals.length) }, (_, i) => i + 1).map((number) => {
    const d = known.get(number);
    if (!d) {
      const current = number === view.dealNumber && view.status === 'playing';
      return el('tr', { class: current ? 'current' : 'future' }, el('td', {}, String(number)), el('td', { colspan: String(2 + names.length) }, current ? t('in-play') : '—'));
    }
    return el('tr', { 'data-deal': String(number) }, el('td', {}, String(number)), el('td', {}, name(d.forehand)),
      el('td', {}, t('contract-short', { contract: d.contract }), ...(d.trump ? [' ', suitMark(d.trump)] : [])),
      ...d.tricks.map((t, s) => el('td', {}, `${t} (${d.points[s] > 0 ? '+' : ''}${d.points[s]})`)));
  });
  return [
    el('h2', {}, sc.finished ? t('final-scorecard') : t('scorecard')),
    el('table', { id: 'scorecard-table' },
      el('thead', {}, el('tr', {}, el('th', { title: tAttr('scorecard-deal', 'title') }, '#'), el('th', {}, t('scorecard-forehand')), el('th', {}, t('scorecard-contract')), ...names.map((n) => el('th', {}, n)))),
      el('tbody', {}, ...rows),
      el('tfoot', {}, el('tr', {}, el('td', { colspan: '3' }, sc.finished ? t('final') : t('totals')), ...sc.totals.map((t, s) => el('td', { 'data-total': String(s) }, String(t)))))),
    ...(sc.finished ? [el('p', { id: 'winners' }, t('winners', { n: sc.winners?.length ?? 0, names: (sc.winners ?? []).map((s) => name(s)).join(', ') }))] : []),
    el('p', { id: 'scoring', class: 'muted' }, SCORING[view.options.scoring]?.() ?? t('scoring-other', { scoring: view.options.scoring })),
  ];
}
