// Fast card play for the strong bot's rollouts: every hand face up, played to the end by a greedy
// policy. Thousands of playouts per decision, so the inside works on numbers, as the solver does: a
// card is libs/rules' card number (suit * 13 + rank, 0..12 = 2..A), and a hand is four 13-bit masks,
// one per suit, in an Int32Array of 12 (seat * 4 + suit). Which suits may be played and which card
// takes a trick are libs/rules' `playableSuits` and `winningIndex`, called on suit masks and cards.
import * as rules from '@bismarck/rules';
// Read once: a call through the import looks the function up on every call in the package's exports
// (getters, kept by V8 as a dictionary), which also keeps it from being inlined.
const { beatingRanks, cardOf, playableSuits, popcount, rankOf, suitOf, winningIndex } = rules;

/** A deal's card play in progress, every hand known (a sampled world). Mutated by `play`. */
export interface World {
  /** seat * 4 + suit: the ranks that seat holds in that suit. */
  readonly hands: Int32Array;
  /** Trump suit 0..3, or -1 (notrump, pass). */
  readonly trump: number;
  readonly pass: boolean;
  readonly mustTrump: boolean;
  /** The trick in progress: its cards, in play order, and who led it. */
  trick: number[];
  leader: number;
  /** Tricks taken per seat since this world was made. */
  readonly taken: [number, number, number];
}

const lowBit = (m: number): number => 31 - Math.clz32(m & -m);
const highBit = (m: number): number => 31 - Math.clz32(m);

const handSize = (hands: Int32Array, seat: number): number =>
  popcount(hands[seat * 4]) + popcount(hands[seat * 4 + 1]) + popcount(hands[seat * 4 + 2]) + popcount(hands[seat * 4 + 3]);

const turnOf = (w: World): number => (w.leader + w.trick.length) % 3;

/** The suits `seat` may play from now, as a 4-bit mask. */
export const legalSuits = (w: World, seat: number): number => {
  const h = seat * 4;
  const held = (w.hands[h] ? 1 : 0) | (w.hands[h + 1] ? 2 : 0) | (w.hands[h + 2] ? 4 : 0) | (w.hands[h + 3] ? 8 : 0);
  return playableSuits(held, w.trick.length === 0 ? -1 : suitOf(w.trick[0]), w.trump, w.mustTrump);
};

/** Plays `card` for the seat to play; completes the trick when it is the third card. */
export const play = (w: World, card: number): void => {
  const seat = turnOf(w);
  w.hands[seat * 4 + suitOf(card)] &= ~(1 << rankOf(card));
  w.trick.push(card);
  if (w.trick.length === 3) {
    const winner = (w.leader + winningIndex(w.trick, 0, 3, w.trump)) % 3;
    w.taken[winner]++;
    w.leader = winner;
    w.trick = [];
  }
};

/** Lowest (or highest) rank among the suits of `suits`, the first suit in S H D C order on a tie. */
const extreme = (w: World, seat: number, suits: number, high: boolean): number => {
  let best = -1;
  for (let s = 0; s < 4; s++) {
    const m = suits & (1 << s) ? w.hands[seat * 4 + s] : 0;
    if (!m) continue;
    const r = high ? highBit(m) : lowBit(m);
    if (best < 0 || (high ? r > rankOf(best) : r < rankOf(best))) best = cardOf(s, r);
  }
  return best;
};

/**
 * The greedy policy of strategy.ts, over masks (the rollouts' model of every seat): take tricks with
 * high cards and trumps, duck in pass.
 */
export const greedyCard = (w: World): number => {
  const seat = turnOf(w);
  const suits = legalSuits(w, seat);
  const trump = w.trump;
  const h = seat * 4;
  if (w.trick.length === 0) {
    if (w.pass) return extreme(w, seat, suits, false);
    for (let s = 0; s < 4; s++) if (s !== trump && w.hands[h + s] & (1 << 12)) return cardOf(s, 12);
    if (trump >= 0 && popcount(w.hands[h + trump]) >= 4) return cardOf(trump, highBit(w.hands[h + trump]));
    const side = trump >= 0 ? suits & ~(1 << trump) : suits;
    return extreme(w, seat, side || suits, false);
  }
  const best = w.trick[winningIndex(w.trick, 0, w.trick.length, trump)];
  const last = w.trick.length === 2;
  // The cards of each legal suit that beat `best`, as masks.
  let anyWinner = false;
  let anyLoser = false;
  const winners = [0, 0, 0, 0];
  const losers = [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) {
    if (!(suits & (1 << s))) continue;
    const m = w.hands[h + s];
    const win = m & beatingRanks(s, suitOf(best), rankOf(best), trump);
    winners[s] = win;
    losers[s] = m & ~win;
    if (win) anyWinner = true;
    if (m & ~win) anyLoser = true;
  }
  const pickFrom = (masks: number[], high: boolean): number => {
    let card = -1;
    for (let s = 0; s < 4; s++) {
      if (!masks[s]) continue;
      const r = high ? highBit(masks[s]) : lowBit(masks[s]);
      if (card < 0 || (high ? r > rankOf(card) : r < rankOf(card))) card = cardOf(s, r);
    }
    return card;
  };
  if (w.pass) {
    if (anyLoser) return pickFrom(losers, true);
    return extreme(w, seat, suits, last);
  }
  if (!anyWinner) {
    const side = trump >= 0 ? suits & ~(1 << trump) : suits;
    return extreme(w, seat, side || suits, false);
  }
  return pickFrom(winners, !last);
};

/** Plays the world to the end with the greedy policy for every seat (mutates it); returns `taken`. */
export const playOut = (w: World): [number, number, number] => {
  while (w.trick.length > 0 || handSize(w.hands, w.leader) > 0) play(w, greedyCard(w));
  return w.taken;
};

/**
 * Greedy's lay-away over masks (strategy.ts): in pass the highest cards; else keep trumps and high
 * cards, from short suits first. Returns the 4 cards to lay away; `hand` is the seat's 4 masks.
 */
export const greedyLayAway = (hand: ArrayLike<number>, trump: number, pass: boolean, count = 4): number[] => {
  const cards: number[] = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) if (hand[s] & (1 << r)) cards.push(cardOf(s, r));
  const length = (s: number) => popcount(hand[s]);
  const key = pass ? (c: number) => -rankOf(c) : (c: number) => (suitOf(c) === trump ? 100 : 0) + rankOf(c) * 2 + length(suitOf(c));
  return cards.sort((a, b) => key(a) - key(b) || a - b).slice(0, count);
};
