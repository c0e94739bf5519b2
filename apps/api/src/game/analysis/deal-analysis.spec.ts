import { mulberry32, playRandomMatch, shuffleDeck, SUITS, trickWinner, type BismarckEvent, type Card, type PlayedCard, type Seat } from '@bismarck/rules';
import { solve, SolverBudgetExceeded } from '@bismarck/solver';
import { analyseDeal, dealContent, dealToAnalyse, type DealToAnalyse } from './deal-analysis';

const matchEvents = (seed: number, options: object = { schedule: 'quick' }, leadBeforeDiscard = 0): BismarckEvent[] =>
  playRandomMatch(options, 0, { random: mulberry32(seed), deck: (n) => shuffleDeck(`analysis-${seed}`, n), leadBeforeDiscard }).events;

/** The position before card `k` of a deal, straight from its plays: hands, trick, turn, tricks taken. */
function positionBefore(d: DealToAnalyse, k: number) {
  const trump = d.trump === null ? -1 : SUITS.indexOf(d.trump);
  const hands: [Card[], Card[], Card[]] = [[], [], []];
  for (const p of d.plays.slice(k)) hands[p.seat].push(p.card);
  const taken = [0, 0, 0];
  const done = k - (k % 3);
  for (let i = 0; i < done; i += 3) taken[trickWinner(d.plays.slice(i, i + 3), trump)]++;
  const trick: PlayedCard[] = d.plays.slice(done, k).map(({ seat, card }) => ({ seat, card }));
  return { hands, trick, taken, turn: d.plays[k].seat };
}

describe('dealToAnalyse', () => {
  it('gives the 48 cards of a scored deal in order, with its contract and result, and null for a deal not scored', () => {
    const events = matchEvents(1);
    const d = dealToAnalyse(events, 2)!;
    const scored = events.find((e) => e.type === 'DealScored' && e.data.deal === 2) as Extract<BismarckEvent, { type: 'DealScored' }>;
    const played = events.filter((e) => e.type === 'CardPlayed' && e.data.deal === 2) as Extract<BismarckEvent, { type: 'CardPlayed' }>[];
    expect(d.plays).toEqual(played.map((e) => ({ trick: e.data.trick, seat: e.data.seat, card: e.data.card })));
    expect(d).toMatchObject({ deal: 2, contract: scored.data.contract, trump: scored.data.trump, forehand: scored.data.forehand, tricks: scored.data.tricks, voidedAttempts: 0 });
    expect(dealToAnalyse(events, 4)).toBeNull();
    expect(dealToAnalyse(events.slice(0, events.findIndex((e) => e.type === 'DealScored')), 1)).toBeNull();
  });

  it('analyses the attempt that was played when earlier attempts were voided (redeal)', () => {
    let found = false;
    for (let seed = 1; seed < 40 && !found; seed++) {
      const events = matchEvents(seed, { schedule: 'quick', leadBeforeDiscard: 'redeal' }, 0.5);
      const voided = events.find((e) => e.type === 'DealVoided') as Extract<BismarckEvent, { type: 'DealVoided' }> | undefined;
      if (!voided) continue;
      found = true;
      const d = dealToAnalyse(events, voided.data.deal)!;
      expect(d.voidedAttempts).toBeGreaterThanOrEqual(1);
      expect(d.plays).toHaveLength(48);
    }
    expect(found).toBe(true);
  });
});

