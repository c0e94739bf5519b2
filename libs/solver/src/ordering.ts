// Move ordering (search.ts `order`): rules of thumb that put the cards likely to settle a node first.
// Hands are rank masks at hands[seat * 4 + suit]; cards are libs/rules' packed numbers (suit * 16 + rank).
import * as rules from '@bismarck/rules';
// Read once: a call through the import looks the function up on every call in the package's exports.
const { beatsPacked, packedRank, packedSuit } = rules;

/** Is a trick taken by `winner` good for a side (`maxing`: the side that wants the counted seat's tricks)? */
export const goodFor = (maxing: number, winner: number, counted: number): boolean => (maxing ? winner === counted : winner !== counted);

/**
 * How promising a lead looks for the leader's side: a trick the side surely takes first when it
 * wants tricks, last when it does not; a suit the other side can ruff is avoided, one a friend can
 * ruff or win with a higher card is led low to it. `sep`: the cards of the suit the others hold.
 */
export const leadScore = (h: Int32Array, trump: number, counted: number, seat: number, card: number, sep: number, maxing: number): number => {
  const s = packedSuit(card);
  const r = packedRank(card);
  const next = (seat + 1) % 3;
  const last = (seat + 2) % 3;
  const wantsTricks = goodFor(maxing, seat, counted);
  if (trump >= 0 && s !== trump) {
    const ruffsNext = h[next * 4 + s] === 0 && h[next * 4 + trump] !== 0;
    const ruffsLast = h[last * 4 + s] === 0 && h[last * 4 + trump] !== 0;
    if ((ruffsNext && !goodFor(maxing, next, counted)) || (ruffsLast && !goodFor(maxing, last, counted))) return -500 - r;
    if (ruffsNext || ruffsLast) return 800 - r;
  }
  if (sep >>> (r + 1) === 0) return wantsTricks ? 1000 + r : -1000 + r;
  // the other seat holding the suit's highest card takes the trick, unless the third ruffs
  const hiNext = h[next * 4 + s];
  const hiLast = h[last * 4 + s];
  const taker = hiNext > hiLast ? next : last;
  if (goodFor(maxing, taker, counted) && !(wantsTricks && taker === seat)) return 600 - r;
  return wantsTricks ? -r : 100 - r;
};

/**
 * How promising a card to follow with looks: the last card of a trick by who takes it; earlier, taking
 * the trick for one's side, or ducking under a friend's winner (low for a seat that wants tricks).
 */
export const followScore = (
  trump: number,
  counted: number,
  trickLength: number,
  seat: number,
  card: number,
  winning: number,
  winner: number,
  maxing: number,
): number => {
  const r = packedRank(card);
  const takes = beatsPacked(card, winning, trump);
  const outcome = takes ? seat : winner;
  if (trickLength === 2) return (goodFor(maxing, outcome, counted) ? 1000 : 0) - r;
  if (takes && goodFor(maxing, seat, counted)) return 500 + r;
  // ducking: a seat that wants the trick to go elsewhere keeps its low cards for later
  if (!takes && goodFor(maxing, winner, counted)) return goodFor(maxing, seat, counted) ? 400 - r : 400 + r;
  return -r;
};

/** Sorts moves[base..base + n] by scores, highest first (insertion sort: a ply holds at most 16 cards). */
export const sortMoves = (moves: Int32Array, scores: Int32Array, base: number, n: number): void => {
  for (let i = base + 1; i < base + n; i++) {
    const m = moves[i];
    const s = scores[i];
    let j = i - 1;
    while (j >= base && scores[j] < s) {
      moves[j + 1] = moves[j];
      scores[j + 1] = scores[j];
      j--;
    }
    moves[j + 1] = m;
    scores[j + 1] = s;
  }
};
