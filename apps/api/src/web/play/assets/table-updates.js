// The seat's table reads its view and the scorecard again (on a stream's wake-up, after a move), and
// sends the seat's moves.
import { call } from './api.js';
import { $ } from '../../pages/assets/dom.js';
import { clearProblem, readFailed, showProblem } from './notice.js';
import { isPlayerToken } from './player.js';
import { offeredRematch, rematch } from './rematch.js';
import { forgetInBrowser, rememberInBrowser } from './seats.js';
import { holdControls } from './table-render.js';
import { OPEN } from './table-state.js';
/** @import { RematchMessage } from './rematch.js' */
/** @import { Table } from './table-state.js' */
/** @import { Scorecard, SeatView } from '../../pages/assets/types' */

/** The seat's view and the scorecard, read again; a wake-up during a read is not dropped. @param {Table} table */
export async function update(table) {
  const { state } = table;
  if (state.reading) { state.again = true; return; }
  let stale = 0;
  state.reading = true;
  try {
    do {
      state.again = false;
      const [view, scorecard] = await Promise.all([
        /** @type {Promise<SeatView>} */ (call('GET', `${table.api}/view`, { token: table.token })),
        /** @type {Promise<Scorecard>} */ (call('GET', `${table.api}/scorecard`)),
      ]);
      if (state.view && view.version < state.view.version) continue; // an older answer: keep the newer
      // The two reads are not one snapshot, and no event follows the match's end to wake the page
      // again: a scorecard read just before the last move would leave the last deal unsummarised, and
      // one read just after it would draw the ended match over a view from before its last card.
      if ((view.status === 'finished') !== scorecard.finished && stale++ < 5) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        state.again = true;
        continue;
      }
      await table.follower.observe(scorecard).catch(() => false); // a deal just scored is held before the next is drawn
      take(table, view, scorecard);
    } while (state.again);
  } finally { state.reading = false; }
}

/** A view and scorecard just read: kept, drawn, and a rematch followed. @param {Table} table @param {SeatView} view @param {Scorecard} scorecard */
function take(table, view, scorecard) {
  const { state } = table;
  state.view = view;
  state.scorecard = scorecard;
  keepSeat(table, view);
  state.live ||= OPEN.has(view.status);
  // The service answers again: a read's failure is over (a refused command's problem stays).
  if ($('#notice').dataset.from === 'read') clearProblem();
  table.render();
  followRematch(table, view);
}

/** The browser keeps the seat while the match is open (the service has accepted the token), and forgets it after. @param {Table} table @param {SeatView} view */
function keepSeat(table, view) {
  if (!OPEN.has(view.status)) return forgetInBrowser(table.id);
  // The player's token is kept once, as the player's (player.js), not as a seat of each match.
  if (!table.state.kept && !isPlayerToken(table.token)) table.state.kept = rememberInBrowser(table.id, view.seat, table.token);
}

/**
 * Another seat started the rematch: a page that was at the table when the match ended asks for its
 * own seat there and moves on (one opened later, on a finished match, shows the way to it instead).
 * @param {Table} table @param {RematchMessage | null} message
 */
export function followRematch(table, message) {
  if (table.state.live && offeredRematch(message)) rematch(table.id, table.token).catch(showProblem);
}

/** Sends a move (`command`, with its body), then reads the table again. @param {Table} table @param {string} command @param {unknown} [body] */
export async function act(table, command, body) {
  const { state } = table;
  if (state.busy) return;
  state.busy = true;
  holdControls();
  clearProblem();
  try {
    await call('POST', `${table.api}/${command}`, { token: table.token, body });
  } catch (error) {
    showProblem(error);
  } finally {
    state.busy = false;
  }
  await table.update().catch(readFailed);
}
