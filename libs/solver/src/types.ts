// What a search is given and what it answers, in the search's terms: cards are libs/rules' packed
// numbers (suit * 16 + rank, `packCard`), hands are rank masks (bit r = rank r) at hands[seat * 4 + suit].

export interface Setup {
  /** hands[seat * 4 + suit]: the ranks (bit r = rank r) each seat holds in each suit. */
  readonly hands: Int32Array;
  /** The cards of the trick in progress, in the order played. */
  readonly trick: readonly number[];
  /** The seat that led the trick in progress, or leads the next one. */
  readonly leader: number;
  /** 0..3, or -1 for no trump. */
  readonly trump: number;
  readonly mustTrump: boolean;
  /** The seat whose tricks are counted. */
  readonly counted: number;
  /** Bit s set when seat s plays to make `counted` take many tricks; the others play for few. */
  readonly maximisers: number;
  /** The most nodes to expand before giving up (SolverBudgetExceeded). */
  readonly maxNodes: number;
}

/** Thrown when a solve would expand more nodes than its budget allows; nothing is returned half-done. */
export class SolverBudgetExceeded extends Error {
  readonly code = 'SOLVER_BUDGET_EXCEEDED';
  constructor(readonly maxNodes: number) {
    super(`the solver expanded ${maxNodes} nodes without settling the position`);
    this.name = 'SolverBudgetExceeded';
  }
}

/** A legal card of the seat to play and the counted seat's tricks after it, each side playing its best. */
export interface CardValue {
  readonly card: number;
  readonly tricks: number;
}

export interface Solution {
  /** The counted seat's tricks from here (the trick in progress included), each side playing its best. */
  readonly tricks: number;
  readonly cards: CardValue[];
  /** Positions searched (nodes), for the benchmark. */
  readonly nodes: number;
}
