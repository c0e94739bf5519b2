// How a bot chooses among the actions its view says are legal. Pure: the seat's view in, one action out;
// used by the CLI (apps/cli) and by the service's bot seats.
import type { SeatView } from '@bismarck/rules';

/** The part of a seat's view the simple strategies read (a client's generated `SeatView` fits it too). */
export type BotView = Pick<SeatView, 'legal' | 'hand' | 'tableCards' | 'contract' | 'trump' | 'trick'>;

import type { DealHistory } from './history';

/** Every strategy a seat may be given (the service validates `{"bot": …}` against this list). */
export const STRATEGIES = ['random', 'greedy'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** What a strategy may use beyond the view: all of it public or the seat's own. */
export interface BotContext {
  /** Uniform in [0, 1); Math.random by default. */
  readonly random?: () => number;
  /** The deal in progress as the seat saw it (dealHistory over the events it may see). */
  readonly history?: DealHistory;
}
type Contract = 'spades' | 'trump' | 'notrump' | 'pass';
type Suit = 'S' | 'H' | 'D' | 'C';

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
  switch (legal.action) {
    case 'deal':
      return { route: 'deal' };
    case 'cut':
      return { route: 'cut', body: { cut: `bot-${Math.floor(random() * 1e12).toString(36)}` } };
    case 'chooseContract': {
      const contract = strategy === 'greedy' ? greedyContract(view, legal.contracts, legal.trumps) : { contract: pick(legal.contracts), trump: pick(legal.trumps) };
      return { route: 'contract', body: contract.contract === 'trump' ? contract : { contract: contract.contract } };
    }
    case 'discard': {
      if (strategy === 'random') return { route: 'discard', body: { cards: view.hand.slice().sort(() => random() - 0.5).slice(0, legal.count) } };
      return { route: 'discard', body: { cards: greedyDiscard(view, legal.count) } };
    }
    case 'play':
      return { route: 'play', body: { card: strategy === 'greedy' ? greedyPlay(view, legal.cards) : pick(legal.cards) } };
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
const beats = (card: string, best: string, trump: string | null): boolean =>
  suit(card) === suit(best) ? rank(card) > rank(best) : suit(card) === trump;

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
