// How a bot chooses among the actions its view says are legal. Pure: the seat's view in, one action out;
// used by the CLI (apps/cli) and by the service's bot seats.
import * as rules from '@bismarck/rules';
import type { Contract, SeatMove, SeatView, Suit } from '@bismarck/rules';
import type { DealHistory } from './history';
import { STRONG_DEFAULTS, strongChoice } from './strong';

/**
 * The part of a seat's view the strategies read: libs/rules' `SeatView` and a client's generated
 * `SeatView` both fit it (loose types: a client's triples are `number[]`, its options a DTO).
 * `random` and `greedy` read only the first six fields; `strong` reads them all.
 */
export type BotView = Pick<SeatView, 'legal' | 'hand' | 'tableCards' | 'contract' | 'trump' | 'trick'> & {
  readonly seat: number;
  readonly handSizes: readonly number[];
  readonly forehand: number | null;
  readonly dealNumber: number;
  /** Forehand's own lay-away during trick play (its own cards), else null. */
  readonly laidAway: readonly string[] | null;
  readonly options: {
    readonly mustTrump: boolean;
    readonly schedule: string;
    readonly scoring: string;
    readonly contractChoice: string;
  };
};

/** Every strategy a seat may be given (the service validates `{"bot": …}` against this list). */
export const STRATEGIES = ['random', 'greedy', 'strong'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** What a strategy may use beyond the view: all of it public or the seat's own. */
export interface BotContext {
  /** Uniform in [0, 1); Math.random by default. */
  readonly random?: () => number;
  /**
   * The deal in progress as the seat saw it (dealHistory over the events it may see). `strong` needs
   * it to count the cards played and the voids shown; without it, it knows only the trick in progress.
   */
  readonly history?: DealHistory;
  /**
   * `strong` only: the time it may spend on one decision, in milliseconds (default 200). It stops
   * drawing deals once this is spent; below it the choice depends only on `random`.
   */
  readonly budgetMs?: number;
  /** `strong` only: the deals drawn per decision when the budget allows (default 128). */
  readonly samples?: number;
}

// Read once: a call through the import looks the function up on every call in the package's exports.
const { RANKS, SUITS, beatsCard, parseCard, rankOf, suitOf, winningPlay } = rules;

/** A card's rank (0..12 = 2..A) and suit, by the rules' card numbers. */
const rank = (card: string): number => rankOf(parseCard(card));
const suit = (card: string): Suit => SUITS[suitOf(parseCard(card))];
const [SEVEN, QUEEN, ACE] = [RANKS.indexOf('7'), RANKS.indexOf('Q'), RANKS.indexOf('A')];
const byRank = (a: string, b: string): number => rank(a) - rank(b);
const lowest = (cards: string[]): string => cards.slice().sort(byRank)[0];
const highest = (cards: string[]): string => cards.slice().sort(byRank).at(-1)!;

/** The seat's move: the rules' seat command (`SeatMove`); an HTTP client sends it with `requestOf` (http.ts). */
export function chooseAction(view: BotView, strategy: StrategyName, context: BotContext = {}): SeatMove | null {
  const random = context.random ?? Math.random;
  const legal = view.legal;
  if (!legal) return null;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  if (strategy === 'strong' && (legal.action === 'play' || legal.action === 'discard' || legal.action === 'chooseContract')) {
    const choice = strongChoice(view, {
      ...STRONG_DEFAULTS,
      random,
      history: context.history,
      ...(context.budgetMs !== undefined ? { budgetMs: context.budgetMs } : {}),
      ...(context.samples !== undefined ? { samples: context.samples } : {}),
    });
    if (choice?.kind === 'play') return { type: 'playCard', card: choice.card };
    if (choice?.kind === 'discard') return { type: 'discard', cards: choice.cards };
    if (choice?.kind === 'contract') return { type: 'chooseContract', contract: choice.contract, trump: choice.trump ?? null };
  }
  switch (legal.action) {
    case 'deal':
      return { type: 'deal' };
    case 'cut':
      return { type: 'cut', cut: `bot-${Math.floor(random() * 1e12).toString(36)}` };
    case 'chooseContract': {
      const contract = strategy !== 'random' ? greedyContract(view, legal.contracts, legal.trumps) : { contract: pick(legal.contracts), trump: pick(legal.trumps) };
      return { type: 'chooseContract', contract: contract.contract, trump: contract.contract === 'trump' ? (contract.trump ?? null) : null };
    }
    case 'discard': {
      if (strategy === 'random') return { type: 'discard', cards: view.hand.slice().sort(() => random() - 0.5).slice(0, legal.count) };
      return { type: 'discard', cards: greedyDiscard(view, legal.count) };
    }
    case 'play':
      return { type: 'playCard', card: strategy !== 'random' ? greedyPlay(view, legal.cards) : pick(legal.cards) };
    default:
      return exhaustive(legal);
  }
}

/** The cards forehand knows when choosing: his hand (informed) and the table cards he will take. */
function greedyContract(view: BotView, contracts: Contract[], trumps: Suit[]): { contract: Contract; trump?: Suit } {
  const known = [...view.hand, ...view.tableCards];
  const high = known.filter((c) => rank(c) >= QUEEN).length / Math.max(known.length, 1);
  const low = known.filter((c) => rank(c) <= SEVEN).length / Math.max(known.length, 1);
  const strength = (s: Suit) => known.filter((c) => suit(c) === s).reduce((sum, c) => sum + 1 + rank(c) / 12, 0) / Math.max(known.length, 1);
  const bestTrump = trumps.slice().sort((a, b) => strength(b) - strength(a))[0];
  // Priors from how the contracts usually go, nudged by the cards in sight.
  const score: Record<Contract, number> = {
    trump: 1.0 + (bestTrump ? strength(bestTrump) : 0),
    spades: 0.7 + strength('S'),
    notrump: 0.6 + high,
    pass: 0.5 + low,
  };
  const contract = contracts.slice().sort((a, b) => score[b] - score[a])[0];
  return contract === 'trump' ? { contract, trump: bestTrump ?? trumps[0] } : { contract };
}

/** Take-tricks: keep trumps and high cards, void a short side suit. Pass: shed the dangerous high cards. */
function greedyDiscard(view: BotView, count: number): string[] {
  if (view.contract === 'pass') return view.hand.slice().sort(byRank).slice(-count);
  const trump = view.trump;
  const length = (s: Suit) => view.hand.filter((c) => suit(c) === s).length;
  const keepValue = (c: string) => (suit(c) === trump ? 100 : 0) + rank(c) * 2 + length(suit(c));
  return view.hand.slice().sort((a, b) => keepValue(a) - keepValue(b)).slice(0, count);
}

const trumpId = (trump: string | null): number => (trump === null ? -1 : SUITS.indexOf(trump as Suit));
/** The card now winning the trick (libs/rules' `winningPlay`), or null for none yet. */
const winning = (trick: readonly { seat: number; card: string }[], trump: string | null): string | null =>
  trick.length === 0 ? null : trick[winningPlay(trick as readonly rules.PlayedCard[], trumpId(trump))].card;
/** libs/rules' `beatsCard` on card codes. */
const beats = (card: string, best: string, trump: string | null): boolean => beatsCard(parseCard(card), parseCard(best), trumpId(trump));

const exhaustive = (value: never): never => {
  throw new Error(`unknown legal action ${JSON.stringify(value)}`);
};

function greedyPlay(view: BotView, legal: string[]): string {
  const trump = view.contract === 'pass' || view.contract === 'notrump' ? null : view.trump;
  const best = winning(view.trick, trump);
  const last = view.trick.length === 2;
  if (view.contract === 'pass') {
    if (best === null) return lowest(legal);
    const losers = legal.filter((c) => !beats(c, best, trump));
    // Duck under the winner with the highest card that still loses; void in the suit: shed the highest card.
    if (losers.length > 0) return highest(losers);
    return last ? highest(legal) : lowest(legal);
  }
  if (best === null) {
    const aces = legal.filter((c) => rank(c) === ACE && suit(c) !== trump);
    if (aces.length > 0) return aces[0];
    const trumps = legal.filter((c) => suit(c) === trump);
    if (trumps.length >= 4) return highest(trumps);
    return lowest(legal.filter((c) => suit(c) !== trump).length > 0 ? legal.filter((c) => suit(c) !== trump) : legal);
  }
  const winners = legal.filter((c) => beats(c, best, trump));
  if (winners.length === 0) return lowest(legal.filter((c) => suit(c) !== trump).length > 0 ? legal.filter((c) => suit(c) !== trump) : legal);
  // Last to play: the cheapest card that wins. Otherwise win as surely as possible.
  return last ? lowest(winners) : highest(winners);
}
