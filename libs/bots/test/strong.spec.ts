import {
  type BismarckEvent,
  type Card,
  type MatchOptions,
  type Seat,
  type SeatMove,
  type SeatView,
  type Triple,
  fold,
  legalActions,
  mulberry32,
  seatView,
  visibleEvents,
} from '@bismarck/rules';
import { solve } from '@bismarck/solver';
import { type DealHistory, type StrategyName, STRATEGIES, chooseAction, dealHistory, knowledgeOf, sampleHands } from '../src';
import { type LocalMatch, newLocalMatch, shuffledDeck, step } from '../src/local';

const codesOf = (hands: Int32Array, seat: number): Card[] => {
  const out: Card[] = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) if (hands[seat * 4 + s] & (1 << r)) out.push('23456789TJQKA'[r] + 'SHDC'[s]);
  return out;
};

/** Plays a whole match; `onDecision` sees every seat's view and history before it decides. */
const playMatch = (
  options: Partial<MatchOptions>,
  strategies: Triple<StrategyName>,
  seed: number,
  onDecision?: (seat: Seat, view: SeatView, history: DealHistory, match: LocalMatch) => void,
  onAction?: (view: SeatView, action: SeatMove) => void,
): LocalMatch => {
  const random = mulberry32(seed);
  const match = newLocalMatch(options, (seed % 3) as Seat);
  let last: SeatView | null = null;
  const seats = {
    strategies,
    random: [mulberry32(seed + 1), mulberry32(seed + 2), mulberry32(seed + 3)] as Triple<() => number>,
    samples: 4,
    budgetMs: Infinity,
    onDecision: (seat: Seat, view: SeatView, history: DealHistory, m: LocalMatch) => {
      last = view;
      onDecision?.(seat, view, history, m);
    },
    onStrongDecision: (_ms: number, action: SeatMove) => onAction?.(last!, action),
  };
  while (step(match, seats, () => shuffledDeck(random)));
  return match;
};

const VARIANTS: [string, Partial<MatchOptions>][] = [
  ['modern, blind contract', {}],
  ['modern, informed contract', { contractChoice: 'informed' }],
  ['modern, mustTrump, no spades as free trump', { mustTrump: true, spadesInFreeTrump: false }],
  ['modern, overOnly, redeal', { scoring: 'overOnly', leadBeforeDiscard: 'redeal' }],
  ['traditional', { schedule: 'traditional' }],
  ['traditional, fourth round of free trump', { schedule: 'traditional', fourthRound: 'freeTrump' }],
  ['traditional, fourth round of blind free trump, mustTrump', { schedule: 'traditional', fourthRound: 'freeTrumpBlind', mustTrump: true }],
  ['quick, zeroSum', { schedule: 'quick', scoring: 'zeroSum' }],
];

describe('the strong bot', () => {
  it('is one of the strategies a seat may be given', () => {
    expect(STRATEGIES).toContain('strong');
  });

  describe.each(VARIANTS)('over a whole random match (%s)', (_name, options) => {
    it('only ever chooses legal actions and finishes the match', () => {
      let checked = 0;
      const match = playMatch(options, ['strong', 'random', 'strong'], 11, undefined, (view, action) => {
        const legal = view.legal!;
        checked++;
        switch (action.type) {
          case 'playCard':
            expect(legal.action).toBe('play');
            expect(legal.action === 'play' && legal.cards).toContain(action.card);
            break;
          case 'discard':
            expect(legal.action).toBe('discard');
            expect(new Set(action.cards).size).toBe(4);
            for (const card of action.cards) expect(view.hand).toContain(card);
            break;
          case 'chooseContract':
            expect(legal.action).toBe('chooseContract');
            if (legal.action === 'chooseContract') {
              expect(legal.contracts).toContain(action.contract);
              if (action.contract === 'trump') expect(legal.trumps).toContain(action.trump);
              else expect(action.trump).toBeNull();
            }
            break;
          default:
            expect(['deal', 'cut']).toContain(action.type);
        }
      });
      expect(match.state.status).toBe('finished');
      expect(checked).toBeGreaterThan(50);
    });
  });
});

/** The true hands now, and the voids each seat has shown, read from the whole (secret) log. */
const truth = (match: LocalMatch) => {
  const state = match.state;
  if (state.status !== 'trickPlay') throw new Error('not in trick play');
  return state;
};

