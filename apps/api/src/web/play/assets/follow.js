// Follows the deals as they end. The service moves on at once (a bot deals the next deal within
// milliseconds), so the page holds each deal's end on screen until the person moves on: the last
// trick, the badges and header of the scored deal, and a summary read from the deal's events (public
// once DealScored is in the log: hands, laid-away cards). Meanwhile the live view goes on underneath;
// dismissing the summary shows it again.
import { call } from './api.js';
/** @import { Card, Contract, EventOf, EventPage, LastTrick, MatchEvent, Scorecard, ScorecardDeal, Seat, SeatView, Suit } from '../../pages/assets/types' */

/**
 * A deal as it ended, read from its events.
 * @typedef {{ deal: number, version: number, dealer: Seat | null, forehand: Seat, contract: Contract, trump: Suit | null,
 *   tableCards: Card[], hands: (Card[] | null)[], laidAway: Card[], tricks: number[], quotas: number[], points: number[],
 *   totals: number[], lastTrick: LastTrick | null, finished: boolean }} DealEnd
 */
/** The view the table draws: the seat's, or the deal end held on screen (`scored`). @typedef {SeatView & { scored?: boolean }} ShownView */
/** A scorecard's row as drawn: the service's, or one filled in from a deal end (its dealer unknown if its start was not read). @typedef {Omit<ScorecardDeal, 'dealer'> & { dealer: Seat | null }} ShownDeal */
/** The scorecard the table draws. @typedef {Omit<Scorecard, 'deals'> & { deals: ShownDeal[] }} ShownScorecard */
/** @typedef {ReturnType<typeof dealFollower>} DealFollower */

/** @param {string} api the match's address (/api/matches/{id}) @param {string} token */
export function dealFollower(api, token) {
  /** Deals scored before the page first looked: no summary for those. @type {number | null} */
  let seen = null;
  /** Events are read from here on (the version of the last DealScored summarised). */
  let after = 0;
  /** @type {DealEnd[]} deals ended, waiting to be dismissed (the first one is on screen) */
  const queue = [];
  /** @type {Map<number, DealEnd>} */
  const ended = new Map();
  /** @type {Promise<boolean> | null} */
  let reading = null;

  /** The deal's events from the log, unredacted now that it is scored. @param {number} number */
  async function readDeal(number) {
    const end = dealEnd(await readEvents(api, token, after), number);
    if (end) after = end.version;
    return end;
  }

  /** The deal ends after deal `from`, up to the scorecard's last, in order; whether there were any. @param {Scorecard} scorecard @param {number} from */
  async function readEnds(scorecard, from) {
    let added = false;
    try {
      for (let number = from + 1; number <= scorecard.deals.length; number++) {
        const end = await readDeal(number);
        if (!end) break;
        ended.set(end.deal, end);
        // A newer deal end replaces one still on screen (a person away while stand-ins played on
        // reads the latest deal, not a pile of them; the scorecard has the rest).
        queue.splice(0, queue.length, end);
        seen = number;
        added = true;
      }
    } finally {
      reading = null;
    }
    return added;
  }

  /**
   * Told of every scorecard the page reads: a deal scored since the last one is summarised (in
   * order). Resolves once the summaries it found are read; `changed` says whether there are new ones.
   * @param {Scorecard} scorecard
   * @returns {Promise<boolean>}
   */
  async function observe(scorecard) {
    const count = scorecard.deals.length;
    if (seen === null) {
      seen = count;
      after = 0;
      return false;
    }
    if (count <= seen) return false;
    if (reading) return reading;
    reading = readEnds(scorecard, seen);
    return reading;
  }

  /** The deal end on screen, if any. */
  const current = () => queue[0] ?? null;

  /** The person moved on: the next deal end, or the live table. */
  const dismiss = () => void queue.shift();

  /** @param {SeatView} view @param {Scorecard | null} scorecard */
  const shown = (view, scorecard) => shownView(current(), view, scorecard);
  /** @param {Scorecard} scorecard */
  const scorecardShown = (scorecard) => shownScorecard(current(), ended, scorecard);

  return { observe, current, dismiss, shown, scorecardShown };
}

/** The match's events after version `after`, every page of them. @param {string} api @param {string} token @param {number} after */
async function readEvents(api, token, after) {
  /** @type {MatchEvent[]} */
  const events = [];
  for (let from = after; ;) {
    const page = /** @type {EventPage} */ (await call('GET', `${api}/events?after=${from}&limit=1000`, { token }));
    events.push(...page.events);
    if (page.next === null || page.events.length === 0) break;
    from = page.next;
  }
  return events;
}

/** The deal an event belongs to, if its data names one. @param {MatchEvent} e */
const dealOf = (e) => (e.data && 'deal' in e.data ? e.data.deal : undefined);

