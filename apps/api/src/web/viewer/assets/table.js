// The table at the moment on screen: the three seats, the cards on the table, the trick and the last one.
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { cardBack, cardInText } from '../../pages/assets/cards.js';
import { costOf } from './analysis.js';
import { badge, card, contractNodes, seatName } from './words.js';
/** @import { Child } from '../../pages/assets/dom.js' */
/** @import { ReplayView, RevealedDeal } from '../../pages/assets/types' */

/** A seat: its name and roles, its tricks and total, its hand (face down where not seen), what it laid away. @param {number} seat @param {ReplayView} view @param {RevealedDeal | null} revealed */
function renderSeat(seat, view, revealed) {
  const box = $(`#seat-${seat}`);
  box.className = `seat ${view.turn === seat ? 'turn' : ''}`;
  const bot = view.seats[seat]?.bot;
  const roles = [
    bot ? t('role-bot', { bot }) : null,
    view.dealer === seat ? t('role-dealer') : null,
    view.forehand === seat ? t('role-forehand') : null,
    view.seat === seat ? t('role-you') : null,
  ].filter((role) => role !== null);
  /** @type {(string | null)[]} */
  let hand;
  if (revealed) hand = revealed.hands[seat];
  else if (view.seat === seat) hand = view.hand ?? [];
  else hand = Array(view.handSizes[seat]).fill(null);
  const hidden = hand.filter((c) => !c).length;
  const away = revealed && view.forehand === seat ? revealed.laidAway : view.seat === seat ? view.laidAway : null;
  box.replaceChildren(
    el('h2', {}, seatName(view.seats, seat), ...roles.map((r) => badge(r))),
    el('div', { class: 'stats' }, t('seat-stats', { tricks: view.tricksTaken[seat], total: view.totals[seat] })),
    el('div', { class: 'cards hand' }, ...hand.map((c) => (c ? card(c) : cardBack())),
      ...(hidden ? [el('span', { class: 'sr-only' }, t('seat-hidden-cards', { n: hidden }))] : [])),
    ...(away && away.length ? [el('div', { class: 'stats' }, t('seat-laid-away')), el('div', { class: 'cards hand' }, ...away.map((c) => card(c, 'away')))] : []),
  );
}

/** Where the deal stands, in words: the deal, the contract, whose turn it is. @param {ReplayView} view @returns {Child[]} */
function infoLine(view) {
  const name = (/** @type {number} */ s) => seatName(view.seats, s);
  const winners = view.winners ?? [];
  if (view.status === 'finished') return [t('info-finished', { count: winners.length, winners: winners.map((s) => name(s)).join(', ') })];
  if (view.status === 'waiting') return [t('info-waiting')];
  if (!view.dealNumber) return [t('info-before')];
  /** @type {Child[][]} */
  const parts = [[t('info-deal', { deal: view.dealNumber, deals: view.dealsInMatch })]];
  if (view.contract) parts.push(contractNodes(view.contract, view.trump));
  else if (view.phase === 'contract' && view.forehand != null) parts.push([t('info-choosing', { who: name(view.forehand) })]);
  if (view.turn !== null) parts.push([t('info-turn', { who: name(view.turn) })]);
  return parts.flatMap((p, i) => (i ? [' · ', ...p] : p));
}

/** The table at the moment on screen. @param {ReplayView} view @param {RevealedDeal | null} revealed */
export function renderTable(view, revealed) {
  [0, 1, 2].forEach((s) => renderSeat(s, view, revealed));
  const name = (/** @type {number} */ s) => seatName(view.seats, s);
  $('#info').replaceChildren(...infoLine(view));
  $('#tableCards').replaceChildren(...view.tableCards.map((c) => card(c)));
  $('#trick').replaceChildren(...view.trick.map((p) => {
    const cost = costOf(view.dealNumber, p.card);
    const costly = cost !== null && cost >= 1;
    return el('figure', {}, card(p.card, costly ? 'costly' : ''),
      el('figcaption', {}, name(p.seat), ...(costly ? [el('br'), t('cost-tricks', { n: cost })] : [])));
  }));
  const last = view.lastTrick;
  $('#lastTrick').replaceChildren(...(last ? [t('last-trick', { who: name(last.winner) }), ...last.cards.flatMap((p) => [' ', cardInText(p.card)])] : []));
}
