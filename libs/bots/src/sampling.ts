// What a seat knows about where the cards it cannot see are, and deals drawn at random consistent with
// it. Read only from the seat's view and the public history of the deal (history.ts): its own hand,
// its own lay-away, the table cards, every card played, the voids shown by not following suit, hand
// sizes. Never from anything its seat may not see.
import * as rules from '@bismarck/rules';
import type { Suit } from '@bismarck/rules';
import type { DealHistory } from './history';
// Read once: a call through the import looks the function up on every call in the package's exports.
const { SUITS, parseCard, rankOf, suitOf, voidsShown } = rules;

/** The fields of a seat's view the strong bot reads (libs/rules' SeatView and a client's fit it). */
export interface KnowledgeView {
  readonly seat: number;
  readonly hand: readonly string[];
  readonly handSizes: readonly number[];
  readonly forehand: number | null;
  readonly dealNumber: number;
  readonly tableCards: readonly string[];
  readonly laidAway: readonly string[] | null;
  readonly trick: readonly { readonly seat: number; readonly card: string }[];
  readonly trump: string | null;
  readonly options: { readonly mustTrump: boolean };
}

/**
 * Where each unseen card may be. Holders: 0..2 are the seats (the bot's own seat has capacity 0
 * unless its hand is unknown, i.e. a blind contract), 3 is "elsewhere": forehand's lay-away when the
 * bot is not forehand, and cards played that the bot did not see (no history).
 */
export interface Knowledge {
  /** The cards whose place is unknown. */
  readonly unknown: readonly number[];
  /** Per unknown card (same order), a 4-bit mask of the holders it may be with. */
  readonly allowed: readonly number[];
  /** How many unknown cards each holder takes; the four add up to unknown.length. */
  readonly capacity: readonly [number, number, number, number];
  /** What the seats hold for sure: seat * 4 + suit masks (the bot's own hand). */
  readonly known: Int32Array;
  /** Per seat, the suits it has shown it does not hold (4-bit masks). */
  readonly voids: readonly [number, number, number];
  /** Every card the bot knows is out of play (played, or its own lay-away). */
  readonly gone: readonly number[];
}

/** The rules' suit number of a view's trump, or -1 for none. */
export const trumpId = (trump: string | null | undefined): number => (trump ? SUITS.indexOf(trump as Suit) : -1);

/**
 * The plays of the deal in progress: the history's when it is the view's deal and fits the hand sizes,
 * else only the trick in progress (a bot without history still plays, knowing less).
 */
export const playsOf = (view: KnowledgeView, history: DealHistory | undefined): { plays: { seat: number; card: string }[]; complete: boolean } => {
  const inHands = view.handSizes.reduce((a, b) => a + b, 0);
  if (history && history.deal === view.dealNumber && history.plays.length + inHands === 48) {
    const plays = history.plays.map((p) => ({ seat: p.seat, card: p.card }));
    const current = plays.slice(plays.length - (plays.length % 3));
    const same = current.length === view.trick.length && current.every((p, i) => p.card === view.trick[i].card);
    if (same) return { plays, complete: true };
  }
  return { plays: view.trick.map((p) => ({ seat: p.seat, card: p.card })), complete: false };
};

/** The voids each seat has shown: not following the suit led (and, with mustTrump, not trumping either). */
export const shownVoids = (plays: readonly { seat: number; card: string }[], trump: number, mustTrump: boolean): [number, number, number] => {
  const voids: [number, number, number] = [0, 0, 0];
  // `plays` starts with a lead: the whole deal's, or (without history) the trick in progress alone.
  for (let i = 0; i < plays.length; i++) {
    const lead = i - (i % 3);
    if (i === lead) continue;
    voids[plays[i].seat] |= voidsShown(suitOf(parseCard(plays[i].card)), suitOf(parseCard(plays[lead].card)), trump, mustTrump);
  }
  return voids;
};

