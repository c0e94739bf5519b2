import fc from 'fast-check';
import { CUT_PATTERN, MAX_MARKS_IN_A_ROW, normalCut } from '../src';
import { UNICODE_VERSION } from '../src/unicode-table';

// The cut's pattern is both the service's test and the OpenAPI document's `pattern` (printable.ts); its
// Unicode categories come from a table frozen at one Unicode version (unicode-table.ts).
const pattern = new RegExp(CUT_PATTERN, 'u');
const every = function* (): Generator<number> {
  for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) yield c;
};

describe('the table of printable characters', () => {
  it("is, in the BMP, the running engine's letters, marks, numbers, punctuation, symbols and space, and beyond it all but the format characters and noncharacters, when their Unicode versions are the same", () => {
    if (process.versions.unicode !== UNICODE_VERSION) return; // another version: the next test still holds
    const engine = (c: number): boolean =>
      c <= 0xffff ? /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(String.fromCodePoint(c)) : !/^[\p{Cf}\p{Noncharacter_Code_Point}]$/u.test(String.fromCodePoint(c));
    const differ = [...every()].filter((c) => engine(c) !== pattern.test(`x${String.fromCodePoint(c)}`));
    expect(differ.map((c) => c.toString(16))).toEqual([]);
  });

  it("lets no control, format, separator or noncharacter through, nor a private-use character of the BMP, whatever the engine's Unicode version", () => {
    const never = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Noncharacter_Code_Point}]$/u;
    const through = [...every()].filter((c) => c !== 0x20 && (never.test(String.fromCodePoint(c)) || (c >= 0xe000 && c <= 0xf8ff)) && pattern.test(`x${String.fromCodePoint(c)}`));
    expect(through.map((c) => c.toString(16))).toEqual([]);
  });

  it('is a valid pattern for an engine without a Unicode mode too (Spectral reads patterns so): no range beyond the BMP', () => {
    expect(() => new RegExp(CUT_PATTERN)).not.toThrow();
    expect(new RegExp(CUT_PATTERN).test('lykke til')).toBe(true);
  });
});

describe('combining marks in a cut', () => {
  // "x" composes with none of these marks (NFC makes "a" and U+0301 one character, leaving four).
  it.each([
    ['a letter and four marks', 'x\u0301\u0302\u0303\u0304', true],
    ['Vietnamese (two marks on one letter)', 'Vie\u0323\u0302t', true],
    ['an emoji with its variation selector', '\u2764\uFE0F', true],
    ['a letter and five marks', 'x\u0301\u0302\u0303\u0304\u0305', false],
    ['a letter and 63 variation selectors', `a${'\u{E0100}'.repeat(63)}`, false],
    ['a letter and five variation selectors', `a${'\uFE0F'.repeat(5)}`, false],
  ])('%s: %s', (_name, cut, accepted) => {
    expect(normalCut(cut) !== null).toBe(accepted);
    expect(pattern.test(cut)).toBe(accepted);
  });

  it(`allows at most ${MAX_MARKS_IN_A_ROW} in a row`, () => expect(MAX_MARKS_IN_A_ROW).toBe(4));
});

describe('the pattern and the service', () => {
  it('agree on every text already in NFC of at most 64 code points (what a client validates is what the service accepts)', () => {
    const char = fc.oneof(
      fc.constantFrom(' ', 'a', 'Z', '7', '\u0301', '\uFE0F', '\u00A0', '\u3000', '\u200B', '\u202E', '\uE000', '\uFFFF', '\u0378', '\u{E0041}', '\u{1BCA0}', '\u{1D173}', '\u{F0000}', '🍀', '\u0007'),
      fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)),
    );
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 64 }), (chars) => {
        const text = chars.join('');
        fc.pre(text.normalize('NFC') === text && [...text].length <= 64);
        expect(normalCut(text) !== null).toBe(pattern.test(text));
      }),
      { numRuns: 2000 },
    );
  });
});
