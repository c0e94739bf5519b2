// How a bot chooses among the actions its view says are legal. Pure: the seat's view in, one action out;
// used by the CLI (apps/cli) and by the service's bot seats.
import { SUITS, type Contract, type SeatView, type Suit, beats as cardBeats } from '@bismarck/rules';
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

/** What to send: one request body per route of the api. */
export type BotAction =
  | { route: 'deal' }
  | { route: 'cut'; body: { cut: string } }
  | { route: 'contract'; body: { contract: Contract; trump?: Suit } }
  | { route: 'discard'; body: { cards: string[] } }
  | { route: 'play'; body: { card: string } };

const RANKS = '23456789TJQKA';
const rank = (card: string): number => RANKS.indexOf(card[0]);
const suit = (card: string): Suit => card[1] as Suit;
const byRank = (a: string, b: string): number => rank(a) - rank(b);
const lowest = (cards: string[]): string => cards.slice().sort(byRank)[0];
const highest = (cards: string[]): string => cards.slice().sort(byRank).at(-1)!;

export function chooseAction(view: BotView, strategy: StrategyName, context: BotContext = {}): BotAction | null {
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
    if (choice?.kind === 'play') return { route: 'play', body: { card: choice.card } };
    if (choice?.kind === 'discard') return { route: 'discard', body: { cards: choice.cards } };
    if (choice?.kind === 'contract') return { route: 'contract', body: choice.trump ? { contract: choice.contract, trump: choice.trump } : { contract: choice.contract } };
  }
  switch (legal.action) {
    case 'deal':
      return { route: 'deal' };
    case 'cut':
      return { route: 'cut', body: { cut: `bot-${Math.floor(random() * 1e12).toString(36)}` } };
    case 'chooseContract': {
      const contract = strategy !== 'random' ? greedyContract(view, legal.contracts, legal.trumps) : { contract: pick(legal.contracts), trump: pick(legal.trumps) };
      return { route: 'contract', body: contract.contract === 'trump' ? contract : { contract: contract.contract } };
    }
    case 'discard': {
      if (strategy === 'random') return { route: 'discard', body: { cards: view.hand.slice().sort(() => random() - 0.5).slice(0, legal.count) } };
      return { route: 'discard', body: { cards: greedyDiscard(view, legal.count) } };
    }
    case 'play':
      return { route: 'play', body: { card: strategy !== 'random' ? greedyPlay(view, legal.cards) : pick(legal.cards) } };
  }
}

/** The cards forehand knows when choosing: his hand (informed) and the table cards he will take. */
function greedyContract(view: BotView, contracts: Contract[], trumps: Suit[]): { contract: Contract; trump?: Suit } {
  const known = [...view.hand, ...view.tableCards];
  const high = known.filter((c) => rank(c) >= rank('Q')).length / Math.max(known.length, 1);
  const low = known.filter((c) => rank(c) <= rank('7')).length / Math.max(known.length, 1);
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

/** The card now winning the trick (highest trump, else highest of the suit led). */
function winning(trick: { card: string }[], trump: string | null): string | null {
  if (trick.length === 0) return null;
  let best = trick[0].card;
  for (const { card } of trick.slice(1)) if (beats(card, best, trump)) best = card;
  return best;
}
/** libs/rules' `beats` on card codes. */
const beats = (card: string, best: string, trump: string | null): boolean =>
  cardBeats(SUITS.indexOf(suit(card)), rank(card), SUITS.indexOf(suit(best)), rank(best), trump === null ? -1 : SUITS.indexOf(trump as Suit));

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
    const aces = legal.filter((c) => rank(c) === rank('A') && suit(c) !== trump);
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
