// The search: null-window alpha-beta on the tricks of one seat, over per-suit bit masks.
//
// Inside, a card is libs/rules' packed number (packed.ts: suit * 16 + rank, rank 0..12 = 2..A, suit
// 0..3 = S H D C; suit and rank a shift and a mask) and a hand is four 13-bit masks, one a suit, in `hands[seat * 4 + suit]`: following suit is one
// look-up, and the cards of a suit that nobody else holds between them come out of one scan of three
// masks. Every question the search answers is a yes/no one, "can the maximisers make the counted seat
// take at least `need` of the tricks left?", answered with a bound that may go past the question
// (fail-soft), and a value is found by asking again from that bound (MTD(f)). The state is mutated and
// restored in place: the hot path allocates nothing.
//
// Which suits a seat may play and which card takes a trick are libs/rules' `playableSuits` and
// `winningIndexPacked` / `beatsPacked`, called on suit masks and packed cards: no card is converted
// and nothing allocated.
// The bounds that settle a lead without searching are bounds.ts's, the move ordering's rules of thumb
// ordering.ts's, the table's keys keys.ts's.
import * as rules from '@bismarck/rules';
import { sureTricks, trumpTricks } from './bounds';
import { cardOfLead, keyWithout, relativeLead, suitKey } from './keys';
import { followScore, leadScore, sortMoves } from './ordering';
import type { Table } from './table';
import { type CardValue, type Setup, type Solution, SolverBudgetExceeded } from './types';
// Read once: a call through the import looks the function up on every call in the package's exports
// (getters, kept by V8 as a dictionary), which also keeps it from being inlined.
const { beatsPacked, packedCard, packedRank, packedSuit, playableSuits, popcount, winningIndexPacked } = rules;

export { type CardValue, type Setup, type Solution, SolverBudgetExceeded, trumpTricks };

const HISTORY_ROOM = 1 << 16;
const UNSETTLED = -1;
const STRIDE = 20; // room for the moves of one ply: at most 16 cards in a hand
const MAX_PLIES = 52;

export class Search {
  private readonly hands = new Int32Array(12);
  /** The cards played since the root, the trick in progress last. */
  private readonly played = new Int32Array(MAX_PLIES + 3);
  private ply = 0;
  private trickLength = 0;
  private leader: number;
  private readonly trump: number;
  private readonly mustTrump: boolean;
  private readonly counted: number;
  private readonly maximisers: number;
  private readonly maxNodes: number;
  private readonly moves = new Int32Array((MAX_PLIES + 3) * STRIDE);
  private readonly scores = new Int32Array((MAX_PLIES + 3) * STRIDE);
  /** How often each seat's card (seat * 64 + card) settled a node: ordering among moves the rules of thumb tie. */
  private readonly history = new Int32Array(3 * 64);
  /** The card that settled the last node expanded (a cut-off), or -1. */
  private cutCard = -1;
  private nodes = 0;
  /** Each suit's owner key (`suitKey`), kept up to date card by card: the table's key costs nothing to make. */
  private readonly keys = new Int32Array(4);

  constructor(
    setup: Setup,
    private readonly table: Table,
  ) {
    this.hands.set(setup.hands);
    for (const card of setup.trick) this.played[this.ply++] = card;
    this.trickLength = setup.trick.length;
    this.leader = setup.leader;
    this.trump = setup.trump;
    this.mustTrump = setup.mustTrump;
    this.counted = setup.counted;
    this.maximisers = setup.maximisers;
    this.maxNodes = setup.maxNodes;
    for (let suit = 0; suit < 4; suit++) this.keys[suit] = suitKey(this.hands, suit);
  }

