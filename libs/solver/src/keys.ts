// How the transposition table (table.ts) names a position and its best lead, read off the hands
// (rank masks at hands[seat * 4 + suit]). Cards are libs/rules' packed numbers (suit * 16 + rank).
import * as rules from '@bismarck/rules';
// Read once: a call through the import looks the function up on every call in the package's exports.
const { packedCard, packedRank, packedSuit, popcount } = rules;

/** The owners of a suit's held cards, highest first, two bits a card (seat + 1): the table's key. */
export const suitKey = (h: Int32Array, suit: number): number => {
  const a = h[suit];
  const b = h[4 + suit];
  let all = a | b | h[8 + suit];
  let key = 0;
  while (all !== 0) {
    const bit = 1 << (31 - Math.clz32(all));
    all ^= bit;
    key = (key << 2) | (a & bit ? 1 : b & bit ? 2 : 3);
  }
  return key;
};

/**
 * A suit's owner key without one card (`bit` of `held`, the suit's held cards): the two bits of its
 * place, counted from the lowest held card, close up.
 */
export const keyWithout = (key: number, held: number, bit: number): number => {
  const low = 2 * popcount(held & (bit - 1));
  return ((key >>> (low + 2)) << low) | (key & ((1 << low) - 1));
};

/** A lead as the table keeps it: suit * 16 + how many held cards of its suit rank above it. */
export const relativeLead = (h: Int32Array, card: number): number => {
  const s = packedSuit(card);
  const all = h[s] | h[4 + s] | h[8 + s];
  return s * 16 + popcount(all >>> (packedRank(card) + 1));
};

/** The card a stored lead (`relativeLead`) names in this position, or -1. */
export const cardOfLead = (h: Int32Array, lead: number): number => {
  if (lead < 0) return -1;
  const s = lead >> 4;
  let all = h[s] | h[4 + s] | h[8 + s];
  for (let above = lead & 15; above > 0 && all !== 0; above--) all ^= 1 << (31 - Math.clz32(all));
  return all === 0 ? -1 : packedCard(s, 31 - Math.clz32(all));
};
