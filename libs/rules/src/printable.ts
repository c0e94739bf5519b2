// Text a person types that others see (a cut, a name), stated once as regular expressions: the service tests
// text with them and the OpenAPI document publishes them as the `pattern`, so a client's validator and the
// service agree on every character. Unicode's categories are read from a table frozen at one Unicode version
// (unicode-table.ts), not from the running engine's `\p{…}`: the answer and the document do not change with the
// Node.js that runs the service, and Spectral and Python's `re` have no `\p{…}`.
//
// How they are written, so that every engine reads them: `\uXXXX` escapes and ranges in the Basic Multilingual
// Plane; beyond it, single characters only, never a range. ECMAScript's `u` mode (JSON Schema's, Ajv's), Python
// and Java read a character beyond U+FFFF as one code point; an engine without a Unicode mode (Spectral's) reads
// it as two UTF-16 units, which is still a valid pattern there, where a range of them would not be. So beyond the
// BMP the rule names the characters it refuses (the invisible format characters and the noncharacters) and the
// marks it counts, and lets the others through.
import { INVISIBLE_ASTRAL_RANGES, MARK_RANGES, PRINTABLE_BMP_RANGES } from './unicode-table';

/**
 * At most this many combining marks in a row (on one character): enough for any script's stacks (Vietnamese
 * needs two, Tibetan three), too few to hide text in marks (a cut of `a` and 63 variation selectors).
 */
export const MAX_MARKS_IN_A_ROW = 4;

const codePoints = (ranges: string): [number, number][] =>
  ranges
    .trim()
    .split(/\s+/)
    .map((range) => {
      const [first, last = first] = range.split('-').map((hex) => parseInt(hex, 16));
      return [first, last];
    });

const bmp = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** The body of a character class: BMP ranges as `\uXXXX-\uXXXX`, each character beyond U+FFFF by itself. */
function classBody(ranges: string): string {
  let out = '';
  for (const [first, last] of codePoints(ranges)) {
    if (last <= 0xffff) out += first === last ? bmp(first) : `${bmp(first)}-${bmp(last)}`;
    else for (let c = first; c <= last; c++) out += String.fromCodePoint(c);
  }
  return out;
}

/** One combining mark (Unicode's M, variation selectors included). */
export const MARK = `[${classBody(MARK_RANGES)}]`;

/** Lookaheads for the start of a pattern: no more than MAX_MARKS_IN_A_ROW marks in a row, no invisible character beyond the BMP. */
export const NO_HIDDEN_TEXT = `(?!.*${MARK}{${MAX_MARKS_IN_A_ROW + 1}})(?!.*[${classBody(INVISIBLE_ASTRAL_RANGES)}])`;

/**
 * Any character beyond the BMP: in a Unicode mode the code points from U+10000 (and a lone surrogate, which the
 * service refuses apart: no pattern can say so alike in every engine); without one, either half of a pair.
 */
const BEYOND_BMP = '[^\\u0000-\\ud7ff\\ue000-\\uffff]';

/**
 * A cut's characters, as a pattern for the whole text: in the BMP, letters, marks, numbers, punctuation,
 * symbols and the space (Unicode's L, M, N, P and S: no control, format, private-use, unassigned or other space
 * character); beyond it, any character but an invisible format one or a noncharacter; not only spaces, at
 * most MAX_MARKS_IN_A_ROW marks in a row. Its length (1 to 64 code points) is apart.
 */
export const CUT_PATTERN = `^${NO_HIDDEN_TEXT}(?! *$)(?:[${classBody(PRINTABLE_BMP_RANGES)}]|${BEYOND_BMP})+$`;