  /**
   * The value of the position and of every legal card of the seat to play; with `remember`, on what
   * the last solve under the same trump, rule and sides left in the table.
   */
  solve(withCards: boolean, remember: boolean): Solution {
    // the maximisers name the counted seat and its goal too
    this.table.begin((this.trump + 1) | (Number(this.mustTrump) << 3) | (this.maximisers << 4), remember);
    const seat = this.toPlay();
    const left = this.handSize(seat);
    const tricks = this.valueNear(Math.round(left / 3), 0, left, (need) => this.reach(need));
    if (!withCards) return { tricks, cards: [], nodes: this.nodes };
    const maxing = (this.maximisers >> seat) & 1;
    const cards: CardValue[] = [];
    const base = this.ply * STRIDE;
    const n = this.generate(seat, base, -1);
    const representatives = Array.from(this.moves.subarray(base, base + n));
    for (const card of representatives) {
      // a card is worth at most the position (for the seat playing it), and usually close to it
      const test = (need: number) => this.tryCard(seat, card, need);
      const value = maxing ? this.valueNear(tricks, 0, tricks, test) : this.valueNear(tricks, tricks, left, test);
      for (const same of this.equivalents(seat, card)) cards.push({ card: same, tricks: value });
    }
    return { tricks, cards, nodes: this.nodes };
  }

  /**
   * The value in lo..hi (lo known to be reached), by null-window tests starting at `guess` (MTD(f)):
   * each test's answer is a bound, often beyond the question asked, and the next test starts from it.
   * The tests close to the answer are the costly ones, so a good guess saves the far ones.
   */
  private valueNear(guess: number, lo: number, hi: number, test: (need: number) => number): number {
    let lower = lo;
    let upper = hi;
    let need = Math.min(hi, Math.max(lo + 1, guess));
    while (lower < upper) {
      const bound = test(need);
      if (bound >= need) lower = Math.min(upper, bound);
      else upper = Math.max(lower, bound);
      need = bound >= need ? lower + 1 : upper;
    }
    return lower;
  }

  private toPlay(): number {
    return (this.leader + this.trickLength) % 3;
  }

  /** The suits (bit s = suit s) `seat` holds a card of. */
  private heldSuits(seat: number): number {
    const h = this.hands;
    const at = seat * 4;
    return (h[at] !== 0 ? 1 : 0) | (h[at + 1] !== 0 ? 2 : 0) | (h[at + 2] !== 0 ? 4 : 0) | (h[at + 3] !== 0 ? 8 : 0);
  }

  private handSize(seat: number): number {
    const h = this.hands;
    const at = seat * 4;
    return popcount(h[at]) + popcount(h[at + 1]) + popcount(h[at + 2]) + popcount(h[at + 3]);
  }

  /**
   * Can the maximisers make the counted seat take at least `need` of the tricks left (this one
   * included)? The answer is a bound (fail-soft): at least `need` means the counted seat takes at
   * least that many, fewer means it takes at most that many.
   */
  private reach(need: number): number {
    if (this.trickLength !== 0) return this.expand(need, -1);
    if (need <= 0) return 0;
    const left = this.handSize(this.leader);
    if (need > left) return left;
    const keys = this.keys;
    const k0 = keys[0];
    const k1 = keys[1];
    const k2 = keys[2];
    const k3 = keys[3];
    const leader = this.leader;
    const table = this.table;
    const bucket = table.slotOf(k0, k1, k2, k3, leader);
    let slot = table.find(bucket, k0, k1, k2, k3, leader);
    let lower = 0;
    let upper = left;
    let best = -1;
    if (slot >= 0) {
      lower = table.lower(slot);
      upper = table.upper(slot);
      if (lower >= need) return lower;
      if (upper < need) return upper;
      best = table.best(slot);
    }
    const settled = this.settledByBounds(need, left);
    if (settled !== UNSETTLED) return settled;
    const bound = this.expand(need, best);
    if (this.cutCard >= 0) best = relativeLead(this.hands, this.cutCard);
    if (bound >= need) lower = bound;
    else upper = bound;
    if (slot < 0 || !table.holds(slot, k0, k1, k2, k3, leader)) slot = table.find(bucket, k0, k1, k2, k3, leader);
    if (slot < 0) slot = table.victim(bucket);
    table.store(slot, k0, k1, k2, k3, leader, lower, upper, best, left);
    return bound;
  }