describe('dealContent: the key an analysis is kept by', () => {
  it('is the same for the same deal in another match (a fork replays it), whatever order its fields were set in', () => {
    const d = dealToAnalyse(matchEvents(1), 2)!;
    const again = dealToAnalyse(matchEvents(1), 2)!;
    const reordered = Object.fromEntries(Object.entries(d).reverse()) as unknown as DealToAnalyse;
    expect(dealContent(again)).toBe(dealContent(d));
    expect(dealContent(reordered)).toBe(dealContent(d));
    expect(dealContent(d)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('differs when anything the analysis reads differs: another deal, a card played in another order, another rule', () => {
    const d = dealToAnalyse(matchEvents(1), 2)!;
    const plays = d.plays.slice();
    [plays[46], plays[47]] = [plays[47], plays[46]];
    const keys = [
      d,
      dealToAnalyse(matchEvents(1), 1)!,
      dealToAnalyse(matchEvents(2), 2)!,
      { ...d, plays },
      { ...d, mustTrump: !d.mustTrump },
      { ...d, scoring: d.scoring === 'zeroSum' ? 'overOnly' : 'zeroSum' },
      { ...d, voidedAttempts: d.voidedAttempts + 1 },
    ].map((x) => dealContent(x as DealToAnalyse));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('analyseDeal', () => {
  const events = matchEvents(7);
  // 200 000 nodes: the first tricks go over the budget, the rest is solved in well under a second.
  const d = dealToAnalyse(events, 1)!;
  const analysis = analyseDeal(d, 200_000);

  it('values every card: after never better than before in the seat\'s aim, the cost their difference', () => {
    expect(analysis.cards).toHaveLength(48);
    for (const c of analysis.cards) {
      if (c.overBudget) continue;
      expect(c.cost).toBe(analysis.goal === 'most' ? c.before! - c.after! : c.after! - c.before!);
      expect(c.cost).toBeGreaterThanOrEqual(0);
    }
    expect(analysis.cards.slice(-3).map((c) => c.cost)).toEqual([0, 0, 0]);
    // Over the whole deal, a seat ends with what it took.
    for (const c of analysis.cards.slice(-3)) expect(c.after).toBe(d.tricks[c.seat]);
  });

  it('gives the values a direct solve gives, in the last six tricks', () => {
    for (let k = 30; k < 48; k++) {
      const { hands, trick, taken, turn } = positionBefore(d, k);
      const solved = solve({ hands, contract: d.contract, trump: d.trump, trick, turn, perspective: turn, mustTrump: d.mustTrump });
      const c = analysis.cards[k];
      expect({ k, before: c.before }).toEqual({ k, before: taken[turn] + solved.tricks });
      expect({ k, after: c.after }).toEqual({ k, after: taken[turn] + solved.cards.find((x) => x.card === d.plays[k].card)!.tricks });
    }
  });

  it('marks what the budget stopped, with null values, and the par from the first lead', () => {
    const tiny = analyseDeal(d, 1_000);
    expect(tiny.overBudget).toBe(true);
    const stopped = tiny.cards.filter((c) => c.overBudget);
    expect(stopped.length).toBeGreaterThan(0);
    for (const c of stopped) expect(c.before === null || c.after === null).toBe(true);
    // A seat's positions before its first one over the budget are not tried: all of them are null.
    for (const seat of [0, 1, 2]) {
      const mine = tiny.cards.filter((c) => c.seat === seat);
      const lastStopped = mine.map((c) => c.overBudget).lastIndexOf(true);
      expect(mine.slice(0, lastStopped + 1).every((c) => c.overBudget)).toBe(true);
    }
    expect(stopped.every((c) => c.cost === null)).toBe(true);
    // Solved late positions agree whatever the budget.
    expect(tiny.cards.slice(-3)).toEqual(analysis.cards.slice(-3));
    const leader = d.plays[0].seat as Seat;
    expect(analysis.par.tricks[leader]).toBe(analysis.cards[0].before);
  });

  it('gives as par each seat\'s own solve from the first lead, scored by the deal\'s quotas, or null past the budget', () => {
    const { hands, turn } = positionBefore(d, 0);
    ([0, 1, 2] as Seat[]).forEach((s) => {
      let tricks: number | null;
      try {
        tricks = solve({ hands, contract: d.contract, trump: d.trump, trick: [], turn, perspective: s, mustTrump: d.mustTrump }, { cards: false, maxNodes: 200_000 }).tricks;
      } catch (error) {
        if (!(error instanceof SolverBudgetExceeded)) throw error;
        tricks = null;
      }
      // Null also when a later position of the seat went over the budget (the earlier ones are not tried).
      const par = analysis.par.tricks[s];
      if (tricks === null || par !== null) expect({ s, par }).toEqual({ s, par: tricks });
      const q = analysis.quotas[s];
      const raw = par === null ? null : d.contract === 'pass' ? q - par : par - q;
      expect({ s, points: analysis.par.points[s] }).toEqual({ s, points: raw === null ? null : d.scoring === 'overOnly' ? Math.max(0, raw) : raw });
    });
  });
});
