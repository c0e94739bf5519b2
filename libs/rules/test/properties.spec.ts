// Property-based tests: random legal play of whole matches over every schedule and option.
import fc from 'fast-check';
import {
  type BismarckEvent,
  type Command,
  type MatchOptions,
  type MatchState,
  type RuleErrorCode,
  type Seat,
  type Viewer,
  RuleViolation,
  changesScorecard,
  decide,
  dealOf,
  evolve,
  fold,
  isCardCode,
  isDealRevealed,
  nothingSecret,
  publicView,
  redactEvent,
  scorecard,
  seatView,
  shuffleDeck,
  visibleEvents,
} from '../src';
import { type CardSet, cardCode, size, suitMask, suitOf, toCodes, toIds, union, parseCard, fromCards, EMPTY } from '../src/cards';
import { mulberry32, playRandomMatch } from '../src/simulate';

const RUNS = Number(process.env.RULES_PROPERTY_RUNS ?? 30);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const common = {
  scoring: maybe(fc.constantFrom<MatchOptions['scoring']>('zeroSum', 'overOnly')),
  contractChoice: maybe(fc.constantFrom<MatchOptions['contractChoice']>('blind', 'informed')),
  spadesInFreeTrump: maybe(fc.boolean()),
  mustTrump: maybe(fc.boolean()),
  leadBeforeDiscard: maybe(fc.constantFrom<MatchOptions['leadBeforeDiscard']>('reject', 'redeal')),
};
const optionsArb: fc.Arbitrary<Partial<MatchOptions>> = fc.oneof(
  fc.record({ schedule: fc.constant('modern' as const), ...common }),
  fc.record({ schedule: fc.constant('quick' as const), ...common }),
  fc.record({
    schedule: fc.constant('traditional' as const),
    ...common,
    fourthRound: maybe(fc.constantFrom<MatchOptions['fourthRound']>('none', 'freeTrump', 'freeTrumpBlind')),
  }),
);

const matchArb = fc.record({
  options: optionsArb,
  firstDealer: fc.constantFrom<Seat>(0, 1, 2),
  seed: fc.string({ maxLength: 12 }),
  rng: fc.integer(),
  leadBeforeDiscard: fc.constantFrom(0, 0.15),
});
type MatchCase = typeof matchArb extends fc.Arbitrary<infer T> ? T : never;

const play = (m: MatchCase, onStep?: Parameters<typeof playRandomMatch>[3]) =>
  playRandomMatch(m.options, m.firstDealer, { random: mulberry32(m.rng), deck: (n) => shuffleDeck(m.seed, n + 1), leadBeforeDiscard: m.leadBeforeDiscard }, onStep);

const deepFreeze = <T>(o: T): T => {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
};

const setOf = (codes: readonly string[]): CardSet => fromCards(codes.map(parseCard));

/** Every card is in exactly one place: hands, laid away, played, the trick, the table or the undealt deck. */
const accountedFor = (state: MatchState): void => {
  switch (state.status) {
    case 'awaitingContract':
    case 'layingAway': {
      if (state.hands === null) {
        expect(new Set(state.deck).size).toBe(52);
        expect(state.tableCards).toEqual(state.deck.slice(0, 4));
        return;
      }
      const all = state.hands.reduce(union, state.status === 'awaitingContract' ? setOf(state.tableCards.map(cardCode)) : EMPTY);
      expect(size(all)).toBe(52);
      expect(state.hands.map(size).reduce((a, b) => a + b) + (state.status === 'awaitingContract' ? 4 : 0)).toBe(52);
      return;
    }
    case 'trickPlay': {
      const parts = [...state.hands, state.laidAway, state.played, setOf(state.trick.map((p) => p.card))];
      expect(size(parts.reduce(union, EMPTY))).toBe(52);
      expect(parts.map(size).reduce((a, b) => a + b)).toBe(52);
      expect(size(state.laidAway)).toBe(4);
      expect(size(state.played)).toBe(3 * (state.trickNumber - 1));
      return;
    }
    default:
      return;
  }
};

