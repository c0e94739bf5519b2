import { isCardCode, type BismarckEvent, type Card, type Contract, type PlayedCard, type Seat, type Suit, type Triple } from '@bismarck/rules';
import { HIDDEN, INT, NotationError } from './format';

// What every rule of the parser shares: the lines, the patterns' pieces and the parser's state.

export interface Line {
  /** 1-based. */
  number: number;
  text: string;
}

/** One kind of body line: the keyword it starts with, its whole form, and the events it stands for. */
export interface Rule {
  key: string;
  form: string;
  pattern: RegExp;
  apply: (m: RegExpExecArray, line: Line, p: Parser) => void;
}

/** A line pattern: one space in `source` stands for any run of spaces and tabs. */
export const re = (source: string): RegExp => new RegExp(`^${source.replace(/ /g, '[ \\t]+')}$`);
export const CARD = '[2-9TJQKA][SHDC]';
export const CARD_LIST = `(\\?\\?|${CARD}(?: ${CARD})*)`;
export const SEAT_LIST = '((?: [012])*)';
export const TRIPLE = `${INT} ${INT} ${INT}`;
export const splitWords = (s: string): string[] => (s.trim() === '' ? [] : s.trim().split(/[ \t]+/));

type Started = Extract<BismarckEvent, { type: 'DealStarted' }>;

export class Parser {
  readonly events: BismarckEvent[] = [];
  deal: { number: number; forehand: Seat; contract: { contract: Contract; trump: Suit | null } | null } | null = null;
  /** The Hand lines of one HandsDealt read so far (they come together, seats 0, 1, 2). */
  hands: (Card[] | null)[] | null = null;
  handsLine = 0;
  /** The key of the last body line. */
  last = '';
  /** The trick being played, until it is taken (a clock's line may fall in its middle). */
  trick: { deal: number; trick: number; cards: PlayedCard[] } | null = null;

  fail(line: Line | number, message: string): never {
    throw new NotationError(message, typeof line === 'number' ? line : line.number);
  }

  cards(line: Line, s: string, count: number | null, what: string): Card[] | null {
    if (s === HIDDEN) return null;
    const list = splitWords(s);
    for (const c of list) if (!isCardCode(c)) this.fail(line, `${what}: ${c} is not a card (rank 2-9 T J Q K A, then suit S H D C)`);
    if (new Set(list).size !== list.length) this.fail(line, `${what}: a card appears twice`);
    if (count !== null && list.length !== count) this.fail(line, `${what}: expected ${count} cards, found ${list.length}`);
    return list;
  }

  inDeal(line: Line, what: string): NonNullable<Parser['deal']> {
    if (this.deal === null) this.fail(line, `${what} belongs to a deal: expected a "Deal n: dealer d, forehand f" line before it`);
    return this.deal;
  }

  /** The DealStarted that a Shuffle, Deck, Table or Contract line completes (the order is checked before). */
  started(): Started {
    return this.events.at(-1) as Started;
  }

  push(event: BismarckEvent): void {
    this.events.push(event);
  }
}

export const triple = (m: RegExpExecArray, from: number): Triple<number> => [Number(m[from]), Number(m[from + 1]), Number(m[from + 2])];