  /**
   * Settles a lead without searching when bounds decide it: the bound that does, or UNSETTLED. A leader that plays
   * for the counted seat's tricks (the counted seat itself, when the goal is most) can cash its sure
   * tricks, a lower bound; a leader playing against the counted seat can cash its own, which the
   * counted seat cannot win, a cap. (The leader's partner counts as an opponent too: a partner forced to
   * overtake would take the lead away.) In a trump contract, trumps bound the counted seat both ways
   * whoever leads (`trumpTricks`).
   */
  private settledByBounds(need: number, left: number): number {
    const leader = this.leader;
    const counted = this.counted;
    const maxing = (this.maximisers >> leader) & 1;
    const t = this.trump;
    if (t >= 0) {
      // Every trump is played, each in its own trick, and only a higher trump of the other side in
      // that trick takes it: a floor on the counted seat's tricks, and on its opponents' (each alone).
      const h = this.hands;
      const a = ((counted + 1) % 3) * 4 + t;
      const b = ((counted + 2) % 3) * 4 + t;
      const mine = h[counted * 4 + t];
      const floor = trumpTricks(mine, h[a] | h[b]);
      if (floor >= need) return floor;
      const cap = left - Math.max(trumpTricks(h[a], mine), trumpTricks(h[b], mine));
      if (cap < need) return cap;
    }
    if (maxing && leader === counted) {
      const floor = sureTricks(this.hands, leader, t);
      if (floor >= need) return floor;
    }
    if (!maxing && leader !== counted) {
      const cap = left - sureTricks(this.hands, leader, t);
      if (cap < need) return cap;
    }
    return UNSETTLED;
  }

  /**
   * Tries the seat to play's cards, best-looking first, until one settles the question; when none
   * does, the bound is the best of what they showed.
   */
  private expand(need: number, tableBest: number): number {
    if (++this.nodes > this.maxNodes) throw new SolverBudgetExceeded(this.maxNodes);
    const seat = this.toPlay();
    const base = this.ply * STRIDE;
    const n = this.generate(seat, base, tableBest);
    const maxing = (this.maximisers >> seat) & 1;
    if (this.trickLength === 2 && n > 1) {
      const settled = this.settledByTable(base, n, need, maxing);
      if (settled !== UNSETTLED) return settled;
    }
    let best = maxing ? -1 : 99;
    for (let i = 0; i < n; i++) {
      const card = this.moves[base + i];
      const bound = this.tryCard(seat, card, need);
      if (maxing ? bound >= need : bound < need) {
        if (i > 0) this.history[seat * 64 + card] += 1;
        this.cutCard = card;
        return bound;
      }
      best = maxing ? Math.max(best, bound) : Math.min(best, bound);
    }
    this.cutCard = -1;
    return best;
  }

  /**
   * The last card of a trick leads to a stored position: when the table already answers the question
   * for one of the cards, that card settles the node without being played (enhanced transposition
   * cut-off).
   */
  private settledByTable(base: number, n: number, need: number, maxing: number): number {
    const h = this.hands;
    const keys = this.keys;
    const table = this.table;
    // the trick so far, once: a card takes it from the card winning it now, or the winner stays
    const ahead = winningIndexPacked(this.played, this.ply - 2, 2, this.trump);
    const winning = this.played[this.ply - 2 + ahead];
    for (let i = 0; i < n; i++) {
      const card = this.moves[base + i];
      const suit = packedSuit(card);
      const bit = 1 << packedRank(card);
      const moved = keyWithout(keys[suit], h[suit] | h[4 + suit] | h[8 + suit], bit);
      const k0 = suit === 0 ? moved : keys[0];
      const k1 = suit === 1 ? moved : keys[1];
      const k2 = suit === 2 ? moved : keys[2];
      const k3 = suit === 3 ? moved : keys[3];
      const winner = (this.leader + (beatsPacked(card, winning, this.trump) ? 2 : ahead)) % 3;
      const slot = table.find(table.slotOf(k0, k1, k2, k3, winner), k0, k1, k2, k3, winner);
      if (slot < 0) continue;
      const won = winner === this.counted ? 1 : 0;
      if (maxing) {
        const lower = table.lower(slot) + won;
        if (lower >= need) {
          this.cutCard = card;
          return lower;
        }
      } else {
        const upper = table.upper(slot) + won;
        if (upper < need) {
          this.cutCard = card;
          return upper;
        }
      }
    }
    return UNSETTLED;
  }

