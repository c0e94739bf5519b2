// The transposition table: what the search has learned about positions at a trick boundary.
//
// A position is seen through its suit lengths (how many cards of each suit each seat holds), who
// leads, and for each suit the owners of the cards still held, highest first (two bits a card: 1, 2
// or 3 for seats 0, 1, 2). Played and laid-away cards are left out and the ranks are relative: only the
// order of cards inside a suit decides a trick.
//
// An entry also says how deep into each suit its result looked (the bridge solvers' "winning ranks",
// a form of partition search): when no trick below was won by a card under the top `depth` cards of a
// suit beating one of its own suit, the owners of the lower cards did not matter, and the entry holds
// for every position with the same suit lengths and the same owners of those top cards. One entry then
// serves many positions. The search works out the depths (search.ts, `relevant`).
//
// Each entry is one bound (lower or upper) on the tricks the counted seat takes from there, and the
// best lead found (a suit and how many held cards of that suit rank above it). Buckets of four entries
// keyed by the suit lengths and the leader; eight 32-bit words an entry; a generation number so that
// a new solve ignores the last one's entries without clearing the table.

const BUCKET_BITS = 18;
const WAYS = 4;
const WORDS = 8; // lengths 0, lengths 1 | leader | generation, k0..k3, depths | bound, unused
const GENERATIONS = 1 << 14;

export class Table {
  private readonly words = new Int32Array((1 << BUCKET_BITS) * WAYS * WORDS);
  private generation = 0;
  private victim = 0;
  // the result of the last lookup
  lower = 0;
  upper = 0;
  best = -1;
  /** The depths (4 bits a suit) of the entry that settled the last lookup. */
  depths = 0;

  /** Starts a new search: forgets every entry (they were made for another trump or other seats). */
  reset(): void {
    this.generation = (this.generation + 1) % GENERATIONS;
    this.victim = 0;
    if (this.generation === 0) {
      this.words.fill(0);
      this.generation = 1;
    }
  }

  /**
   * The first word of the bucket of a position with these suit lengths (l0: seats 0 and 1, l1: seat 2),
   * leader and owners of the top two cards of each suit (`tops`). An entry that looked less deep than
   * two cards into a suit is found only from positions that agree on those two as well: a little
   * generality traded for buckets that positions of the same shape do not crowd.
   */
  bucketOf(l0: number, l1: number, leader: number, tops: number): number {
    let h = Math.imul(l0 ^ (tops << 7), 0x9e3779b1);
    h = Math.imul(h ^ l1 ^ (leader << 20) ^ (h >>> 15), 0x85ebca77);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae3d);
    return ((h ^ (h >>> 16)) >>> (32 - BUCKET_BITS)) * WAYS * WORDS;
  }

  /**
   * Looks up a position: `lower`, `upper` become the tightest bounds among the matching entries (0 and
   * `left` when none), `best` a stored lead, and `depths` those of the entry a caller will act on.
   * `counts` holds the number of cards held in each suit (4 bits a suit).
   */
  probe(at: number, tag0: number, tag1: number, k0: number, k1: number, k2: number, k3: number, counts: number, left: number, need: number): void {
    const w = this.words;
    const tag = tag1 | (this.generation << 18);
    let lower = 0;
    let upper = left;
    let best = -1;
    let depths = 0;
    for (let i = 0; i < WAYS; i++, at += WORDS) {
      if (w[at] !== tag0 || w[at + 1] !== tag) continue;
      const info = w[at + 6];
      const d = info & 0xffff;
      if (!matches(w[at + 2], k0, counts & 15, d & 15)) continue;
      if (!matches(w[at + 3], k1, (counts >>> 4) & 15, (d >>> 4) & 15)) continue;
      if (!matches(w[at + 4], k2, (counts >>> 8) & 15, (d >>> 8) & 15)) continue;
      if (!matches(w[at + 5], k3, (counts >>> 12) & 15, (d >>> 12) & 15)) continue;
      const value = (info >>> 17) & 31;
      const b = (info >>> 22) & 0xff;
      if (b !== 0xff) best = b;
      if (info & 0x10000) {
        if (value < upper) {
          upper = value;
          if (upper < need) depths = d;
        }
      } else if (value > lower) {
        lower = value;
        if (lower >= need) depths = d;
      }
    }
    this.lower = lower;
    this.upper = upper;
    this.best = best;
    this.depths = depths;
  }

  /** Stores a bound: the counted seat takes at least (isUpper false) or at most (true) `value` tricks. */
  store(at: number, tag0: number, tag1: number, k0: number, k1: number, k2: number, k3: number, depths: number, isUpper: boolean, value: number, best: number): void {
    const w = this.words;
    const tag = tag1 | (this.generation << 18);
    const kind = depths | (isUpper ? 0x10000 : 0);
    let slot = -1;
    for (let i = 0; i < WAYS && slot < 0; i++) {
      const e = at + i * WORDS;
      const same = w[e] === tag0 && w[e + 1] === tag && w[e + 2] === k0 && w[e + 3] === k1 && w[e + 4] === k2 && w[e + 5] === k3;
      if (same && (w[e + 6] & 0x1ffff) === kind) slot = e; // the same bound of the same position: update it
    }
    for (let i = 0; i < WAYS && slot < 0; i++) {
      const e = at + i * WORDS;
      if (w[e + 1] >>> 18 !== this.generation) slot = e; // free, or left by an earlier solve
    }
    if (slot < 0) {
      slot = at + this.victim * WORDS;
      this.victim = (this.victim + 1) % WAYS;
    }
    w[slot] = tag0;
    w[slot + 1] = tag;
    w[slot + 2] = k0;
    w[slot + 3] = k1;
    w[slot + 4] = k2;
    w[slot + 5] = k3;
    w[slot + 6] = depths | (isUpper ? 0x10000 : 0) | (value << 17) | ((best < 0 ? 0xff : best) << 22);
  }
}

/** Do two suits of `count` cards agree on the owners of their top `depth` cards? */
const matches = (stored: number, key: number, count: number, depth: number): boolean => {
  const shift = 2 * (count - depth);
  return stored >>> shift === key >>> shift;
};
