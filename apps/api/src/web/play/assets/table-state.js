// What the parts of the seat's table (table.js) share: the match and the seat's token, what the page
// read and what the person picked, and the table's own actions (draw, send a command, read again).
/** @import { DealFollower } from './follow.js' */
/** @import { Scorecard, SeatView, Status } from '../../pages/assets/types' */

/**
 * @typedef {object} TableState
 * @property {SeatView | null} view the seat's view as last read (live: a deal end may be drawn instead, follow.js)
 * @property {Scorecard | null} scorecard the scorecard read with it
 * @property {Set<string>} picked the cards picked for the lay-away
 * @property {number | null} pickedDeal the deal they were picked in
 * @property {boolean} showLast the last trick shown (on demand)
 * @property {boolean} busy a move on its way
 * @property {boolean} ended the match's stream ended (`event: end`)
 * @property {boolean} kept the seat kept in this browser (seats.js)
 * @property {boolean} live the page saw the match open (so it follows a rematch)
 * @property {boolean} reading a read of the view and scorecard under way
 * @property {boolean} again another read asked for meanwhile
 */

/**
 * @typedef {object} Table
 * @property {string} id the match
 * @property {string} token the seat's token, or its player's
 * @property {string} api the match's address (/api/matches/{id})
 * @property {TableState} state
 * @property {DealFollower} follower the deal ends held on screen
 * @property {(seat: number) => string} name a seat's name
 * @property {() => void} render draws the table
 * @property {(command: string, body?: unknown) => Promise<void>} act sends a command (`play`, `seats/1/back`), then reads again
 * @property {() => Promise<void>} update reads the seat's view and the scorecard again, then draws
 */

/** A match's statuses in which its seat is kept and its stream followed. @type {ReadonlySet<Status>} */
export const OPEN = new Set(['waiting', 'playing']);

/** @returns {TableState} */
export const newState = () => ({
  view: null, scorecard: null, picked: new Set(), pickedDeal: null, showLast: false, busy: false, ended: false, kept: false, live: false, reading: false, again: false,
});
