// "Your seat's link": the table's address with this seat's token in the fragment. Opened on any
// device it seats the person again (a closed tab, another browser); whoever has it plays the seat.
import { copyRow, el } from '../../pages/assets/dom.js';
import { isPlayerToken } from './player.js';
import { seatLink } from './seats.js';
import { notifyOffer } from './turn-clock.js';

/** Shown while the match is open (waiting or playing); drawn once, so a selection or a copy is not lost. */
export function renderSeatLink(box, view, token) {
  const open = view.status === 'waiting' || view.status === 'playing';
  box.hidden = !open;
  if (!open || box.childElementCount) return;
  // Played with the player's token: that token is the key on every device, and it never goes in a link.
  if (isPlayerToken(token)) {
    return void box.replaceChildren(
      el('h2', {}, 'Your seat on other devices'),
      el('p', { id: 'seatLinkHelp' }, `This seat is bound to your player, ${view.seats[view.seat]?.name ?? ''}: sign in with the player’s token on any device and the table seats you there. No seat link is needed.`),
      ...[notifyOffer()].filter(Boolean),
    );
  }
  const { row } = copyRow({ id: 'seatLink', 'aria-label': 'Your seat’s link', autocomplete: 'off' }, seatLink(view.id, token), 'copySeatLink', 'Copy your link');
  box.replaceChildren(
    el('h2', {}, 'Your seat’s link'),
    el('p', { id: 'seatLinkHelp' }, 'Open it on any device to take your seat back, for example after closing this tab. It is yours alone: do not share it (the table’s address without it is for friends).'),
    ...(view.seats[view.seat]?.player ? [el('p', { id: 'seatPlayerHelp' }, 'This seat is also bound to your player: its token seats you here on any device where you sign in with it.')] : []),
    row,
    ...[notifyOffer()].filter(Boolean),
  );
}
