// How the table names and describes a seat: its name (twins told apart), its tricks against its
// quota, and its badges (a bot, online, dealer, forehand, to act, the turn clock).
import { el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { clockBadge } from './turn-clock.js';
/** @import { SeatName, SeatView } from '../../pages/assets/types' */

/**
 * A seat's name; two seats of one name (two bots of one strength) are told apart by their seat.
 * @param {SeatName[]} seats @param {number} seat
 */
export function seatName(seats, seat) {
  const own = seats[seat]?.name;
  if (own === null || own === undefined) return t('open-seat', { seat });
  return seats.filter((s) => s.name === own).length > 1 ? t('seat-twin', { name: own, seat }) : own;
}

/** A seat's tricks against its quota (the view's, as the rules set it), and its total. @param {SeatView} view @param {number} seat */
export function tally(view, seat) {
  // null before the contract (or in a view stored before views carried quotas): no quota to show.
  const q = view.quotas?.[seat] ?? null;
  // In pass the quota is a ceiling ("at most 6"), elsewhere a goal ("3 of 8").
  const contract = q === null ? 'none' : view.contract === 'pass' ? 'pass' : 'other';
  return t('tally', { contract, taken: view.tricksTaken[seat], quota: q ?? 0, total: view.totals[seat] });
}

/** A person's seat: online while a live stream of that seat is open (in words, not by colour alone). @param {SeatView} view @param {number} seat */
function presence(view, seat) {
  if (view.seats[seat]?.bot || !view.connected || view.status === 'waiting' && !view.seats[seat]?.name) return null;
  const on = !!view.connected[seat];
  return el('span', { class: `badge presence ${on ? 'on' : 'off'}`, 'data-presence': String(seat) }, el('span', { class: 'dot', 'aria-hidden': 'true' }), on ? t('online') : t('offline'));
}

/** A seat's badges beside its name. @param {SeatView} view @param {number} seat */
export function roles(view, seat) {
  const bot = view.seats[seat]?.bot;
  return [
    bot ? el('span', { class: 'badge bot' }, t('bot-badge', { bot })) : null,
    presence(view, seat),
    view.dealer === seat && view.status === 'playing' ? el('span', { class: 'badge' }, t('dealer')) : null,
    view.forehand === seat && view.status === 'playing' ? el('span', { class: 'badge' }, t('forehand')) : null,
    view.turn === seat ? el('span', { class: 'badge turn' }, t('to-act')) : null,
    clockBadge(view, seat),
  ].filter((badge) => badge !== null);
}
