// Bounds on the counted seat's tricks read off the hands without searching (search.ts `settledByBounds`).
// Hands are rank masks at hands[seat * 4 + suit] (types.ts).
import * as rules from '@bismarck/rules';
// Read once: a call through the import looks the function up on every call in the package's exports.
const { popcount } = rules;

/**
 * The tricks `mine` (a seat's trumps) takes at the least against `theirs` (the other side's): each of
 * theirs can take one of mine, and only one below it.
 */
export const trumpTricks = (mine: number, theirs: number): number => {
  let all = mine | theirs;
  let free = 0;
  let lost = 0;
  while (all !== 0) {
    const bit = 1 << (31 - Math.clz32(all));
    all ^= bit;
    if (theirs & bit) free++;
    else if (free > 0) {
      free--;
      lost++;
    }
  }
  return popcount(mine) - lost;
};

/** Cards of `mine` above every card of `others` in one suit. */
const topRun = (mine: number, others: number): number =>
  popcount(others === 0 ? mine : (mine >>> (32 - Math.clz32(others))) << (32 - Math.clz32(others)));

/** Tricks cashed in one suit with no ruffing: the top run, or the whole suit once the others run out. */
const suitRun = (mine: number, other1: number, other2: number, top: number): number =>
  top >= popcount(other1) && top >= popcount(other2) ? popcount(mine) : top;

/**
 * Tricks `seat` can take in a row from the lead whatever the other two do: in each suit its
 * cards above all of theirs (the whole suit once they run out), trumps first; a side suit only for as
 * many rounds as every opponent still holding trumps can follow.
 */
export const sureTricks = (h: Int32Array, seat: number, trump: number): number => {
  const a = (seat + 1) % 3;
  const b = (seat + 2) % 3;
  let trumpsA = 0;
  let trumpsB = 0;
  let total = 0;
  if (trump >= 0) {
    trumpsA = popcount(h[a * 4 + trump]);
    trumpsB = popcount(h[b * 4 + trump]);
    const mine = h[seat * 4 + trump];
    const top = topRun(mine, h[a * 4 + trump] | h[b * 4 + trump]);
    total += suitRun(mine, h[a * 4 + trump], h[b * 4 + trump], top);
    trumpsA = Math.max(0, trumpsA - top);
    trumpsB = Math.max(0, trumpsB - top);
  }
  for (let s = 0; s < 4; s++) {
    if (s === trump) continue;
    const mine = h[seat * 4 + s];
    if (mine === 0) continue;
    const ma = h[a * 4 + s];
    const mb = h[b * 4 + s];
    const top = topRun(mine, ma | mb);
    let won = suitRun(mine, ma, mb, top);
    if (trumpsA > 0) won = Math.min(won, top, popcount(ma));
    if (trumpsB > 0) won = Math.min(won, top, popcount(mb));
    total += won;
  }
  return total;
};
