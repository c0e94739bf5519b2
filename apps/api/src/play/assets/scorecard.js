// The scorecard under the table: a row per deal of the schedule (those to come greyed), the totals,
// the winners at the end, and a line on how the match is scored.
import { el } from '../../pages/assets/dom.js';
import { suitMark } from './cards.js';

// How a deal is scored (docs/rules.md §5), in the scorecard's words: each cell is "tricks (points)".
const QUOTAS = 'Quotas: forehand 8, the others 4; in pass forehand 4, the others 6.';
const SCORING = {
  zeroSum: `Scoring: your points are the tricks you take over your quota, less those you fall short of it; in pass the other way round (fewer is better). ${QUOTAS} A deal's points add up to 0; the highest total wins.`,
  overOnly: `Scoring: your points are the tricks you take over your quota; falling short costs nothing. In pass the tricks you stay under it score instead. ${QUOTAS} The highest total wins.`,
};

/** The scorecard `sc` of the match `view` shows, seats named by `name`. */
export function scorecardParts(view, sc, name) {
  const names = sc.seats.map((s, i) => (i === view.seat ? `${name(i)} (you)` : name(i)));
  const known = new Map(sc.deals.map((d) => [d.number, d]));
  const rows = Array.from({ length: Math.max(view.dealsInMatch, sc.deals.length) }, (_, i) => i + 1).map((number) => {
    const d = known.get(number);
    if (!d) {
      const current = number === view.dealNumber && view.status === 'playing';
      return el('tr', { class: current ? 'current' : 'future' }, el('td', {}, String(number)), el('td', { colspan: String(2 + names.length) }, current ? 'in play' : '—'));
    }
    return el('tr', { 'data-deal': String(number) }, el('td', {}, String(number)), el('td', {}, name(d.forehand)),
      el('td', {}, d.contract === 'notrump' ? 'no trump' : d.contract, ...(d.trump ? [' ', suitMark(d.trump)] : [])),
      ...d.tricks.map((t, s) => el('td', {}, `${t} (${d.points[s] > 0 ? '+' : ''}${d.points[s]})`)));
  });
  return [
    el('h2', {}, sc.finished ? 'Final scorecard' : 'Scorecard'),
    el('table', { id: 'scorecard-table' },
      el('thead', {}, el('tr', {}, el('th', { title: 'deal' }, '#'), el('th', {}, 'forehand'), el('th', {}, 'contract'), ...names.map((n) => el('th', {}, n)))),
      el('tbody', {}, ...rows),
      el('tfoot', {}, el('tr', {}, el('td', { colspan: '3' }, sc.finished ? 'final' : 'totals'), ...sc.totals.map((t, s) => el('td', { 'data-total': String(s) }, String(t)))))),
    ...(sc.finished ? [el('p', { id: 'winners' }, `Winner${sc.winners.length > 1 ? 's' : ''}: ${sc.winners.map(name).join(', ')}`)] : []),
    el('p', { id: 'scoring', class: 'muted' }, SCORING[view.options.scoring] ?? `Scoring: ${view.options.scoring}.`),
  ];
}
