// What the page knows of the match: its events (as this caller may see them) and the moment on screen.
// `dealStarts` and `trickStarts` are the versions the jumps land on (a deal's first DealStarted, a
// trick's lead), so that the buttons and the keys need not search the log.
/** @import { MatchEvent, Replay, Scorecard } from '../../pages/assets/types' */

/** Where an event stands: the deal and trick it belongs to. @typedef {{ deal: number | null, trick: number | null }} EventContext */

export const state = {
  version: 1,
  latest: 1,
  /** @type {MatchEvent[]} */
  events: [],
  /** Per event (by index): the deal and trick it belongs to, for the step line. */
  /** @type {EventContext[]} */
  context: [],
  /** The version of each deal's DealScored, so that a moment shows only the deals scored by then. @type {Map<number, number>} */
  scoredAt: new Map(),
  /** @type {number[]} */
  dealStarts: [],
  /** @type {number[]} */
  trickStarts: [],
  /** The replays read, by version. @type {Map<number, Replay>} */
  replays: new Map(),
  /** @type {Scorecard | null} */
  scorecard: null,
  following: true,
};

/** The deal an event belongs to, if its data names one. @param {MatchEvent} e */
export const dealOf = (e) => (e.data && 'deal' in e.data ? e.data.deal : undefined);

/** Takes in the whole log: the context of every event and where each deal and trick starts. @param {MatchEvent[]} events */
export function indexEvents(events) {
  /** @type {EventContext[]} */
  const context = [];
  /** @type {Map<number, number>} */
  const scoredAt = new Map();
  /** @type {Map<number, number>} */
  const dealStarts = new Map();
  /** @type {number[]} */
  const trickStarts = [];
  /** @type {number | null} */
  let deal = null;
  /** @type {number | null} */
  let trick = null;
  /** @type {string | null} */
  let lastTrick = null; // the deal and trick of the card just before, '' after a deal (re)starts
  for (const e of events) {
    const named = dealOf(e);
    if (typeof named === 'number') deal = named;
    if (e.type === 'DealStarted') {
      trick = null;
      lastTrick = '';
      if (!dealStarts.has(e.data.deal)) dealStarts.set(e.data.deal, e.version);
    }
    if (e.type === 'CardPlayed') {
      trick = e.data.trick;
      const key = `${e.data.deal}/${e.data.trick}`;
      if (key !== lastTrick) trickStarts.push(e.version);
      lastTrick = key;
    }
    if (e.type === 'DealScored' && e.data) scoredAt.set(e.data.deal, e.version);
    const inTrick = e.type === 'CardPlayed' || e.type === 'TrickTaken';
    context.push({ deal, trick: inTrick ? (e.data.trick ?? trick) : null });
  }
  Object.assign(state, { events, context, scoredAt, dealStarts: [...dealStarts.values()].sort((a, b) => a - b), trickStarts, latest: Math.max(1, events.length) });
}

/**
 * The version a jump lands on, or null: `starts` are the first events of the tricks (or deals), and
 * the one on screen is the last start at or before `version`. -1 goes to the one before it ("previous"
 * is the trick before this one, from its middle too), unless the moment is past the end of that one
 * (`inside` false: between two tricks, two deals), then to its start; +1 goes to the next start.
 * @param {number[]} starts @param {number} version @param {number} delta @param {boolean} inside
 */
export function jumpTarget(starts, version, delta, inside) {
  const current = starts.filter((v) => v <= version).length - 1; // -1: before the first
  const target = delta < 0 && !inside ? current : current + delta;
  return target >= 0 && target < starts.length ? starts[target] : null;
}

/** Whether the moment `version` is still inside the trick (a card or the trick's taking). @param {number} version */
export const insideTrick = (version) => state.context[version - 1]?.trick != null;
/** Whether the moment `version` is still inside the deal begun last (not after that deal was scored). @param {number} version */
export function insideDeal(version) {
  const start = state.dealStarts.filter((v) => v <= version).pop();
  if (start === undefined) return false;
  const first = state.events[start - 1];
  const deal = first ? dealOf(first) : undefined;
  const scored = deal === undefined ? undefined : state.scoredAt.get(deal);
  return scored === undefined || version <= scored;
}