  private tryCard(seat: number, card: number, need: number): number {
    const suit = packedSuit(card);
    const at = seat * 4 + suit;
    const bit = 1 << packedRank(card);
    const h = this.hands;
    const key = this.keys[suit];
    this.keys[suit] = keyWithout(key, h[suit] | h[4 + suit] | h[8 + suit], bit);
    h[at] ^= bit;
    this.played[this.ply++] = card;
    let bound: number;
    if (++this.trickLength === 3) {
      const winner = (this.leader + winningIndexPacked(this.played, this.ply - 3, 3, this.trump)) % 3;
      const leader = this.leader;
      this.leader = winner;
      this.trickLength = 0;
      bound = winner === this.counted ? this.reach(need - 1) + 1 : this.reach(need);
      this.leader = leader;
      this.trickLength = 3;
    } else {
      bound = this.reach(need);
    }
    this.trickLength--;
    this.ply--;
    h[at] ^= bit;
    this.keys[suit] = key;
    return bound;
  }

  /** The cards of the trick in progress in one suit, as a rank mask. */
  private trickMask(suit: number): number {
    let m = 0;
    for (let i = this.ply - this.trickLength; i < this.ply; i++) if (packedSuit(this.played[i]) === suit) m |= 1 << packedRank(this.played[i]);
    return m;
  }

  /** Cards another seat holds, or the trick shows, in a suit: what keeps two of my cards apart. */
  private separators(seat: number, suit: number): number {
    const h = this.hands;
    return h[((seat + 1) % 3) * 4 + suit] | h[((seat + 2) % 3) * 4 + suit] | this.trickMask(suit);
  }

  /** The cards of the run `card` heads: mine, below it, with no separator in between. */
  private equivalents(seat: number, card: number): number[] {
    const s = packedSuit(card);
    const mine = this.hands[seat * 4 + s];
    const sep = this.separators(seat, s);
    const out = [card];
    for (let r = packedRank(card) - 1; r >= 0; r--) {
      if (sep & (1 << r)) break;
      if (mine & (1 << r)) out.push(packedCard(s, r));
    }
    return out;
  }

  /**
   * Writes the legal cards of `seat` at moves[base..], one per run of equivalent cards (its highest),
   * best-looking first, and returns how many.
   */
  private generate(seat: number, base: number, tableBest: number): number {
    const trickStart = this.ply - this.trickLength;
    const led = this.trickLength === 0 ? -1 : packedSuit(this.played[trickStart]);
    const suits = playableSuits(this.heldSuits(seat), led, this.trump, this.mustTrump);
    let n = 0;
    for (let s = 0; s < 4; s++) {
      if ((suits & (1 << s)) === 0) continue;
      const mine = this.hands[seat * 4 + s];
      let all = mine | this.separators(seat, s);
      let inRun = false;
      while (all !== 0) {
        const r = 31 - Math.clz32(all);
        const bit = 1 << r;
        all ^= bit;
        if ((mine & bit) === 0) {
          inRun = false;
          continue;
        }
        if (inRun) continue;
        inRun = true;
        this.moves[base + n++] = packedCard(s, r);
      }
    }
    if (n > 1) this.order(seat, base, n, led, trickStart, tableBest);
    return n;
  }

  /** Sorts the moves at moves[base..base + n] best-looking first. (A forced card needs no ordering.) */
  private order(seat: number, base: number, n: number, led: number, trickStart: number, tableBest: number): void {
    const preferred = led < 0 ? cardOfLead(this.hands, tableBest) : -1;
    let winning = -1;
    let winner = -1;
    if (led >= 0) {
      const w = winningIndexPacked(this.played, trickStart, this.trickLength, this.trump);
      winning = this.played[trickStart + w];
      winner = (this.leader + w) % 3;
    }
    const maxing = (this.maximisers >> seat) & 1;
    for (let i = base; i < base + n; i++) {
      const card = this.moves[i];
      this.scores[i] =
        card === preferred
          ? 1 << 30
          : (led < 0
              ? leadScore(this.hands, this.trump, this.counted, seat, card, this.separators(seat, packedSuit(card)), maxing)
              : followScore(this.trump, this.counted, this.trickLength, seat, card, winning, winner, maxing)) *
              HISTORY_ROOM +
            Math.min(HISTORY_ROOM - 1, this.history[seat * 64 + card]);
    }
    sortMoves(this.moves, this.scores, base, n);
  }
}