/** What `view.seat` knows during trick play or the lay-away (its hand is known). */
export const knowledgeOf = (view: KnowledgeView, history: DealHistory | undefined): Knowledge => {
  const me = view.seat;
  const trump = trumpId(view.trump);
  const { plays } = playsOf(view, history);
  const voids = shownVoids(plays, trump, view.options.mustTrump);
  const seen = new Set<number>();
  const known = new Int32Array(12);
  for (const code of view.hand) {
    const c = parseCard(code);
    seen.add(c);
    known[me * 4 + suitOf(c)] |= 1 << rankOf(c);
  }
  const gone: number[] = [];
  for (const p of plays) gone.push(parseCard(p.card));
  for (const code of view.laidAway ?? []) gone.push(parseCard(code));
  for (const c of gone) seen.add(c);
  // The table cards went to forehand: in his hand or his lay-away, unless played (then in `seen`).
  const table = new Set<number>();
  const tableCards = view.tableCards.length > 0 ? view.tableCards : (history?.deal === view.dealNumber ? history.tableCards : []);
  if (view.forehand !== null && view.forehand !== me) for (const code of tableCards) table.add(parseCard(code));
  const unknown: number[] = [];
  for (let c = 0; c < 52; c++) if (!seen.has(c)) unknown.push(c);
  const capacity: [number, number, number, number] = [0, 0, 0, 0];
  for (let s = 0; s < 3; s++) if (s !== me) capacity[s] = view.handSizes[s];
  capacity[3] = unknown.length - capacity[0] - capacity[1] - capacity[2];
  const allowed = unknown.map((c) => {
    let mask = 0;
    for (let s = 0; s < 3; s++) if (s !== me && !(voids[s] & (1 << suitOf(c)))) mask |= 1 << s;
    mask |= 1 << 3;
    if (table.has(c)) mask &= (1 << view.forehand!) | (1 << 3);
    return mask;
  });
  return { unknown, allowed, capacity, known, voids, gone };
};

/** Knowledge for forehand's blind contract: its own 16 cards are unknown too; only the table is seen. */
export const blindKnowledge = (view: KnowledgeView): Knowledge => {
  const table = new Set(view.tableCards.map(parseCard));
  const unknown: number[] = [];
  for (let c = 0; c < 52; c++) if (!table.has(c)) unknown.push(c);
  const known = new Int32Array(12);
  return { unknown, allowed: unknown.map(() => 7), capacity: [16, 16, 16, 0], known, voids: [0, 0, 0], gone: [] };
};

/**
 * The hands of one deal drawn at random consistent with `k`: seat * 4 + suit masks (the known cards
 * included). Cards go one at a time, in random order, each to a holder drawn in proportion to its room
 * among those that may hold it and leave the rest placeable (Hall's condition over the holders'
 * subsets), so a draw never dead-ends. Not exactly uniform over consistent deals, close to it.
 */
export const sampleHands = (k: Knowledge, random: () => number): Int32Array => {
  const n = k.unknown.length;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const room = [...k.capacity];
  // For every subset S of the 4 holders, how many unplaced cards may go only to holders in S.
  const only = new Int32Array(16);
  for (const a of k.allowed) for (let S = 0; S < 16; S++) if ((a & ~S) === 0) only[S]++;
  const roomOf = (S: number) => (S & 1 ? room[0] : 0) + (S & 2 ? room[1] : 0) + (S & 4 ? room[2] : 0) + (S & 8 ? room[3] : 0);
  const hands = k.known.slice();
  for (const i of order) {
    const a = k.allowed[i];
    for (let S = 0; S < 16; S++) if ((a & ~S) === 0) only[S]--;
    // Holders that may take it and stay feasible.
    const weights = [0, 0, 0, 0];
    let total = 0;
    for (let h = 0; h < 4; h++) {
      if (!(a & (1 << h)) || room[h] === 0) continue;
      room[h]--;
      let ok = true;
      for (let S = 1; S < 16 && ok; S++) if (only[S] > roomOf(S)) ok = false;
      room[h]++;
      if (ok) {
        weights[h] = room[h];
        total += room[h];
      }
    }
    if (total === 0) throw new Error('no deal fits what the seat saw');
    let x = random() * total;
    let h = -1;
    for (let j = 0; j < 4; j++) {
      if (weights[j] === 0) continue;
      h = j; // the last possible holder takes what rounding leaves over
      if (x < weights[j]) break;
      x -= weights[j];
    }
    room[h]--;
    const c = k.unknown[i];
    if (h < 3) hands[h * 4 + suitOf(c)] |= 1 << rankOf(c);
  }
  return hands;
};