/**
 * The last event of `type` among `events`.
 * @template {MatchEvent['type']} T
 * @param {MatchEvent[]} events @param {T} type
 * @returns {EventOf<T> | undefined}
 */
const lastOf = (events, type) => /** @type {EventOf<T>[]} */ (events.filter((e) => e.type === type)).pop();

/**
 * The first event of `type` among `events`.
 * @template {MatchEvent['type']} T
 * @param {MatchEvent[]} events @param {T} type
 * @returns {EventOf<T> | undefined}
 */
const firstOf = (events, type) => /** @type {EventOf<T> | undefined} */ (events.find((e) => e.type === type));

/**
 * Deal `number` as it ended, from the match's events; null if they do not hold its DealScored.
 * @param {MatchEvent[]} events @param {number} number
 * @returns {DealEnd | null}
 */
function dealEnd(events, number) {
  const own = events.filter((e) => dealOf(e) === number);
  const scored = lastOf(own, 'DealScored');
  if (!scored) return null;
  // A voided deal is dealt again under the same number: only the attempt that was scored counts.
  const started = lastOf(own.filter((e) => e.version < scored.version), 'DealStarted');
  const afterStart = own.filter((e) => !started || e.version > started.version);
  const taken = lastOf(afterStart, 'TrickTaken');
  const contract = firstOf(own.filter((e) => e.version > (started?.version ?? 0)), 'ContractChosen');
  return {
    deal: number,
    version: scored.version,
    dealer: started?.data.dealer ?? null,
    forehand: scored.data.forehand,
    contract: scored.data.contract ?? contract?.data.contract,
    trump: scored.data.trump ?? null,
    tableCards: started?.data.tableCards ?? [],
    hands: lastOf(afterStart, 'HandsDealt')?.data.hands ?? [],
    laidAway: lastOf(afterStart, 'CardsLaidAway')?.data.cards ?? [],
    tricks: scored.data.tricks,
    quotas: scored.data.quotas,
    points: scored.data.points,
    totals: scored.data.totals,
    lastTrick: taken ? { cards: taken.data.cards, winner: taken.data.winner } : null,
    finished: events.some((e) => e.type === 'MatchFinished'),
  };
}

/**
 * The view to draw. While a deal end is held: the scored deal as it ended (its dealer and forehand,
 * contract, tricks, the last trick on the table, nothing to do). Else the live view, where a deal
 * just scored and the next not yet dealt is named as the next deal (the view still counts the old one).
 * @param {DealEnd | null} end @param {SeatView} view @param {Scorecard | null} scorecard
 * @returns {ShownView}
 */
function shownView(end, view, scorecard) {
  // The match's last deal is not held: the finished table (winners, "Play again") shows with its
  // summary, and its last trick.
  if (end?.finished) return { ...view, phase: 'play', dealNumber: end.deal, trick: [], lastTrick: end.lastTrick, scored: true };
  if (end) {
    return {
      ...view,
      // The version of the last trick: the page shows what the seat saw then, not later cards.
      version: end.version - 1,
      status: 'playing', phase: 'play', dealNumber: end.deal, dealer: end.dealer, forehand: end.forehand,
      turn: null, legal: null, hand: [], laidAway: null, handSizes: [0, 0, 0], tableCards: [],
      contract: end.contract, trump: end.trump, trick: [], lastTrick: end.lastTrick,
      tricksTaken: end.tricks, totals: end.totals, clock: null, winners: null, rematch: null, scored: true,
    };
  }
  if (view.status === 'playing' && view.phase === 'deal' && view.dealNumber > 0 && scorecard?.deals.some((d) => d.number === view.dealNumber)) {
    return { ...view, dealNumber: view.dealNumber + 1, lastTrick: null, tricksTaken: [0, 0, 0], contract: null, trump: null };
  }
  return view;
}

/**
 * The scorecard to draw: while a deal end is held, up to that deal, its row filled in if the scorecard lags.
 * @param {DealEnd | null} end @param {Map<number, DealEnd>} ended @param {Scorecard} scorecard
 * @returns {ShownScorecard}
 */
function shownScorecard(end, ended, scorecard) {
  /** @type {ShownDeal[]} */
  const rows = [...scorecard.deals];
  for (const e of ended.values()) {
    if (!rows.some((d) => d.number === e.deal)) {
      rows.push({ number: e.deal, dealer: e.dealer, forehand: e.forehand, contract: e.contract, trump: e.trump, tricks: e.tricks, points: e.points, totals: e.totals });
    }
  }
  rows.sort((a, b) => a.number - b.number);
  if (!end) return { ...scorecard, deals: rows };
  const upTo = rows.filter((d) => d.number <= end.deal);
  return { ...scorecard, deals: upTo, totals: end.totals, finished: end.finished && scorecard.finished, winners: end.finished ? scorecard.winners : null };
}
