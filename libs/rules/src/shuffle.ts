// The deterministic shuffle (docs/fairness.md documents it byte for byte, with a test vector).
// The only module of libs/rules that imports anything at run time.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { freshDeck } from './cards';
import type { Card } from './types';

export const SHUFFLE_ALGORITHM = 'bismarck-shuffle-v1';

/**
 * A byte stream: HMAC-SHA256(key = seed as UTF-8, message = `${index}:${block}` as UTF-8) for
 * block = 0, 1, 2, ..., each block giving 32 bytes, concatenated.
 */
const byteStream = (seed: string, index: number): (() => number) => {
  let block = 0;
  let bytes: Buffer = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at === bytes.length) {
      bytes = createHmac('sha256', Buffer.from(seed, 'utf8')).update(Buffer.from(`${index}:${block}`, 'utf8')).digest();
      block += 1;
      at = 0;
    }
    return bytes[at++];
  };
};

/** A uniform integer in [0, n) for 1 <= n <= 256: one byte, rejected if >= 256 - (256 mod n). */
const uniformBelow = (next: () => number, n: number): number => {
  const limit = 256 - (256 % n);
  for (;;) {
    const b = next();
    if (b < limit) return b % n;
  }
};

/**
 * Deck number `index` of the match with this seed: Fisher–Yates over freshDeck() (2S..AS, 2H..AH,
 * 2D..AD, 2C..AC), for i = 51 down to 1 swapping position i with j = uniformBelow(i + 1).
 * The same seed and index give the same deck on every machine. Top card first.
 */
export const shuffleDeck = (seed: string, index: number): Card[] => {
  if (typeof seed !== 'string') throw new TypeError('seed must be a string');
  if (!Number.isSafeInteger(index) || index < 0) throw new TypeError('index must be a non-negative integer');
  const deck = freshDeck();
  const next = byteStream(seed, index);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = uniformBelow(next, i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
};

/** 32 random bytes as lowercase hex: a server seed, committed to by its sha256 before the deals. */
export const newServerSeed = (): string => randomBytes(32).toString('hex');

/** Lowercase hex SHA-256 of the UTF-8 bytes of s. */
export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
