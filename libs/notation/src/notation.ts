// The plain-text match notation (docs/notation.md): a whole match, one line per fact, in log order.
//
// Why one line (or one small group of lines) per event, in the log's own order, rather than a fixed
// layout per deal: the notation must give back the very events it was written from, and the order of
// events in a log varies (a cut or not, blind or informed contracts, voided deals, a lobby's joins, the
// dealer's commitments and reveals). Writing the facts in the order they happened makes the round trip
// exact for every log the rules can produce, whole or cut short, and for every caller's redacted view
// of it, without replaying the rules: the parser needs no hidden card to rebuild what it is given.
import { isCardCode, OPTION_VALUES, type BismarckEvent, type Card, type Contract, type MatchOptions, type PlayedCard, type Seat, type Suit, type Triple } from '@bismarck/rules';

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

type Data<T extends BismarckEvent['type']> = Extract<BismarckEvent, { type: T }>['data'];

// ---- small shared pieces --------------------------------------------------------------------------

const OPTION_KEYS = ['scoring', 'contractChoice', 'spadesInFreeTrump', 'mustTrump', 'leadBeforeDiscard', 'fourthRound'] as const;
const SEAT = '([012])';
const INT = '(0|-?[1-9][0-9]*)';
const NAT = '([1-9][0-9]*)';
/** A JSON string literal: every free text (names, cuts) is written as one. */
const STRING = '("(?:[^"\\\\]|\\\\[^])*")';
/** A commitment or a seed: a bare word of visible ASCII, or a JSON string when it is not one. */
const WORD = `(${STRING.slice(1, -1)}|[!#-~][!-~]*)`;
const HIDDEN = '??';

