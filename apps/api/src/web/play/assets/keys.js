// The table's keys: arrows along the playable cards of the hand, and a letter or digit per action
// (each presses the button the page shows for it, so a key does nothing a click could not).
import { find } from '../../pages/assets/dom.js';

export function listenToKeys() {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target instanceof Element && e.target.closest('input, select, textarea'))) return;
    const open = [...document.querySelectorAll('#hand button:not([disabled])')].filter((b) => b instanceof HTMLButtonElement);
    const at = open.findIndex((b) => b === document.activeElement);
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: open.length - 1 };
    const move = Object.hasOwn(moves, e.key) ? moves[e.key] : undefined;
    if (move !== undefined && open.length) {
      e.preventDefault();
      const next = open[at < 0 ? (e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'End' ? open.length - 1 : 0) : Math.max(0, Math.min(open.length - 1, move))];
      for (const b of open) b.tabIndex = b === next ? 0 : -1;
      next.focus();
      return;
    }
    const key = e.key.toLowerCase();
    /** @param {string} sel */
    const press = (sel) => { const b = find(sel, HTMLButtonElement); if (b && !b.disabled) { e.preventDefault(); b.click(); } };
    if (/^[1-9]$/.test(key)) press(`#actions button[data-key="${key}"]`);
    else if (key === 'a') press('#layAway');
    else if (key === 'd') press('#dealBtn');
    else if (key === 'u') press('#cutBtn');
    else if (key === 'l') press('#lastTrickToggle:not([hidden])');
  });
}