describe('the deals it draws', () => {
  it('fit everything the seat saw: its hand, hand sizes, cards played, its lay-away, the voids shown, the table cards', () => {
    let samples = 0;
    for (const [i, [, options]] of [VARIANTS[0], VARIANTS[2]].entries()) {
      playMatch(options, ['greedy', 'random', 'greedy'], 100 + i, (seat, view, history, match) => {
        if (view.legal?.action !== 'play') return;
        const state = truth(match);
        const knowledge = knowledgeOf(view, history);
        const played = new Set(history.plays.map((p) => p.card));
        const laidAway = new Set(view.laidAway ?? []);
        const trump = view.contract === 'pass' || view.contract === 'notrump' ? null : view.trump;
        // The voids, recomputed here from the plays: a card off the suit led.
        const voids: Set<string>[] = [new Set(), new Set(), new Set()];
        history.plays.forEach((p, k) => {
          const lead = history.plays[k - (k % 3)];
          if (p.card[1] !== lead.card[1]) {
            voids[p.seat].add(lead.card[1]);
            if (options.mustTrump && trump && p.card[1] !== trump) voids[p.seat].add(trump);
          }
        });
        // The real deal is one of those the seat may imagine.
        const real = knowledge.unknown.every((c, k) => {
          const holder = [0, 1, 2].find((s) => legalHolds(state.hands[s], c));
          return (knowledge.allowed[k] & (1 << (holder ?? 3))) !== 0;
        });
        expect(real).toBe(true);
        for (let n = 0; n < 2; n++) {
          const hands = sampleHands(knowledge, mulberry32(samples++));
          expect(codesOf(hands, seat).sort()).toEqual(view.hand.slice().sort());
          for (let s = 0; s < 3; s++) {
            const cards = codesOf(hands, s);
            expect(cards).toHaveLength(view.handSizes[s]);
            for (const card of cards) {
              if (s !== seat) expect(view.hand).not.toContain(card);
              expect(played.has(card)).toBe(false);
              expect(laidAway.has(card)).toBe(false);
              expect(voids[s].has(card[1])).toBe(false);
              if (s !== view.forehand && s !== seat) expect(history.tableCards).not.toContain(card);
            }
          }
        }
      });
    }
    expect(samples).toBeGreaterThan(400);
  });
});

const legalHolds = (set: { lo: number; hi: number }, c: number): boolean => {
  const bit = 1 << (((c / 13) & 1) * 16 + (c % 13));
  return ((c >= 26 ? set.hi : set.lo) & bit) !== 0;
};

describe('what it may read', () => {
  /** The log with two unplayed cards of the seats other than `me` exchanged in HandsDealt. */
  const withHiddenCardsSwapped = (events: BismarckEvent[], me: Seat, played: Set<string>): BismarckEvent[] | null => {
    const dealt = events.findLastIndex((e) => e.type === 'HandsDealt');
    const event = events[dealt];
    if (event?.type !== 'HandsDealt') return null;
    const [a, b] = ([0, 1, 2] as Seat[]).filter((s) => s !== me);
    const laidAway = events.findLast((e) => e.type === 'CardsLaidAway');
    const gone = new Set([...played, ...(laidAway?.type === 'CardsLaidAway' ? (laidAway.data.cards ?? []) : [])]);
    const ha = event.data.hands[a]!.filter((c) => !gone.has(c));
    const hb = event.data.hands[b]!.filter((c) => !gone.has(c));
    const x = ha.find((c) => hb.some((d) => d[1] === c[1]));
    const y = hb.find((d) => x && d[1] === x[1]);
    if (!x || !y) return null;
    const hands = event.data.hands.map((h, s) => (s === a ? h!.map((c) => (c === x ? y : c)) : s === b ? h!.map((c) => (c === y ? x : c)) : h)) as Triple<Card[] | null>;
    return events.map((e, k) => (k === dealt ? { type: 'HandsDealt', data: { ...event.data, hands } } : e));
  };

  it("decides the same whatever the other seats' hidden cards are", () => {
    let compared = 0;
    playMatch({}, ['greedy', 'greedy', 'greedy'], 21, (seat, view, history, match) => {
      if (view.legal?.action !== 'play' || compared >= 30 || match.state.status !== 'trickPlay') return;
      const other = withHiddenCardsSwapped(match.events, seat, new Set(history.plays.map((p) => p.card)));
      if (!other) return;
      const otherState = fold(other);
      const otherView = seatView(otherState, seat);
      const otherHistory = dealHistory(visibleEvents(other.slice(match.dealStart), seat));
      // What the seat may see is the same; what it may not see differs.
      expect(otherView).toEqual(view);
      expect(otherHistory).toEqual(history);
      expect(otherState).not.toEqual(match.state);
      const decide = (v: SeatView, h: DealHistory) => chooseAction(v, 'strong', { random: mulberry32(5), history: h, budgetMs: Infinity, samples: 6 });
      expect(decide(otherView, otherHistory)).toEqual(decide(view, history));
      compared++;
    });
    expect(compared).toBe(30);
  });

  it('without a history (knowing only the trick in progress) still chooses legal cards', () => {
    let checked = 0;
    playMatch({ mustTrump: true }, ['greedy', 'greedy', 'greedy'], 41, (_seat, view) => {
      if (view.legal?.action !== 'play' || checked >= 60) return;
      const action = chooseAction(view, 'strong', { random: mulberry32(checked), budgetMs: Infinity, samples: 4 });
      expect(action?.type === 'playCard' && view.legal.cards.includes(action.card)).toBe(true);
      checked++;
    });
    expect(checked).toBe(60);
  });

  it('is deterministic given its random source (and a budget it does not reach)', () => {
    let compared = 0;
    playMatch({ contractChoice: 'informed' }, ['greedy', 'greedy', 'greedy'], 31, (seat, view, history, match) => {
      if (!view.legal || view.legal.action === 'deal' || view.legal.action === 'cut' || compared >= 40 || legalActions(match.state, seat) === null) return;
      const decide = () => chooseAction(view, 'strong', { random: mulberry32(compared), history, budgetMs: Infinity, samples: 8 });
      expect(decide()).toEqual(decide());
      compared++;
    });
    expect(compared).toBe(40);
  });
});