describe('random legal play of whole matches (every schedule and option)', () => {
  it('keeps all 52 cards accounted for, the trick winner leads next, and every deal has 16 tricks', () => {
    fc.assert(
      fc.property(matchArb, (m) => {
        const { events, state } = play(m, (_before, _command, produced, after) => {
          deepFreeze(after); // evolve must never mutate: the next evolve would throw on a frozen state
          accountedFor(after);
          const taken = produced.find((e) => e.type === 'TrickTaken');
          if (taken && after.status === 'trickPlay') expect(after.turn).toBe(taken.data.winner);
        });
        expect(state.status).toBe('finished');
        if (state.status !== 'finished') return;
        let tricks = 0;
        let dealNumber = 0;
        for (const e of events) {
          if (e.type === 'DealStarted') {
            tricks = 0;
            dealNumber = e.data.deal;
            expect(e.data.dealer).toBe((m.firstDealer + dealNumber - 1) % 3);
            expect(e.data.forehand).toBe((e.data.dealer + 1) % 3);
          }
          if (e.type === 'TrickTaken') tricks++;
          if (e.type === 'DealScored') {
            expect(e.data.deal).toBe(dealNumber);
            expect(tricks).toBe(16);
            expect(e.data.tricks.reduce((a, b) => a + b)).toBe(16);
            expect(e.data.quotas.reduce((a, b) => a + b)).toBe(16);
            if (state.options.scoring === 'zeroSum') expect(e.data.points.reduce((a, b) => a + b)).toBe(0);
            else expect(Math.min(...e.data.points)).toBeGreaterThanOrEqual(0);
          }
        }
        const scored = events.filter((e) => e.type === 'DealScored');
        expect(scored.map((e) => e.data.deal)).toEqual(Array.from({ length: state.dealsInMatch }, (_, i) => i + 1));
      }),
      { numRuns: RUNS },
    );
  });

  it('under modern, each seat is forehand 4 times and plays each contract exactly once', () => {
    fc.assert(
      fc.property(matchArb.map((m) => ({ ...m, options: { ...m.options, schedule: 'modern' as const, fourthRound: undefined } })), (m) => {
        const { events, state } = play(m);
        const scored = events.flatMap((e) => (e.type === 'DealScored' ? [e.data] : []));
        for (const seat of [0, 1, 2]) {
          const mine = scored.filter((d) => d.forehand === seat).map((d) => d.contract).sort();
          expect(mine).toEqual(['notrump', 'pass', 'spades', 'trump']);
        }
        expect(Object.keys(publicView(state).contractsPlayed[0]).sort()).toEqual(['notrump', 'pass', 'spades', 'trump']);
      }),
      { numRuns: RUNS },
    );
  });

  it('folding the events again gives the same state (evolve is replay-safe)', () => {
    fc.assert(
      fc.property(matchArb, fc.integer({ min: 0, max: 2000 }), (m, cut) => {
        const { events, state } = play(m);
        expect(fold(events)).toEqual(state);
        const prefix = events.slice(0, Math.min(cut, events.length));
        expect(fold(prefix)).toEqual(prefix.reduce(evolve, fold([])));
      }),
      { numRuns: RUNS },
    );
  });

  it('an event that changesScorecard() calls harmless leaves the scorecard as it was (projections skip it)', () => {
    fc.assert(
      fc.property(matchArb, (m) => {
        const { events } = play(m);
        let state = fold([]);
        let skipped = 0;
        for (const e of events) {
          const next = evolve(state, e);
          if (!changesScorecard(e)) {
            expect(scorecard(next)).toEqual(scorecard(state));
            skipped++;
          }
          state = next;
        }
        expect(skipped).toBeGreaterThan(events.length / 2);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- refused commands ------------------------------------------------------------------------------

/** Illegal commands for this state, each with the code it must be refused with. */
const illegalCommands = (state: MatchState): [Command, RuleErrorCode][] => {
  const out: [Command, RuleErrorCode][] = [];
  const other = (s: Seat) => ((s + 1) % 3) as Seat;
  switch (state.status) {
    case 'awaitingDeal':
      out.push([{ type: 'deal', seat: other(state.dealer), deck: shuffleDeck('x', 1) }, 'NOT_YOUR_TURN']);
      out.push([{ type: 'deal', seat: state.dealer, deck: shuffleDeck('x', 1).slice(1) }, 'VALIDATION_FAILED']);
      out.push([{ type: 'playCard', seat: state.forehand, card: 'AS' }, 'WRONG_PHASE']);
      out.push([{ type: 'discard', seat: state.forehand, cards: ['2S', '3S', '4S', '5S'] }, 'WRONG_PHASE']);
      break;
    case 'awaitingContract':
      out.push([{ type: 'chooseContract', seat: other(state.forehand), contract: 'pass' }, 'NOT_YOUR_TURN']);
      out.push([{ type: 'discard', seat: state.forehand, cards: ['2S', '3S', '4S', '5S'] }, 'WRONG_PHASE']);
      out.push([{ type: 'playCard', seat: state.forehand, card: 'AS' }, 'WRONG_PHASE']);
      out.push([{ type: 'chooseContract', seat: state.forehand, contract: 'trump' }, 'VALIDATION_FAILED']);
      break;
    case 'layingAway': {
      out.push([{ type: 'discard', seat: other(state.forehand), cards: ['2S', '3S', '4S', '5S'] }, 'NOT_YOUR_TURN']);
      out.push([{ type: 'deal', seat: state.dealer, deck: shuffleDeck('x', 1) }, 'WRONG_PHASE']);
      if (state.hands) {
        const mine = toCodes(state.hands[state.forehand]);
        const notMine = toCodes(state.hands[other(state.forehand)])[0];
        out.push([{ type: 'discard', seat: state.forehand, cards: [...mine.slice(0, 3), notMine] }, 'CARD_NOT_IN_HAND']);
        out.push([{ type: 'discard', seat: state.forehand, cards: mine.slice(0, 3) }, 'VALIDATION_FAILED']);
        if (state.options.leadBeforeDiscard === 'reject')
          out.push([{ type: 'playCard', seat: state.forehand, card: mine[0] }, 'DISCARD_FIRST']);
      }
      break;
    }
    case 'trickPlay': {
      const seat = state.turn;
      out.push([{ type: 'playCard', seat: other(seat), card: toCodes(state.hands[other(seat)])[0] ?? 'AS' }, 'NOT_YOUR_TURN']);
      out.push([{ type: 'chooseContract', seat: state.forehand, contract: 'pass' }, 'WRONG_PHASE']);
      const notMine = toCodes(state.hands[other(seat)])[0];
      if (notMine) out.push([{ type: 'playCard', seat, card: notMine }, 'CARD_NOT_IN_HAND']);
      if (state.trick.length > 0) {
        const led = suitOf(parseCard(state.trick[0].card));
        const hand = state.hands[seat];
        const offSuit = toIds(hand).find((c) => suitOf(c) !== led);
        if (suitMask(hand, led) !== 0 && offSuit !== undefined) out.push([{ type: 'playCard', seat, card: cardCode(offSuit) }, 'MUST_FOLLOW_SUIT']);
      }
      break;
    }
    case 'finished':
      out.push([{ type: 'playCard', seat: 0, card: 'AS' }, 'WRONG_PHASE']);
      break;
    default:
      break;
  }
  return out;
};

describe('refused commands', () => {
  it('a random illegal command is refused with the right code, yields no events and leaves the state alone', () => {
    fc.assert(
      fc.property(matchArb, (m) => {
        let checked = 0;
        play(m, (_before, _command, _produced, after) => {
          deepFreeze(after);
          const before = JSON.stringify(after);
          for (const [command, code] of illegalCommands(after)) {
            let events: BismarckEvent[] | undefined;
            let error: unknown;
            try {
              events = decide(command, after);
            } catch (e) {
              error = e;
            }
            expect(events).toBeUndefined();
            expect(error).toBeInstanceOf(RuleViolation);
            expect({ command, code: (error as RuleViolation).code }).toEqual({ command, code });
            checked++;
          }
          expect(JSON.stringify(after)).toBe(before);
        });
        expect(checked).toBeGreaterThan(100);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

// ---- visibility ------------------------------------------------------------------------------------

/** Every card code anywhere in a JSON value. */
const cardCodesIn = (value: unknown, out = new Set<string>()): Set<string> => {
  if (typeof value === 'string') {
    if (isCardCode(value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) cardCodesIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) cardCodesIn(v, out);
  return out;
};

/** What `viewer` may know right now of the deal in progress (the state's own truth, not a view). */
const mayKnow = (state: MatchState, viewer: Viewer, table: readonly string[]): Set<string> => {
  const known = new Set<string>();
  const add = (codes: Iterable<string>) => {
    for (const c of codes) known.add(c);
  };
  switch (state.status) {
    case 'awaitingDeal':
    case 'finished':
      add((state.previous?.lastTrick?.cards ?? []).map((p) => p.card));
      break;
    case 'awaitingContract':
    case 'layingAway':
      add(table);
      if (viewer !== 'spectator' && state.hands) add(toCodes(state.hands[viewer]));
      break;
    case 'trickPlay':
      add(table);
      add(toCodes(state.played));
      add(state.trick.map((p) => p.card));
      add((state.lastTrick?.cards ?? []).map((p) => p.card));
      if (viewer !== 'spectator') add(toCodes(state.hands[viewer]));
      if (viewer === state.forehand) add(toCodes(state.laidAway));
      break;
    default:
      break;
  }
  return known;
};

const VIEWERS: Viewer[] = [0, 1, 2, 'spectator'];
const expectSubset = (shown: Set<string>, known: Set<string>, what: string) => {
  const leaked = [...shown].filter((c) => !known.has(c));
  expect({ what, leaked }).toEqual({ what, leaked: [] });
};

describe('visibility', () => {
  it('no view and no redacted event ever contains a card its viewer may not see at that moment', () => {
    fc.assert(
      fc.property(matchArb, (m) => {
        let table: string[] = [];
        let deal = 0;
        // everything each viewer has legitimately seen of the current deal number (voided attempts included)
        let seen = new Map<Viewer, Set<string>>();
        const log: BismarckEvent[] = [];
        let step = 0;
        play(m, (before, _command, produced, after) => {
          for (const e of produced) {
            log.push(e);
            if (e.type === 'DealStarted') {
              table = e.data.tableCards;
              if (e.data.deal !== deal) seen = new Map();
              deal = e.data.deal;
            }
          }
          for (const viewer of VIEWERS) {
            const now = mayKnow(after, viewer, table);
            const all = seen.get(viewer) ?? new Set<string>();
            for (const c of mayKnow(before, viewer, table)) all.add(c);
            for (const c of now) all.add(c);
            for (const e of produced) if (e.type === 'DealVoided') all.add(e.data.card); // a lead is public
            seen.set(viewer, all);
            const view = viewer === 'spectator' ? publicView(after) : seatView(after, viewer);
            expectSubset(cardCodesIn(view), now, `view of ${viewer} in ${after.status}`);
            for (const e of produced) {
              const d = dealOf(e);
              if (d === null || isDealRevealed(after, d)) continue;
              expectSubset(cardCodesIn(redactEvent(e, viewer, false)), all, `${e.type} for ${viewer}`);
            }
            if (step % 97 === 0)
              for (const e of visibleEvents(log, viewer)) {
                const d = dealOf(e);
                if (d === deal && !isDealRevealed(after, d)) expectSubset(cardCodesIn(e), all, `logged ${e.type} for ${viewer}`);
              }
          }
          step++;
        });
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('the deck order of the deal in progress is hidden from everyone, the hands from the other seats', () => {
    fc.assert(
      fc.property(matchArb, fc.integer({ min: 0, max: 700 }), (m, cut) => {
        const { events } = play(m);
        const prefix = events.slice(0, cut);
        const state = fold(prefix);
        for (const viewer of VIEWERS)
          for (const e of visibleEvents(prefix, viewer)) {
            const d = dealOf(e);
            if (d === null || isDealRevealed(state, d)) continue;
            if (e.type === 'DealStarted') expect(e.data.deck).toBeNull();
            if (e.type === 'HandsDealt') e.data.hands.forEach((h, s) => expect(h === null).toBe(s !== viewer));
            if (e.type === 'CardsLaidAway') expect(e.data.cards === null).toBe(viewer !== e.data.seat);
          }
      }),
      { numRuns: RUNS },
    );
  });

  it('nothingSecret holds exactly where no event so far is redacted for anyone (only there may a chain hash be shown)', () => {
    // Voided deals included: forehand sometimes leads before laying away, and the deal is redealt.
    const withVoids = matchArb.map((m) => ({ ...m, options: { ...m.options, leadBeforeDiscard: 'redeal' as const }, leadBeforeDiscard: 0.15 as const }));
    let voided = 0;
    fc.assert(
      fc.property(withVoids, (m) => {
        const { events } = play(m);
        let state = fold([]);
        events.forEach((event, i) => {
          state = evolve(state, event);
          if (event.type === 'DealVoided') voided++;
          const prefix = events.slice(0, i + 1);
          const allShown = VIEWERS.every((viewer) => JSON.stringify(visibleEvents(prefix, viewer)) === JSON.stringify(prefix));
          expect(nothingSecret(state)).toBe(allShown);
        });
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    expect(voided).toBeGreaterThan(0);
  });

  it('the dealer commits to the next deck exactly when a decision leaves the match waiting for a deal without one', () => {
    const withVoids = matchArb.map((m) => ({ ...m, options: { ...m.options, leadBeforeDiscard: 'redeal' as const }, leadBeforeDiscard: 0.15 as const }));
    let commits = 0;
    fc.assert(
      fc.property(withVoids, (m) => {
        play(m, (before, command, events, after) => {
          // The simulated match is seeded (it commits nothing): ask the same of an unseeded copy.
          const unseeded = (state: MatchState): MatchState => (state.status === 'empty' ? state : ({ ...state, seeded: false } as MatchState));
          const asked = command.type === 'createMatch' ? { ...command, seeded: false } : command;
          const waits = after.status === 'awaitingDeal' && after.commitment === null;
          const decided = decide({ ...asked, dealer: { commitment: 'next' } }, unseeded(before));
          events = events.map((e) => (e.type === 'MatchCreated' ? { ...e, data: { ...e.data, seeded: false } } : e));
          expect(decided.slice(0, events.length)).toEqual(events);
          expect(decided.slice(events.length)).toEqual(waits && after.status === 'awaitingDeal' ? [{ type: 'DeckCommitted', data: { deal: after.upcomingDeal, commitment: 'next' } }] : []);
          if (waits) commits++;
        });
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    expect(commits).toBeGreaterThan(0);
  });
});

