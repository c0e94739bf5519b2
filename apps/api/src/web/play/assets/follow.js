// Follows the deals as they end. The service moves on at once (a bot deals the next deal within
// milliseconds), so the page holds each deal's end on screen until the person moves on: the last
// trick, the badges and header of the scored deal, and a summary read from the deal's events (public
// once DealScored is in the log: hands, laid-away cards). Meanwhile the live view goes on underneath;
// dismissing the summary shows it again.
import { call } from './api.js';

/**
 * @typedef {{ deal: number, version: number, dealer: number, forehand: number, contract: string, trump: string | null,
 *   tableCards: string[], hands: string[][], laidAway: string[], tricks: number[], quotas: number[], points: number[],
 *   totals: number[], lastTrick: { cards: { seat: number, card: string }[], winner: number } | null, finished: boolean }} DealEnd
 */

/** @param {string} api the match's address (/api/matches/{id}) @param {string} token */
export function dealFollower(api, token) {
  /** Deals scored before the page first looked: no summary for those. */
  let seen = null;
  /** Events are read from here on (the version of the last DealScored summarised). */
  let after = 0;
  /** @type {DealEnd[]} deals ended, waiting to be dismissed (the first one is on screen) */
  const queue = [];
  /** @type {Map<number, DealEnd>} */
  const ended = new Map();
  let reading = null;

  /** The deal's events from the log, unredacted now that it is scored. */
  async function readDeal(number) {
    const events = [];
    for (let from = after; ;) {
      const page = await call('GET', `${api}/events?after=${from}&limit=1000`, { token });
      events.push(...page.events);
      if (page.next === null || page.events.length === 0) break;
      from = page.next;
    }
    const own = events.filter((e) => e.data?.deal === number);
    const lastOf = (type) => own.filter((e) => e.type === type).pop();
    const scored = lastOf('DealScored');
    if (!scored) return null;
    // A voided deal is dealt again under the same number: only the attempt that was scored counts.
    const started = own.filter((e) => e.type === 'DealStarted' && e.version < scored.version).pop();
    const afterStart = own.filter((e) => !started || e.version > started.version);
    const last = (type) => afterStart.filter((e) => e.type === type).pop();
    const taken = last('TrickTaken');
    const contract = own.find((e) => e.type === 'ContractChosen' && e.version > (started?.version ?? 0));
    after = scored.version;
    return {
      deal: number,
      version: scored.version,
      dealer: started?.data.dealer ?? null,
      forehand: scored.data.forehand,
      contract: scored.data.contract ?? contract?.data.contract,
      trump: scored.data.trump ?? null,
      tableCards: started?.data.tableCards ?? [],
      hands: last('HandsDealt')?.data.hands ?? [],
      laidAway: last('CardsLaidAway')?.data.cards ?? [],
      tricks: scored.data.tricks,
      quotas: scored.data.quotas,
      points: scored.data.points,
      totals: scored.data.totals,
      lastTrick: taken ? { cards: taken.data.cards, winner: taken.data.winner } : null,
      finished: events.some((e) => e.type === 'MatchFinished'),
    };
  }

  /**
   * Told of every scorecard the page reads: a deal scored since the last one is summarised (in
   * order). Resolves once the summaries it found are read; `changed` says whether there are new ones.
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
    reading = (async () => {
      let added = false;
      try {
        while (seen < scorecard.deals.length) {
          const end = await readDeal(seen + 1);
          if (!end) break;
          ended.set(end.deal, end);
          // A newer deal end replaces one still on screen (a person away while stand-ins played on
          // reads the latest deal, not a pile of them; the scorecard has the rest).
          queue.splice(0, queue.length, end);
          seen += 1;
          added = true;
        }
      } finally {
        reading = null;
      }
      return added;
    })();
    return reading;
  }

  /** The deal end on screen, if any. */
  const current = () => queue[0] ?? null;

  /** The person moved on: the next deal end, or the live table. */
  const dismiss = () => void queue.shift();

  /**
   * The view to draw. While a deal end is held: the scored deal as it ended (its dealer and forehand,
   * contract, tricks, the last trick on the table, nothing to do). Else the live view, where a deal
   * just scored and the next not yet dealt is named as the next deal (the view still counts the old one).
   */
  function shown(view, scorecard) {
    const end = current();
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

  /** The scorecard to draw: while a deal end is held, up to that deal, its row filled in if the scorecard lags. */
  function scorecardShown(scorecard) {
    const end = current();
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

  return { observe, current, dismiss, shown, scorecardShown };
}
