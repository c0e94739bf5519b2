// Live: the seat's event stream (read with fetch, the token in a header: live.js), which also makes
// the seat show as online to the others, wakes the page, which then reads its seat's view; its
// presence messages are drawn at once. Polling if the browser cannot read a stream.
// A lost stream (a restart of the service, the network gone) is replaced by a read every 3 s until
// one succeeds; then the page listens to the stream again. A finished match's stream stays open a
// while for its RematchOffered (then ends; opened after that, the service answers 204 and the
// page stops reading): a page opened later learns of the rematch from the view's `rematch`.
import { openLive } from './live.js';
import { readFailed } from './notice.js';
import { followRematch } from './table-updates.js';
import { OPEN } from './table-state.js';
/** @import { RematchMessage } from './rematch.js' */
/** @import { Table } from './table-state.js' */

/** @param {Table} table */
export function follow(table) {
  const { state } = table;
  if (!state.view || state.view.status === 'abandoned') return;
  const update = () => void table.update().catch(readFailed);
  if (!('ReadableStream' in window)) return void setInterval(update, 3000);
  openLive(`${table.api}/events/stream?after=${state.view.version}`, table.token, {
    message: (data) => {
      followRematch(table, parsed(data));
      update();
    },
    // Who is at the table changes with no new version: shown at once, no read needed.
    presence: (connected) => {
      if (!state.view) return;
      state.view = { ...state.view, connected };
      table.render();
    },
    end: () => {
      state.ended = true;
      update();
    },
    error: () => lost(table),
  });
}

/** The stream failed or was cut: a read every 3 s until one succeeds, then the stream again. @param {Table} table */
function lost(table) {
  const { state } = table;
  if (state.ended || !state.view || !OPEN.has(state.view.status)) return;
  /** @type {number | null} */
  let timer = setInterval(() => void table.update().then(() => {
    if (timer === null) return; // another read already brought the stream back
    clearInterval(timer);
    timer = null;
    follow(table);
  }, readFailed), 3000);
}

/** A stream message's data as JSON, or null. @param {string} data @returns {RematchMessage | null} */
const parsed = (data) => {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
};
