// The plain-text match notation (docs/notation.md): a whole match, one line per fact, in log order.
//
// Why one line (or one small group of lines) per event, in the log's own order, rather than a fixed
// layout per deal: the notation must give back the very events it was written from, and the order of
// events in a log varies (a cut or not, blind or informed contracts, voided deals, a lobby's joins, the
// dealer's commitments and reveals). Writing the facts in the order they happened makes the round trip
// exact for every log the rules can produce, whole or cut short, and for every caller's redacted view
// of it, without replaying the rules: the parser needs no hidden card to rebuild what it is given.
import type { BismarckEvent, Contract, Seat, Suit } from '@bismarck/rules';

/** The first line of every notation: the format and its version. */
export const NOTATION_MAGIC = 'Bismarck notation 1';

/** A text that is not a notation (parse), or a log the notation cannot carry exactly (write). */
export class NotationError extends Error {
  constructor(
    message: string,
    /** 1-based line of the text where parsing failed; null when writing. */
    readonly line: number | null = null,
  ) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'NotationError';
  }
}

export type Data<T extends BismarckEvent['type']> = Extract<BismarckEvent, { type: T }>['data'];

export const OPTION_KEYS = ['scoring', 'contractChoice', 'spadesInFreeTrump', 'mustTrump', 'leadBeforeDiscard', 'fourthRound'] as const;
export const SEAT = '([012])';
export const INT = '(0|-?[1-9][0-9]*)';
export const NAT = '([1-9][0-9]*)';
/** A JSON string literal: every free text (names, cuts) is written as one. */
export const STRING = '("(?:[^"\\\\]|\\\\[^])*")';
/** A commitment or a seed: a bare word of visible ASCII, or a JSON string when it is not one. */
export const WORD = `(${STRING.slice(1, -1)}|[!#-~][!-~]*)`;
export const HIDDEN = '??';

export const seatOf = (s: string): Seat => Number(s) as Seat;
export const next = (s: Seat, k = 1): Seat => ((s + k) % 3) as Seat;
/** A JSON string literal, with the two line separators JSON leaves raw escaped too: one line stays one line. */
export const text = (s: string): string => JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
export const word = (s: string): string => (/^[!#-~][!-~]*$/.test(s) && s !== HIDDEN ? s : text(s));
export const unword = (s: string): string => (s.startsWith('"') ? (JSON.parse(s) as string) : s);

/** The contract and its trump in one: `spades` (trump S), `trump H`, `notrump`, `pass` (no trump). */
export const contractText = (contract: Contract, trump: Suit | null): string | null => {
  if (contract === 'spades') return trump === 'S' ? 'spades' : null;
  if (contract === 'trump') return trump === null ? null : `trump ${trump}`;
  return trump === null ? contract : null;
};
export const CONTRACT = '(spades|notrump|pass|trump [SHDC])';
export const parseContract = (s: string): { contract: Contract; trump: Suit | null } => {
  if (s === 'spades') return { contract: 'spades', trump: 'S' };
  if (s.startsWith('trump')) return { contract: 'trump', trump: s.slice(5).trim() as Suit };
  return { contract: s as Contract, trump: null };
};
