// The analysis of a scored deal (GET …/analysis?deal=N), in players' words: what each card played
// cost, and what each player could have made. Asked once per deal, again after Retry-After while pending.
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { cardText } from '../../pages/assets/cards.js';
import { api, headers, problem } from './api.js';
import { state } from './state.js';
import { card, seatName } from './words.js';
/** @import { DealAnalysis, ProblemBody, ReplayView, RevealedDeal } from '../../pages/assets/types' */

/** The analyses read, by deal. @type {Map<number, DealAnalysis>} */
const analyses = new Map();
/** The deals whose analysis is asked for. @type {Set<number>} */
const analysing = new Set();
/** @type {() => void} */
let redraw = () => undefined;
/** @type {(error: unknown) => void} */
let failed = () => undefined;

/** What to call when an analysis arrives (the page draws the moment again) or fails. @param {() => void} show @param {(error: unknown) => void} fail */
export function onAnalysis(show, fail) {
  redraw = show;
  failed = fail;
}

/** Asks for deal `deal`'s analysis (again after Retry-After while the service computes it). @param {number} deal */
async function load(deal) {
  if (analyses.has(deal) || analysing.has(deal)) return;
  analysing.add(deal);
  try {
    const res = await fetch(`${api}/analysis?deal=${deal}`, { headers: headers() });
    /** @type {unknown} */
    const body = await res.json().catch(() => null);
    if (res.status === 202 || res.status === 503) {
      setTimeout(() => { analysing.delete(deal); void load(deal); }, 1000 * Number(res.headers.get('Retry-After') || 2));
      return;
    }
    if (!res.ok) throw problem(res, /** @type {Partial<ProblemBody> | null} */ (body));
    analyses.set(deal, /** @type {DealAnalysis} */ (body));
    analysing.delete(deal);
    redraw();
  } catch (e) { analysing.delete(deal); failed(e); }
}

/** The analysis's value of a card played in `deal`: null if unknown (not analysed yet, or over the budget). @param {number} deal @param {string} code */
const valueOf = (deal, code) => analyses.get(deal)?.cards.find((c) => c.card === code) ?? null;
/** @param {number} deal @param {string} code */
export const costOf = (deal, code) => valueOf(deal, code)?.cost ?? null;
/** @param {number | null} n */
const signed = (n) => (n !== null && n > 0 ? `+${n}` : String(n));

/** The verdict on the card played at the moment on screen, if it is one. @param {ReplayView} view @param {number} version */
function verdict(view, version) {
  const e = state.events[version - 1];
  if (e?.type !== 'CardPlayed') return [];
  const v = valueOf(e.data.deal, e.data.card);
  if (!v) return [];
  const args = { who: seatName(view.seats, e.data.seat), card: cardText(e.data.card) };
  const text = v.cost === null ? t('verdict-unknown', args) : v.cost === 0 ? t('verdict-best', { ...args, n: v.cost }) : t('verdict-cost', { ...args, n: v.cost });
  return [el('p', { id: 'verdict', class: v.cost !== null && v.cost >= 1 ? 'costly-text' : '' }, text)];
}

/** The analysis of the deal on screen, once it is scored (`revealed`); asked for if not read yet. @param {ReplayView} view @param {RevealedDeal | null} revealed @param {number} version */
export function renderAnalysis(view, revealed, version) {
  const box = $('#analysis-body');
  $('#analysis').hidden = !revealed;
  if (!revealed) return void box.replaceChildren();
  $('#analysis-heading').textContent = t('analysis-heading', { deal: revealed.deal });
  const a = analyses.get(revealed.deal);
  if (!a) {
    box.replaceChildren(el('p', { class: 'muted' }, t('analysis-pending', { deal: revealed.deal })));
    return void load(revealed.deal);
  }
  const name = (/** @type {number} */ s) => seatName(view.seats, s);
  // A seat whose search from the first lead stopped at the budget has no par: said in words, not "?".
  const par = a.par.tricks.every((x) => x === null)
    ? t('analysis-par-unknown', { deal: a.deal })
    : t('analysis-par', {
      deal: a.deal,
      par: a.par.tricks.map((x, s) => (x === null ? t('analysis-par-seat-unknown', { who: name(s) }) : t('analysis-par-seat', { who: name(s), tricks: x, points: signed(a.par.points[s]) }))).join(' · '),
    });
  const costly = a.cards.filter((c) => c.cost !== null && c.cost >= 1);
  box.replaceChildren(
    ...verdict(view, version),
    el('p', { id: 'par' }, par),
    el('p', {}, costly.length ? t('analysis-costly') : t('analysis-none-costly')),
    el('div', { id: 'costly' }, ...costly.map((c) => el('figure', { 'data-trick': String(c.trick) }, card(c.card, 'costly'),
      el('figcaption', {}, t('analysis-costly-card', { trick: c.trick, who: name(c.seat), n: c.cost ?? 0 }))))),
    ...(a.overBudget ? [el('p', { class: 'muted' }, t('analysis-some-unsolved'))] : []),
  );
}