const seatOf = (s: string): Seat => Number(s) as Seat;
const next = (s: Seat, k = 1): Seat => ((s + k) % 3) as Seat;
/** A JSON string literal, with the two line separators JSON leaves raw escaped too: one line stays one line. */
const text = (s: string): string => JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
const word = (s: string): string => (/^[!#-~][!-~]*$/.test(s) && s !== HIDDEN ? s : text(s));
const unword = (s: string): string => (s.startsWith('"') ? (JSON.parse(s) as string) : s);

/** The contract and its trump in one: `spades` (trump S), `trump H`, `notrump`, `pass` (no trump). */
const contractText = (contract: Contract, trump: Suit | null): string | null => {
  if (contract === 'spades') return trump === 'S' ? 'spades' : null;
  if (contract === 'trump') return trump === null ? null : `trump ${trump}`;
  return trump === null ? contract : null;
};
const CONTRACT = '(spades|notrump|pass|trump [SHDC])';
const parseContract = (s: string): { contract: Contract; trump: Suit | null } => {
  if (s === 'spades') return { contract: 'spades', trump: 'S' };
  if (s.startsWith('trump')) return { contract: 'trump', trump: s.slice(5).trim() as Suit };
  return { contract: s as Contract, trump: null };
};

// ---- writing ----------------------------------------------------------------------------------------

/** What the writer needs to know of the deal being written, to check what the text leaves out. */
interface DealContext {
  deal: number;
  forehand: Seat;
  contract: { contract: Contract; trump: Suit | null } | null;
}
interface OpenTrick {
  deal: number;
  trick: number;
  cards: PlayedCard[];
  /** The line its cards are written on; -1 after a clock's line in its middle: the next card starts a line. */
  line: number;
}

/** The turn clock's events: they may fall inside a trick, whose line then goes on below them. */
const CLOCK_EVENTS = new Set<BismarckEvent['type']>(['TurnTimedOut', 'SeatReturned']);

/**
 * The match in the notation. `events` are the rules' events of one match in log order (a caller's
 * redacted view included: a null card list is written `??`), starting with MatchCreated. Throws a
 * NotationError for a log the notation cannot give back exactly (one no decision of the rules makes).
 */
export function toNotation(events: readonly BismarckEvent[], comments: readonly string[] = []): string {
  const lines: string[] = comments.map((c) => `# ${c}`.trimEnd());
  const first = events[0];
  if (first?.type !== 'MatchCreated') throw new NotationError('a log starts with MatchCreated');
  const o = first.data.options;
  const valid = (k: (typeof OPTION_KEYS)[number] | 'schedule'): boolean =>
    k === 'spadesInFreeTrump' || k === 'mustTrump' ? typeof o?.[k] === 'boolean' : (OPTION_VALUES[k] as readonly unknown[]).includes(o?.[k]);
  const invalid = (['schedule', ...OPTION_KEYS] as const).filter((k) => !valid(k));
  if (invalid.length > 0) throw new NotationError(`event 1 (MatchCreated) cannot be written: options ${invalid.join(', ')} are missing or unknown`);
  lines.push(...header(first.data));
  let deal: DealContext | null = null;
  let trick: OpenTrick | null = null;
  const refuse = (i: number, why: string): never => {
    throw new NotationError(`event ${i + 1} (${events[i].type}) cannot be written: ${why}`);
  };
  /** A card list as the parser reads it back: `count` distinct cards, or ?? for a hidden one. */
  const list = (i: number, l: readonly Card[] | null, count: number | null): string => {
    if (l === null) return HIDDEN;
    if (!Array.isArray(l) || (count !== null && l.length !== count) || !l.every(isCardCode) || new Set(l).size !== l.length)
      refuse(i, `expected ${count ?? 'distinct'} cards, found ${JSON.stringify(l)}`);
    return l.join(' ');
  };
  /** A blank line before each deal's first line (its commitment, its cut or its start), for people; the parser skips it. */
  const gap = (): void => {
    if (!/^(Commit|Cut) /.test(lines[lines.length - 1])) lines.push('');
  };
  const inDeal = (i: number, number: number): DealContext => {
    if (deal === null || deal.deal !== number) return refuse(i, `it belongs to deal ${number}, but the deal on the table is ${deal?.deal ?? 'none'}`);
    return deal;
  };
  for (let i = 1; i < events.length; i++) {
    const e = events[i];
    if (trick !== null && CLOCK_EVENTS.has(e.type)) trick.line = -1;
    else if (trick !== null && e.type !== 'CardPlayed' && e.type !== 'TrickTaken') trick = null;
    switch (e.type) {
      case 'MatchCreated':
        refuse(i, 'a log holds one MatchCreated, first');
        break;
      case 'SeatJoined':
        lines.push(`Joined ${e.data.seat}: ${text(e.data.name)}${e.data.bot === undefined ? '' : ` bot ${text(e.data.bot)}`}${e.data.account === undefined ? '' : ` player ${text(e.data.account)}`}`);
        break;
      case 'TableAbandoned':
        lines.push(`Abandoned: open ${e.data.openSeats.join(' ')}`.trimEnd());
        break;
      case 'DeckCommitted':
        gap();
        lines.push(`Commit ${e.data.deal}: ${word(e.data.commitment)}`);
        break;
      case 'DeckCut':
        gap();
        lines.push(`Cut ${e.data.deal}: seat ${e.data.seat} ${text(e.data.cut)}`);
        break;
      case 'SeedRevealed':
        lines.push(`Reveal ${e.data.deal}: ${word(e.data.commitment)} ${word(e.data.seed)}`);
        break;
      case 'DealStarted': {
        const d = e.data;
        deal = { deal: d.deal, forehand: d.forehand, contract: null };
        gap();
        lines.push(`Deal ${d.deal}: dealer ${d.dealer}, forehand ${d.forehand}`);
        if (d.shuffle !== undefined) lines.push(`Shuffle: ${JSON.stringify(d.shuffle)}`);
        if (d.tableCards === null) refuse(i, 'the table cards are public');
        lines.push(`Deck: ${list(i, d.deck, 52)}`, `Table: ${list(i, d.tableCards, 4)}`);
        if (d.contract !== null || d.trump !== null) {
          const c = d.contract === null ? null : contractText(d.contract, d.trump);
          if (c === null) refuse(i, `contract ${d.contract} with trump ${d.trump}`);
          lines.push(`Contract: ${c}`);
          deal.contract = { contract: d.contract!, trump: d.trump };
        }
        break;
      }
      case 'ContractChosen': {
        const d = inDeal(i, e.data.deal);
        const c = contractText(e.data.contract, e.data.trump);
        if (c === null) refuse(i, `contract ${e.data.contract} with trump ${e.data.trump}`);
        lines.push(`Chosen by ${e.data.seat}: ${c}`);
        d.contract = { contract: e.data.contract, trump: e.data.trump };
        break;
      }
      case 'HandsDealt':
        inDeal(i, e.data.deal);
        if (e.data.hands.length !== 3) refuse(i, 'three hands are dealt');
        e.data.hands.forEach((hand, seat) => lines.push(`Hand ${seat}: ${list(i, hand, 16)}`));
        break;
      case 'CardsLaidAway':
        inDeal(i, e.data.deal);
        lines.push(`Laid away by ${e.data.seat}: ${list(i, e.data.cards, 4)}`);
        break;
      case 'DealVoided':
        inDeal(i, e.data.deal);
        if (!isCardCode(e.data.card) || e.data.reason !== 'leadBeforeDiscard') refuse(i, `a void names the card led and the reason leadBeforeDiscard`);
        lines.push(`Voided: seat ${e.data.seat} led ${e.data.card} (${e.data.reason})`);
        break;
      case 'CardPlayed': {
        inDeal(i, e.data.deal);
        const { seat, card } = e.data;
        if (!isCardCode(card) || !Number.isInteger(e.data.trick) || e.data.trick < 1 || e.data.trick > 16) refuse(i, `card ${card} in trick ${e.data.trick}`);
        const open: OpenTrick | null = trick;
        if (open !== null && open.trick === e.data.trick && open.cards.length < 3) {
          if (seat !== next(open.cards[0].seat, open.cards.length)) refuse(i, `seat ${seat} plays out of turn in trick ${e.data.trick}`);
          if (open.cards.some((c) => c.card === card)) refuse(i, `${card} is played twice in trick ${e.data.trick}`);
          open.cards.push({ seat, card });
          if (open.line >= 0) lines[open.line] += ` ${card}`;
          else {
            open.line = lines.length;
            lines.push(`${e.data.trick}. ${seat}: ${card}`);
          }
        } else {
          trick = { deal: e.data.deal, trick: e.data.trick, cards: [{ seat, card }], line: lines.length };
          lines.push(`${e.data.trick}. ${seat}: ${card}`);
        }
        break;
      }
      case 'TrickTaken': {
        inDeal(i, e.data.deal);
        const open: OpenTrick | null = trick;
        const same =
          open !== null &&
          open.trick === e.data.trick &&
          open.cards.length === 3 &&
          e.data.cards.length === 3 &&
          e.data.cards.every((c, k) => c.seat === open.cards[k].seat && c.card === open.cards[k].card);
        if (!same || open === null) return refuse(i, 'a trick is taken right after its third card, with the cards played');
        lines[open.line] += ` -> ${e.data.winner}`;
        trick = null;
        break;
      }
      case 'DealScored': {
        const d = inDeal(i, e.data.deal);
        const s = e.data;
        if (d.contract === null || s.forehand !== d.forehand || s.contract !== d.contract.contract || s.trump !== d.contract.trump)
          refuse(i, "its forehand, contract and trump are not the deal's");
        lines.push(`Score: tricks ${s.tricks.join(' ')}; quotas ${s.quotas.join(' ')}; points ${s.points.join(' ')}; totals ${s.totals.join(' ')}`);
        break;
      }
      case 'MatchFinished':
        lines.push('', `Result: totals ${e.data.totals.join(' ')}; winners ${e.data.winners.join(' ')}`.trimEnd());
        break;
      case 'RematchOffered':
        lines.push(`Rematch by ${e.data.seat}: ${text(e.data.matchId)}`);
        break;
      case 'TurnTimedOut':
        lines.push(`Timed out: seat ${e.data.seat}, deadline ${text(e.data.deadline)}`);
        break;
      case 'SeatReturned':
        lines.push(`Back: seat ${e.data.seat}`);
        break;
      default:
        return refuse(i, 'unknown event type');
    }
  }
  return `${lines.join('\n')}\n`;
}

function header(d: Data<'MatchCreated'>): string[] {
  const o = d.options;
  return [
    NOTATION_MAGIC,
    `Match: ${text(d.matchId)}`,
    `Players: ${d.players.map((p) => (p === null ? '-' : text(p))).join(' ')}`,
    `Schedule: ${o.schedule}`,
    `Options: ${OPTION_KEYS.map((k) => `${k}=${o[k]}`).join(' ')}`,
    `First dealer: ${d.firstDealer}`,
    `Fairness: ${d.seeded ? 'seeded' : 'provably-fair'}`,
    // Only a match with a turn clock has the line, as only its options have `clock`.
    ...(o.clock ? [`Clock: ${o.clock.turnSeconds}s, ${o.clock.onTimeout}`] : []),
    // Only a match created with a bot seat has the line, as only its MatchCreated has `bots`.
    ...(d.bots ? [`Bots: ${d.bots.map((b) => (b === null ? '-' : text(b))).join(' ')}`] : []),
    // Only a match created with a seat bound to a player account has the line (docs/players.md).
    ...(d.accounts ? [`Accounts: ${d.accounts.map((a) => (a === null ? '-' : text(a))).join(' ')}`] : []),
    // Only a fork has the line (POST /api/matches/{id}/fork), as only its MatchCreated has `forkedFrom`.
    ...(d.forkedFrom ? [`Forked from: ${text(d.forkedFrom.matchId)} at ${d.forkedFrom.version}`] : []),
    // Only a rematch has the line (POST /api/matches/{id}/rematch), as only its MatchCreated has `rematchOf`.
    ...(d.rematchOf !== undefined ? [`Rematch of: ${text(d.rematchOf)}`] : []),
  ];
}

// ---- parsing ----------------------------------------------------------------------------------------

interface Line {
  /** 1-based. */
  number: number;
  text: string;
}

/** One kind of body line: the keyword it starts with, its whole form, and the events it stands for. */
interface Rule {
  key: string;
  form: string;
  pattern: RegExp;
  apply: (m: RegExpExecArray, line: Line, p: Parser) => void;
}

/** A line pattern: one space in `source` stands for any run of spaces and tabs. */
const re = (source: string): RegExp => new RegExp(`^${source.replace(/ /g, '[ \\t]+')}$`);
const CARD = '[2-9TJQKA][SHDC]';
const CARD_LIST = `(\\?\\?|${CARD}(?: ${CARD})*)`;
const SEAT_LIST = '((?: [012])*)';
const TRIPLE = `${INT} ${INT} ${INT}`;
const splitWords = (s: string): string[] => (s.trim() === '' ? [] : s.trim().split(/[ \t]+/));

type Started = Extract<BismarckEvent, { type: 'DealStarted' }>;

class Parser {
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

const triple = (m: RegExpExecArray, from: number): Triple<number> => [Number(m[from]), Number(m[from + 1]), Number(m[from + 2])];

const BODY: Rule[] = [
  {
    key: 'Joined',
    form: 'Joined s: "name" [bot "strategy"] [player "id"]',
    pattern: re(`Joined ${SEAT}: ${STRING}(?: bot ${STRING})?(?: player ${STRING})?`),
    apply: (m, _l, p) =>
      p.push({
        type: 'SeatJoined',
        data: {
          seat: seatOf(m[1]),
          name: JSON.parse(m[2]) as string,
          ...(m[3] === undefined ? {} : { bot: JSON.parse(m[3]) as string }),
          ...(m[4] === undefined ? {} : { account: JSON.parse(m[4]) as string }),
        },
      }),
  },
  {
    key: 'Abandoned',
    form: 'Abandoned: open s …',
    pattern: re(`Abandoned: open${SEAT_LIST}`),
    apply: (m, _l, p) => p.push({ type: 'TableAbandoned', data: { openSeats: splitWords(m[1]).map(seatOf) } }),
  },
  {
    key: 'Commit',
    form: 'Commit n: commitment',
    pattern: re(`Commit ${NAT}: ${WORD}`),
    apply: (m, _l, p) => p.push({ type: 'DeckCommitted', data: { deal: Number(m[1]), commitment: unword(m[2]) } }),
  },
  {
    key: 'Cut',
    form: 'Cut n: seat s "cut"',
    pattern: re(`Cut ${NAT}: seat ${SEAT} ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'DeckCut', data: { deal: Number(m[1]), seat: seatOf(m[2]), cut: JSON.parse(m[3]) as string } }),
  },
  {
    key: 'Reveal',
    form: 'Reveal n: commitment seed',
    pattern: re(`Reveal ${NAT}: ${WORD} ${WORD}`),
    apply: (m, _l, p) => p.push({ type: 'SeedRevealed', data: { deal: Number(m[1]), commitment: unword(m[2]), seed: unword(m[3]) } }),
  },
  {
    key: 'Deal',
    form: 'Deal n: dealer d, forehand f',
    pattern: re(`Deal ${NAT}: dealer ${SEAT}, forehand ${SEAT}`),
    apply: (m, _l, p) => {
      p.deal = { number: Number(m[1]), forehand: seatOf(m[3]), contract: null };
      p.push({
        type: 'DealStarted',
        data: { deal: Number(m[1]), dealer: seatOf(m[2]), forehand: seatOf(m[3]), deck: null, tableCards: [], contract: null, trump: null },
      });
    },
  },
  {
    key: 'Shuffle',
    form: 'Shuffle: {a JSON object}',
    pattern: re('Shuffle: (\\{[^]*\\})'),
    apply: (m, l, p) => {
      let value: unknown;
      try {
        value = JSON.parse(m[1]);
      } catch {
        return p.fail(l, 'Shuffle: expected one JSON object');
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return p.fail(l, 'Shuffle: expected one JSON object');
      p.started().data.shuffle = value as Record<string, unknown>;
    },
  },
  {
    key: 'Deck',
    form: 'Deck: 52 cards, or ??',
    pattern: re(`Deck: ${CARD_LIST}`),
    apply: (m, l, p) => {
      p.started().data.deck = p.cards(l, m[1], 52, 'Deck');
    },
  },
  {
    key: 'Table',
    form: 'Table: 4 cards',
    pattern: re(`Table: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const table = p.cards(l, m[1], 4, 'Table');
      if (table === null) return p.fail(l, 'Table: the table cards are public, never ??');
      p.started().data.tableCards = table;
    },
  },
  {
    key: 'Contract',
    form: 'Contract: spades | trump X | notrump | pass',
    pattern: re(`Contract: ${CONTRACT}`),
    apply: (m, _l, p) => {
      const c = parseContract(m[1]);
      p.started().data.contract = c.contract;
      p.started().data.trump = c.trump;
      p.deal!.contract = c;
    },
  },
  {
    key: 'Chosen',
    form: 'Chosen by s: spades | trump X | notrump | pass',
    pattern: re(`Chosen by ${SEAT}: ${CONTRACT}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Chosen by"');
      const c = parseContract(m[2]);
      deal.contract = c;
      p.push({ type: 'ContractChosen', data: { deal: deal.number, seat: seatOf(m[1]), contract: c.contract, trump: c.trump } });
    },
  },
  {
    key: 'Hand',
    form: 'Hand s: 16 cards, or ??',
    pattern: re(`Hand ${SEAT}: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Hand"');
      const seat = Number(m[1]);
      const expected = p.hands === null ? 0 : p.hands.length;
      if (seat !== expected) p.fail(l, `expected "Hand ${expected}: …": the three hands come together, seats 0, 1, 2`);
      if (seat === 0) p.handsLine = l.number;
      p.hands = [...(p.hands ?? []), p.cards(l, m[2], 16, `Hand ${seat}`)];
      if (p.hands.length < 3) return;
      p.push({ type: 'HandsDealt', data: { deal: deal.number, hands: p.hands as Triple<Card[] | null> } });
      p.hands = null;
    },
  },
  {
    key: 'Laid',
    form: 'Laid away by s: 4 cards, or ??',
    pattern: re(`Laid away by ${SEAT}: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Laid away"');
      p.push({ type: 'CardsLaidAway', data: { deal: deal.number, seat: seatOf(m[1]), cards: p.cards(l, m[2], 4, 'Laid away') } });
    },
  },
  {
    key: 'Voided',
    form: 'Voided: seat s led card (leadBeforeDiscard)',
    pattern: re(`Voided: seat ${SEAT} led (${CARD}) \\((leadBeforeDiscard)\\)`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Voided"');
      p.push({ type: 'DealVoided', data: { deal: deal.number, seat: seatOf(m[1]), card: m[2], reason: 'leadBeforeDiscard' } });
    },
  },
  {
    key: 'trick',
    form: 'n. leader: card card card -> winner',
    pattern: re(`${NAT}\\. ${SEAT}: (${CARD}(?: ${CARD}){0,2})(?: -> ${SEAT})?`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, 'A trick');
      const trick = Number(m[1]);
      if (trick > 16) p.fail(l, `a deal has 16 tricks, not ${trick}`);
      const list = p.cards(l, m[3], null, `trick ${trick}`)!;
      // The same trick again: it goes on after a clock's line fell in its middle.
      const open = p.trick !== null && p.trick.deal === deal.number && p.trick.trick === trick && p.trick.cards.length < 3 ? p.trick.cards : [];
      const leader = seatOf(m[2]);
      if (open.length > 0 && leader !== next(open[open.length - 1].seat)) p.fail(l, `trick ${trick} goes on with seat ${next(open[open.length - 1].seat)}, not ${leader}`);
      const played: PlayedCard[] = [...open, ...list.map((card, k) => ({ seat: next(leader, k), card }))];
      if (played.length > 3) p.fail(l, `trick ${trick} has 3 cards, not ${played.length}`);
      for (const { seat, card } of played.slice(open.length)) p.push({ type: 'CardPlayed', data: { deal: deal.number, trick, seat, card } });
      p.trick = { deal: deal.number, trick, cards: played };
      if (m[4] === undefined) return;
      if (played.length !== 3) p.fail(l, `trick ${trick} is taken with 3 cards, not ${played.length}`);
      p.trick = null;
      p.push({ type: 'TrickTaken', data: { deal: deal.number, trick, winner: seatOf(m[4]), cards: played } });
    },
  },
  {
    key: 'Score',
    form: 'Score: tricks a b c; quotas a b c; points a b c; totals a b c',
    pattern: re(`Score: tricks ${TRIPLE}; quotas ${TRIPLE}; points ${TRIPLE}; totals ${TRIPLE}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Score"');
      const contract = deal.contract ?? p.fail(l, 'a deal is scored once its contract is known: expected a "Contract:" or "Chosen by" line before');
      p.push({
        type: 'DealScored',
        data: {
          deal: deal.number,
          forehand: deal.forehand,
          contract: contract.contract,
          trump: contract.trump,
          tricks: triple(m, 1),
          quotas: triple(m, 4),
          points: triple(m, 7),
          totals: triple(m, 10),
        },
      });
    },
  },
  {
    key: 'Result',
    form: 'Result: totals a b c; winners s …',
    pattern: re(`Result: totals ${TRIPLE}; winners${SEAT_LIST}`),
    apply: (m, _l, p) => p.push({ type: 'MatchFinished', data: { totals: triple(m, 1), winners: splitWords(m[4]).map(seatOf) } }),
  },
  {
    key: 'Timed',
    form: 'Timed out: seat s, deadline "time"',
    pattern: re(`Timed out: seat ${SEAT}, deadline ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'TurnTimedOut', data: { seat: seatOf(m[1]), deadline: JSON.parse(m[2]) as string } }),
  },
  {
    key: 'Back',
    form: 'Back: seat s',
    pattern: re(`Back: seat ${SEAT}`),
    apply: (m, _l, p) => p.push({ type: 'SeatReturned', data: { seat: seatOf(m[1]) } }),
  },
  {
    key: 'Rematch',
    form: 'Rematch by s: "match id"',
    pattern: re(`Rematch by ${SEAT}: ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'RematchOffered', data: { matchId: JSON.parse(m[2]) as string, seat: seatOf(m[1]) } }),
  },
];

/** The lines of a deal's start (one DealStarted): after each key, the keys that may come next. */
const START_NEXT: Record<string, string[]> = { Deal: ['Shuffle', 'Deck'], Shuffle: ['Deck'], Deck: ['Table'] };
const START_PARTS = new Set(['Shuffle', 'Deck', 'Table', 'Contract']);
const keyOf = (text: string): Rule | undefined =>
  /^[0-9]+\./.test(text) ? BODY.find((r) => r.key === 'trick') : BODY.find((r) => text.startsWith(`${r.key} `) || text.startsWith(`${r.key}:`));
const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/**
 * The events a notation carries, in log order (their versions are 1, 2, …). Blank lines and lines
 * starting with `#` are skipped. Throws a NotationError naming the line and what was expected there.
 */
export function fromNotation(input: string): BismarckEvent[] {
  const lines: Line[] = input
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((t, i) => ({ number: i + 1, text: t.replace(/^[ \t]+|[ \t]+$/g, '') }))
    .filter((l) => l.text !== '' && !l.text.startsWith('#'));
  const p = new Parser();
  const { created, length } = parseHeader(lines, p);
  p.push({ type: 'MatchCreated', data: created });
  for (const line of lines.slice(length)) {
    if (p.hands !== null && !line.text.startsWith('Hand')) p.fail(line, `expected "Hand ${p.hands.length}: …": the three hands come together, seats 0, 1, 2`);
    const rule = BODY.find((r) => r.pattern.test(line.text));
    const key = rule?.key ?? keyOf(line.text)?.key;
    const following = START_NEXT[p.last];
    if (following && !following.includes(key ?? '')) {
      p.fail(line, `expected ${following.map((k) => `"${k}: …"`).join(' or ')} to go on with the deal's start, found "${clip(line.text)}"`);
    }
    if (key && START_PARTS.has(key) && !following?.includes(key) && !(key === 'Contract' && p.last === 'Table')) {
      p.fail(line, `"${key}:" belongs to a deal's start: the lines "Deal n: …", ["Shuffle: …"], "Deck: …", "Table: …", ["Contract: …"] in this order`);
    }
    if (!rule) {
      const known = keyOf(line.text);
      return p.fail(
        line,
        known
          ? `expected "${known.form}", found "${clip(line.text)}"`
          : `expected a line of the notation (${BODY.map((r) => (r.key === 'trick' ? '"n."' : r.key)).join(', ')}), found "${clip(line.text)}"`,
      );
    }
    rule.apply(rule.pattern.exec(line.text)!, line, p);
    p.last = rule.key;
  }
  if (p.hands !== null) p.fail(p.handsLine, `"Hand 0" is not followed by the hands of seats ${p.hands.length} to 2`);
  if (START_NEXT[p.last]) p.fail(lines.at(-1)!, `the text ends inside a deal's start: expected ${START_NEXT[p.last].map((k) => `"${k}: …"`).join(' or ')}`);
  return p.events;
}

interface HeaderLine {
  expected: string;
  pattern: RegExp;
}
const PLAYER = `(${STRING.slice(1, -1)}|-)`;
const HEADER: HeaderLine[] = [
  { expected: NOTATION_MAGIC, pattern: re(NOTATION_MAGIC) },
  { expected: 'Match: "id"', pattern: re(`Match: ${STRING}`) },
  { expected: 'Players: "name" "name" "name" (- for an open seat)', pattern: re(`Players: ${PLAYER} ${PLAYER} ${PLAYER}`) },
  { expected: `Schedule: ${OPTION_VALUES.schedule.join(' | ')}`, pattern: re(`Schedule: (${OPTION_VALUES.schedule.join('|')})`) },
  { expected: `Options: ${OPTION_KEYS.map((k) => `${k}=…`).join(' ')}`, pattern: re(`Options: ${OPTION_KEYS.map((k) => `${k}=(\\S+)`).join(' ')}`) },
  { expected: 'First dealer: 0 | 1 | 2', pattern: re(`First dealer: ${SEAT}`) },
  { expected: 'Fairness: seeded | provably-fair', pattern: re('Fairness: (seeded|provably-fair)') },
];

/** The optional line after the header: a turn clock's seconds and what a timeout does. */
const CLOCK = re('Clock: ([1-9][0-9]*)s, (standIn)');
/** The optional line after that: the strategy of each bot seat at creation, `-` for a person. */
const BOTS = re(`Bots: ${PLAYER} ${PLAYER} ${PLAYER}`);
/** The optional line after that: the player account each seat is bound to at creation, `-` for none. */
const ACCOUNTS = re(`Accounts: ${PLAYER} ${PLAYER} ${PLAYER}`);
/** The optional line after those: a fork's origin, the match and the version it starts from. */
const FORKED = re(`Forked from: ${STRING} at (0|[1-9][0-9]*)`);
/** The optional line after those: a rematch's origin, the finished match it follows. */
const REMATCH_OF = re(`Rematch of: ${STRING}`);

/** The MatchCreated of the header, and how many lines it took. */
function parseHeader(lines: Line[], p: Parser): { created: Data<'MatchCreated'>; length: number } {
  const m = HEADER.map((h, i) => {
    const line = lines[i];
    if (!line) return p.fail((lines.at(-1)?.number ?? 0) + 1, `expected "${h.expected}", found the end of the text`);
    const match = h.pattern.exec(line.text);
    if (!match) return p.fail(line, `expected "${h.expected}", found "${clip(line.text)}"`);
    return match;
  });
  const choice = <K extends 'scoring' | 'contractChoice' | 'leadBeforeDiscard' | 'fourthRound'>(key: K, value: string): MatchOptions[K] => {
    if (!(OPTION_VALUES[key] as readonly string[]).includes(value)) p.fail(lines[4], `option ${key} is one of ${OPTION_VALUES[key].join(', ')}, not ${value}`);
    return value as MatchOptions[K];
  };
  const flag = (key: string, value: string): boolean => {
    if (value !== 'true' && value !== 'false') p.fail(lines[4], `option ${key} is true or false, not ${value}`);
    return value === 'true';
  };
  const o = m[4];
  const options: MatchOptions = {
    schedule: m[3][1] as MatchOptions['schedule'],
    scoring: choice('scoring', o[1]),
    contractChoice: choice('contractChoice', o[2]),
    spadesInFreeTrump: flag('spadesInFreeTrump', o[3]),
    mustTrump: flag('mustTrump', o[4]),
    leadBeforeDiscard: choice('leadBeforeDiscard', o[5]),
    fourthRound: choice('fourthRound', o[6]),
  };
  const player = (s: string): string | null => (s === '-' ? null : (JSON.parse(s) as string));
  const created: Data<'MatchCreated'> = {
    matchId: JSON.parse(m[1][1]) as string,
    players: [player(m[2][1]), player(m[2][2]), player(m[2][3])],
    options,
    firstDealer: seatOf(m[5][1]),
    seeded: m[6][1] === 'seeded',
  };
  let next = HEADER.length;
  if (lines[next]?.text.startsWith('Clock:')) {
    const line = lines[next++];
    const clock = CLOCK.exec(line.text) ?? p.fail(line, `expected "Clock: seconds s, standIn", found "${clip(line.text)}"`);
    options.clock = { turnSeconds: Number(clock[1]), onTimeout: 'standIn' };
  }
  if (lines[next]?.text.startsWith('Bots:')) {
    const line = lines[next++];
    const bots = BOTS.exec(line.text) ?? p.fail(line, `expected "Bots: "strategy" | - (three times, - for a person)", found "${clip(line.text)}"`);
    created.bots = [player(bots[1]), player(bots[2]), player(bots[3])];
  }
  if (lines[next]?.text.startsWith('Accounts:')) {
    const line = lines[next++];
    const accounts = ACCOUNTS.exec(line.text) ?? p.fail(line, `expected "Accounts: "player id" | - (three times, - for no account)", found "${clip(line.text)}"`);
    created.accounts = [player(accounts[1]), player(accounts[2]), player(accounts[3])];
  }
  if (lines[next]?.text.startsWith('Forked')) {
    const line = lines[next++];
    const forked = FORKED.exec(line.text) ?? p.fail(line, `expected "Forked from: "match id" at version", found "${clip(line.text)}"`);
    created.forkedFrom = { matchId: JSON.parse(forked[1]) as string, version: Number(forked[2]) };
  }
  if (lines[next]?.text.startsWith('Rematch of')) {
    const line = lines[next++];
    const of = REMATCH_OF.exec(line.text) ?? p.fail(line, `expected "Rematch of: "match id"", found "${clip(line.text)}"`);
    created.rematchOf = JSON.parse(of[1]) as string;
  }
  return { created, length: next };
}
