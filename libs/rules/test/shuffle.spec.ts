import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHUFFLE_ALGORITHM, freshDeck, newServerSeed, sha256Hex, shuffleDeck } from '../src';

describe('the shuffle (docs/fairness.md)', () => {
  it('matches the test vector of docs/fairness.md', () => {
    const vector = '6S KS AS 6C 4H QD AD 5H 8D JH QC QS TH 7D 3S AH 9H 3H QH AC JC 5C KH 2S 8S 9D 7C 5D 6D 7H 5S TS 6H KC JS 4C 4S JD KD 2C 7S TC 4D 9S 9C 3D TD 2H 3C 8C 8H 2D';
    expect(shuffleDeck('bismarck', 1).join(' ')).toBe(vector);
    const doc = readFileSync(join(__dirname, '../../../docs/fairness.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(vector);
    expect(doc).toContain(sha256Hex('bismarck'));
    expect(SHUFFLE_ALGORITHM).toBe('bismarck-shuffle-v1');
  });

  it('is deterministic: the same seed and index give the same deck', () => {
    expect(shuffleDeck('seed', 7)).toEqual(shuffleDeck('seed', 7));
    expect(shuffleDeck('seed', 7)).not.toEqual(shuffleDeck('seed', 8));
    expect(shuffleDeck('seed', 7)).not.toEqual(shuffleDeck('seee', 7));
  });

  it('always gives a permutation of the 52 cards', () => {
    for (let i = 0; i < 200; i++) expect(shuffleDeck(`p${i}`, i).slice().sort()).toEqual(freshDeck().sort());
  });

  it('puts the ace of spades in every position about equally often (chi-square, fixed seeds)', () => {
    const n = 5200;
    const counts = new Array<number>(52).fill(0);
    for (let i = 0; i < n; i++) counts[shuffleDeck('uniformity', i).indexOf('AS')]++;
    const expected = n / 52;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 51 degrees of freedom: the 99.99th percentile is about 98; a modulo bias or a broken swap is far above
    expect(chi2).toBeLessThan(98);
  });

  it('server seeds are 32 random bytes in hex; commitments are sha256 in hex', () => {
    const seed = newServerSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(newServerSeed()).not.toBe(seed);
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
