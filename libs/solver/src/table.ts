// The transposition table: what the search has learned about positions at a trick boundary.
//
// A position is keyed by who leads and, for each suit, the owners of the cards still held, from the
// highest down (two bits a card: 1, 2 or 3 for seats 0, 1, 2). Played and laid-away cards are left
// out and the ranks are relative: only the order of cards inside a suit decides a trick, so two
// positions whose suits look the same once the gaps are closed take the same number of tricks. That
// lets one entry serve many positions (the bridge solvers' "relative ranks").
//
// Entries hold bounds on the tricks the counted seat takes from that position, and the best lead
// found there (a suit and how many held cards of that suit rank above it). Two slots per hash, eight
// 32-bit words a slot, so that a probe touches one 64-byte cache line; a new position takes the slot
// whose entry has fewer tricks to play (it saved less work: long solves lost their costly entries when
// any write replaced). A generation number lets a new solve ignore the last one's entries without
// clearing 32 MB; a bit a bucket (64 kB, cleared per solve) answers most misses without touching them.

const BITS = 20;
const SIZE = 1 << BITS;
const STRIDE = 8; // k0 k1 k2 k3, generation << 2 | leader, bounds, tricks left, one word unused (alignment)
const EMPTY_BEST = 0xff;
const BUCKET_SHIFT = 4; // a bucket is two slots: 2 * STRIDE words

export class Table {
  private readonly slots = new Int32Array(SIZE * STRIDE);
  private generation = 0;
  /**
   * One bit a bucket, set when this search stores into it: a look-up in a bucket not written yet
   * stops in these 64 kB instead of reaching into the 32 MB of slots (most look-ups of the
   * transposition cut-off find nothing).
   */
  private readonly filled = new Int32Array(SIZE / 2 / 32);

  /** What the entries were learned under (`begin`), or -1 for nothing yet. */
  private context = -1;

  /**
   * Starts a solve under `context` (all that an entry's value depends on beside its key: the trump,
   * the trump rule, the sides). With `keep` and the last context, the entries stay: with relative
   * ranks they hold for any deal. Otherwise every entry is forgotten.
   */
  begin(context: number, keep: boolean): void {
    if (keep && context === this.context) return;
    this.context = context;
    this.reset();
  }

  /** Forgets every entry. */
  private reset(): void {
    this.filled.fill(0);
    this.generation = (this.generation + 1) & 0x1fffffff;
    if (this.generation === 0) {
      this.slots.fill(0);
      this.generation = 1;
    }
  }

  /** Where a position is, or would be, stored. */
  slotOf(k0: number, k1: number, k2: number, k3: number, leader: number): number {
    let h = Math.imul(k0 ^ (leader << 27), 0x9e3779b1);
    h = Math.imul(h ^ k1 ^ (h >>> 15), 0x85ebca77);
    h = Math.imul(h ^ k2 ^ (h >>> 13), 0xc2b2ae3d);
    h = Math.imul(h ^ k3 ^ (h >>> 16), 0x27d4eb2f);
    return ((h ^ (h >>> 15)) >>> (32 - BITS)) * STRIDE & ~(2 * STRIDE - 1);
  }

  /** True when the slot holds this position, from this search. */
  holds(at: number, k0: number, k1: number, k2: number, k3: number, leader: number): boolean {
    const s = this.slots;
    return s[at + 4] === ((this.generation << 2) | leader) && s[at] === k0 && s[at + 1] === k1 && s[at + 2] === k2 && s[at + 3] === k3;
  }

  /** The slot of the bucket at `at` that holds the position, or -1. */
  find(at: number, k0: number, k1: number, k2: number, k3: number, leader: number): number {
    const bucket = at >>> BUCKET_SHIFT;
    if ((this.filled[bucket >>> 5] & (1 << (bucket & 31))) === 0) return -1;
    if (this.holds(at, k0, k1, k2, k3, leader)) return at;
    if (this.holds(at + STRIDE, k0, k1, k2, k3, leader)) return at + STRIDE;
    return -1;
  }

  /** The slot of the bucket at `at` to write a new position into: a stale one, else the one with fewer tricks to play (it saved less work). */
  victim(at: number): number {
    const s = this.slots;
    const gen = this.generation;
    if (s[at + 4] >>> 2 !== gen) return at;
    if (s[at + STRIDE + 4] >>> 2 !== gen) return at + STRIDE;
    return s[at + 6] <= s[at + STRIDE + 6] ? at : at + STRIDE;
  }

  /** Bounds on the counted seat's tricks from the position in the slot. */
  lower(at: number): number {
    return this.slots[at + 5] & 31;
  }
  upper(at: number): number {
    return (this.slots[at + 5] >>> 5) & 31;
  }
  /** The best lead stored, as suit * 16 + (held cards of that suit above it), or -1. */
  best(at: number): number {
    const b = (this.slots[at + 5] >>> 10) & 0xff;
    return b === EMPTY_BEST ? -1 : b;
  }

  /** Writes a position's entry into its slot. */
  store(at: number, k0: number, k1: number, k2: number, k3: number, leader: number, lower: number, upper: number, best: number, left: number): void {
    const s = this.slots;
    const bucket = at >>> BUCKET_SHIFT;
    this.filled[bucket >>> 5] |= 1 << (bucket & 31);
    s[at + 6] = left;
    s[at] = k0;
    s[at + 1] = k1;
    s[at + 2] = k2;
    s[at + 3] = k3;
    s[at + 4] = (this.generation << 2) | leader;
    s[at + 5] = lower | (upper << 5) | ((best < 0 ? EMPTY_BEST : best) << 10);
  }
}