describe('in an ending', () => {
  /**
   * Endings of 2 tricks, found by playing greedy deals down: every way the unseen cards may lie is
   * enumerated; where one card is best in all of them (and not every card is), strong plays such a card.
   */
  it('plays a card that is best in every deal the seat may imagine', () => {
    let found = 0;
    for (let seed = 1; seed < 400 && found < 12; seed++) {
      playMatch({ schedule: 'quick' }, ['greedy', 'greedy', 'greedy'], 1000 + seed, (seat, view, history, match) => {
        if (view.legal?.action !== 'play' || view.hand.length !== 2 || view.legal.cards.length < 2 || match.state.status !== 'trickPlay') return;
        const knowledge = knowledgeOf(view, history);
        const worlds = allocations(knowledge.unknown.length, knowledge.allowed, [...knowledge.capacity]);
        if (worlds.length === 0 || worlds.length > 400) return;
        const best = new Set(view.legal.cards);
        let differs = false;
        for (const holders of worlds) {
          const hands: Card[][] = [[], [], []];
          hands[seat] = view.hand.slice();
          holders.forEach((h, k) => h < 3 && hands[h].push(codesOfCard(knowledge.unknown[k])));
          const { cards, tricks } = solve({
            hands: hands as [Card[], Card[], Card[]],
            contract: view.contract!,
            trump: view.contract === 'pass' || view.contract === 'notrump' ? null : view.trump,
            trick: view.trick,
            turn: seat,
            perspective: seat,
          });
          for (const c of cards) if (c.tricks !== tricks) best.delete(c.card);
          if (cards.some((c) => c.tricks !== tricks)) differs = true;
        }
        if (best.size === 0 || !differs) return;
        const action = chooseAction(view, 'strong', { random: mulberry32(seed), history, budgetMs: Infinity, samples: 64 });
        expect(action?.type).toBe('playCard');
        expect([...best]).toContain(action?.type === 'playCard' && action.card);
        found++;
      });
    }
    expect(found).toBeGreaterThanOrEqual(12);
  });
});

const codesOfCard = (c: number): Card => '23456789TJQKA'[c % 13] + 'SHDC'[(c / 13) | 0];

/** Every way to give each unseen card a holder it may have, filling each holder's room exactly. */
const allocations = (n: number, allowed: readonly number[], room: number[]): number[][] => {
  const out: number[][] = [];
  const current: number[] = [];
  const go = (k: number) => {
    if (out.length > 400) return;
    if (k === n) {
      if (room.every((r) => r === 0)) out.push(current.slice());
      return;
    }
    for (let h = 0; h < 4; h++) {
      if (!(allowed[k] & (1 << h)) || room[h] === 0) continue;
      room[h]--;
      current.push(h);
      go(k + 1);
      current.pop();
      room[h]++;
    }
  };
  go(0);
  return out;
};

