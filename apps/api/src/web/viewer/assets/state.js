// What the page knows of the match: its events (as this caller may see them) and the moment on screen.
// `dealStarts` and `trickStarts` are the versions the jumps land on (a deal's first DealStarted, a
// trick's lead), so that the buttons and the keys need not search the log.
export const state = {
  version: 1,
  latest: 1,
  /** @type {{ version: number, type: string, data: any, standIn?: boolean }[]} */
  events: [],
  /** Per event (by index): the deal and trick it belongs to, for the step line. */
  /** @type {{ deal: number | null, trick: number | null }[]} */
  context: [],
  /** The version of each deal's DealScored, so that a moment shows only the deals scored by then. */
  scoredAt: new Map(),
  /** @type {number[]} */
  dealStarts: [],
  /** @type {number[]} */
  trickStarts: [],
  replays: new Map(),
  scorecard: null,
  following: true,
};

/** Takes in the whole log: the context of every event and where each deal and trick starts. */
export function indexEvents(events) {
  const context = [];
  const scoredAt = new Map();
  const dealStarts = new Map();
  const trickStarts = [];
  let deal = null;
  let trick = null;
  let lastTrick = null; // the deal and trick of the card just before, '' after a deal (re)starts
  for (const e of events) {
    const d = e.data ?? {};
    if (typeof d.deal === 'number') deal = d.deal;
    if (e.type === 'DealStarted') {
      trick = null;
      lastTrick = '';
      if (!dealStarts.has(d.deal)) dealStarts.set(d.deal, e.version);
    }
    if (e.type === 'CardPlayed') {
      trick = d.trick;
      const key = `${d.deal}/${d.trick}`;
      if (key !== lastTrick) trickStarts.push(e.version);
      lastTrick = key;
    }
    if (e.type === 'DealScored' && e.data) scoredAt.set(d.deal, e.version);
    const inTrick = e.type === 'CardPlayed' || e.type === 'TrickTaken';
    context.push({ deal, trick: inTrick ? (d.trick ?? trick) : null });
  }
  Object.assign(state, { events, context, scoredAt, dealStarts: [...dealStarts.values()].sort((a, b) => a - b), trickStarts, latest: Math.max(1, events.length) });
}

/**
 * The version a jump lands on, or null: `starts` are the first events of the tricks (or deals), and
 * the one on screen is the last start at or before `version`. -1 goes to the one before it ("previous"
 * is the trick before this one, from its middle too), unless the moment is past the end of that one
 * (`inside` false: between two tricks, two deals), then to its start; +1 goes to the next start.
 */
export function jumpTarget(starts, version, delta, inside) {
  const current = starts.filter((v) => v <= version).length - 1; // -1: before the first
  const target = delta < 0 && !inside ? current : current + delta;
  return target >= 0 && target < starts.length ? starts[target] : null;
}

/** Whether the moment `version` is still inside the trick (a card or the trick's taking). */
export const insideTrick = (version) => state.context[version - 1]?.trick != null;
/** Whether the moment `version` is still inside the deal begun last (not after that deal was scored). */
export function insideDeal(version) {
  const start = state.dealStarts.filter((v) => v <= version).pop();
  if (start === undefined) return false;
  const scored = state.scoredAt.get(state.events[start - 1]?.data?.deal);
  return scored === undefined || version <= scored;
}
