// The turn clock at the table (a match created with `options.clock`): the seat to act's countdown, the
// seats a stand-in bot plays for while their person is away, the way back for that person, and the
// tab's title and a notification when it becomes this seat's turn.
import { serverNow } from './api.js';
import { el } from '../../pages/assets/dom.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
/** @import { SeatView } from '../../pages/assets/types' */

const LOW_SECONDS = 10;

/** @param {string} deadline @param {number} turnSeconds */
const secondsLeft = (deadline, turnSeconds) => Math.max(0, Math.min(turnSeconds, Math.ceil((Date.parse(deadline) - serverNow()) / 1000)));
/** @param {number} s */
const minutes = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** The countdown beside the seat that must act by `view.clock.deadline`, or null (no clock runs for it). @param {SeatView} view @param {number} seat */
export function clockBadge(view, seat) {
  const clock = view.clock;
  if (!clock || clock.seat !== seat || view.status !== 'playing') return null;
  const badge = el('span', { class: 'badge clock', role: 'timer', title: tAttr('clock-badge', 'title'), 'data-deadline': clock.deadline, 'data-turn-seconds': String(clock.turnSeconds) });
  tick(badge);
  return badge;
}

/** @param {HTMLElement} badge */
function tick(badge) {
  const left = secondsLeft(badge.dataset.deadline ?? '', Number(badge.dataset.turnSeconds));
  if (badge.dataset.seconds === String(left)) return;
  badge.dataset.seconds = String(left);
  badge.textContent = minutes(left);
  badge.setAttribute('aria-label', tAttr('clock-badge', 'aria-label', { n: left }));
  badge.classList.toggle('low', left < LOW_SECONDS);
}

/** @type {number | null} */
let ticking = null;
/** Every countdown on the page follows the time (checked four times a second, so no second is skipped). */
export function startClocks() {
  ticking ??= setInterval(() => document.querySelectorAll('.clock[data-deadline]').forEach((badge) => { if (badge instanceof HTMLElement) tick(badge); }), 250);
}

/** "… is away — a bot is playing for them", under another seat's name, or null. @param {SeatView} view @param {number} seat @param {string} name */
export const awayNote = (view, seat, name) =>
  (view.away?.[seat] && view.status === 'playing' ? el('p', { class: 'awayNote', 'data-away': String(seat) }, t('away-note', { name })) : null);

/**
 * This seat away: what that means and the button that brings the person back (`back` sends it).
 * @param {HTMLElement} box @param {SeatView} view @param {() => unknown} back
 */
export function renderBack(box, view, back) {
  const away = !!view.away?.[view.seat] && view.status === 'playing';
  box.hidden = !away;
  if (!away) return box.replaceChildren();
  const drawn = box.querySelector('#backBtn');
  if (drawn instanceof HTMLButtonElement) return void (drawn.disabled = false); // kept (and its focus); off again while a move is on its way
  box.replaceChildren(
    el('p', {}, el('strong', {}, t('back-away')), ` ${t('back-detail')}`),
    el('button', { id: 'backBtn', type: 'button', onclick: back }, t('back-button')),
  );
}

/** @type {Notification | null} */
let notification = null;
let wasTurn = false;

/** The tab's title says whose turn it is; a notification (if allowed) when the turn comes while the tab is out of sight. @param {SeatView} view */
export function signalTurn(view) {
  const turn = view.status === 'playing' && !!view.legal;
  document.title = turn ? t('title-turn') : view.status === 'finished' ? t('title-finished') : t('page-title');
  if (turn && !wasTurn && document.hidden && allowed()) {
    notification = new Notification(t('notify-title'), { body: t('notify-body'), tag: `bismarck-turn-${view.id ?? ''}` });
    notification.onclick = () => { window.focus(); notification?.close(); };
  }
  if (!turn) notification?.close();
  wasTurn = turn;
}

const allowed = () => 'Notification' in window && Notification.permission === 'granted';

/** The button that asks the browser for notifications, or null (not offered, or already answered). */
export function notifyOffer() {
  if (!('Notification' in window) || Notification.permission !== 'default') return null;
  const button = el('button', { id: 'notifyBtn', type: 'button', onclick: () => {
    void Notification.requestPermission().then(() => button.parentElement?.remove(), () => undefined);
  } }, t('notify-button'));
  return el('p', { class: 'notify' }, `${t('notify-intro')} `, button);
}
