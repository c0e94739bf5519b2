// "Your seat's link": the table's address with this seat's token in the fragment. Opened on any
// device it seats the person again (a closed tab, another browser); whoever has it plays the seat.
import { copyRow, el } from '../../pages/assets/dom.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
import { isPlayerToken } from './player.js';
import { seatLink } from './seats.js';
import { notifyOffer } from './turn-clock.js';
/** @import { SeatView } from '../../pages/assets/types' */

/** Shown while the match is open (waiting or playing); drawn once, so a selection or a copy is not lost. @param {HTMLElement} box @param {SeatView} view @param {string} token */
export function renderSeatLink(box, view, token) {
  const open = view.status === 'waiting' || view.status === 'playing';
  box.hidden = !open;
  if (!open || box.childElementCount) return;
  // Played with the player's token: that token is the key on every device, and it never goes in a link.
  if (isPlayerToken(token)) {
    return void box.replaceChildren(
      el('h2', {}, t('seat-devices-title')),
      el('p', { id: 'seatLinkHelp' }, t('seat-bound-help', { name: view.seats[view.seat]?.name ?? '' })),
      ...[notifyOffer()].filter((offer) => offer !== null),
    );
  }
  const { row } = copyRow({ id: 'seatLink', 'aria-label': tAttr('seat-link-field', 'aria-label'), autocomplete: 'off' }, seatLink(view.id, token), 'copySeatLink', t('copy-seat-link'), t('copied'));
  box.replaceChildren(
    el('h2', {}, t('seat-link-title')),
    el('p', { id: 'seatLinkHelp' }, t('seat-link-help')),
    ...(view.seats[view.seat]?.player ? [el('p', { id: 'seatPlayerHelp' }, t('seat-player-help'))] : []),
    row,
    ...[notifyOffer()].filter((offer) => offer !== null),
  );
}
