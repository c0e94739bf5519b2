import { isCardCode, OPTION_VALUES, type BismarckEvent, type Card, type Contract, type PlayedCard, type Seat, type Suit } from '@bismarck/rules';
import { contractText, HIDDEN, next, NotationError, NOTATION_MAGIC, OPTION_KEYS, text, word, type Data } from './format';

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
