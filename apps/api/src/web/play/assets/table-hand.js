// The seat's hand: its cards as buttons (the playable ones raised, the others dimmed; during the
// lay-away each picks or drops a card), one of them the Tab stop; and the cards it laid away.
import { $, el, find } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { byHandOrder, faceUp } from './cards.js';
/** @import { ShownView } from './follow.js' */
/** @import { Table } from './table-state.js' */

/** @param {Table} table @param {ShownView} view */
export function renderHand(table, view) {
  const { state } = table;
  const legal = view.legal;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && active.closest('#hand') ? active.dataset.card : null;
  const playable = legal?.action === 'play' ? new Set(legal.cards) : null;
  const count = legal?.action === 'discard' ? legal.count : null;
  const discarding = count !== null;
  const cards = [...view.hand].sort(byHandOrder).map((code) => {
    const open = discarding || (playable?.has(code) ?? false);
    const cls = discarding ? (state.picked.has(code) ? 'picked' : 'legal') : open ? 'legal' : playable ? 'dim' : 'idle';
    return faceUp(code, 'button', {
      type: 'button', class: cls, disabled: !open, tabindex: '-1',
      'aria-pressed': discarding ? String(state.picked.has(code)) : undefined,
      onclick: () => (count !== null ? pick(table, code, count) : table.act('play', { card: code })),
    });
  });
  $('#hand').replaceChildren(...cards);
  const open = cards.filter((b) => !b.disabled);
  // One card of the hand takes the Tab stop (a roving tab index); arrows move along the rest.
  const target = open.find((b) => b.dataset.card === focused) ?? open[0];
  if (target) target.tabIndex = 0;
  const idle = document.activeElement === document.body || document.activeElement === null;
  if (target && (focused || (idle && !state.busy))) target.focus({ preventScroll: true });
  $('#away').replaceChildren(...(view.laidAway?.length ? [el('span', { class: 'label' }, t('laid-away')), ...view.laidAway.map((c) => faceUp(c, 'span', { class: 'away' }))] : []));
}

/** Picks a card for the lay-away, or drops it; the button that lays them away takes the focus once `count` are picked. @param {Table} table @param {string} code @param {number} count */
function pick(table, code, count) {
  const { picked } = table.state;
  if (picked.has(code)) picked.delete(code);
  else if (picked.size < count) picked.add(code);
  table.render();
  if (picked.size === count) find('#layAway')?.focus();
}
