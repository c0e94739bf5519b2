// The transposition table: what the search has learned about positions at a trick boundary.
//
// A position is keyed by who leads and, for each suit, the owners of the cards still held, from the
// highest down (two bits a card: 1, 2 or 3 for seats 0, 1, 2). Played and laid-away cards are left
// out and the ranks are relative: only the order of cards inside a suit decides a trick, so two
// positions whose suits look the same once the gaps are closed take the same number of tricks. That
// lets one entry serve many positions (the bridge solvers' "relative ranks").
//
// Entries hold bounds on the tricks the counted seat takes from that position, and the best lead
// found there (a suit and how many held cards of that suit rank above it). Typed arrays, one slot per
// hash (always replace), and a generation number so that a new solve ignores the last one's entries
// without clearing 24 MB.

const BITS = 20;
const SIZE = 1 << BITS;
const EMPTY_BEST = 0xff;

export class Table {
  private readonly keys = new Int32Array(SIZE * 4);
  /** generation (bits 2..) and leader (bits 0..1) */
  private readonly meta = new Int32Array(SIZE);
  /** lower bound (bits 0..4), upper bound (bits 5..9), best lead (bits 10..17) */
  private readonly bounds = new Int32Array(SIZE);
  private generation = 0;

  /** Starts a new search: forgets every entry (they were made for another trump or other seats). */
  reset(): void {
    this.generation = (this.generation + 1) & 0x3fffffff;
    if (this.generation === 0) {
      this.meta.fill(0);
      this.generation = 1;
    }
  }

  /** The slot of a position (where it is, or would be, stored). */
  slotOf(k0: number, k1: number, k2: number, k3: number, leader: number): number {
    let h = Math.imul(k0 ^ (leader << 27), 0x9e3779b1);
    h = Math.imul(h ^ k1 ^ (h >>> 15), 0x85ebca77);
    h = Math.imul(h ^ k2 ^ (h >>> 13), 0xc2b2ae3d);
    h = Math.imul(h ^ k3 ^ (h >>> 16), 0x27d4eb2f);
    return (h ^ (h >>> 15)) >>> (32 - BITS);
  }

  /** True when the slot holds this position, from this search. */
  holds(slot: number, k0: number, k1: number, k2: number, k3: number, leader: number): boolean {
    const keys = this.keys;
    const at = slot * 4;
    return (
      this.meta[slot] === ((this.generation << 2) | leader) &&
      keys[at] === k0 &&
      keys[at + 1] === k1 &&
      keys[at + 2] === k2 &&
      keys[at + 3] === k3
    );
  }

  lower(slot: number): number {
    return this.bounds[slot] & 31;
  }
  upper(slot: number): number {
    return (this.bounds[slot] >>> 5) & 31;
  }
  /** The best lead stored, as suit * 16 + (held cards of that suit above it), or -1. */
  best(slot: number): number {
    const b = (this.bounds[slot] >>> 10) & 0xff;
    return b === EMPTY_BEST ? -1 : b;
  }

  /** Writes a position's entry into its slot. */
  store(slot: number, k0: number, k1: number, k2: number, k3: number, leader: number, lower: number, upper: number, best: number): void {
    const at = slot * 4;
    this.keys[at] = k0;
    this.keys[at + 1] = k1;
    this.keys[at + 2] = k2;
    this.keys[at + 3] = k3;
    this.meta[slot] = (this.generation << 2) | leader;
    this.bounds[slot] = lower | (upper << 5) | ((best < 0 ? EMPTY_BEST : best) << 10);
  }
}
