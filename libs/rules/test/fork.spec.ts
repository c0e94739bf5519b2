// Forking a finished match at any position (fork.ts): the fork rests exactly where the original
// rested after version N, is seeded, copies no fairness event, and plays on to the end.
import fc from 'fast-check';
import {
  cutterOf,
  decide,
  evolve,
  fold,
  forkableVersions,
  initialState,
  mulberry32,
  notForkable,
  publicView,
  RuleViolation,
  seatView,
  sha256Hex,
  shuffleDeck,
  SHUFFLE_ALGORITHM,
  type BismarckEvent,
  type Command,
  type DealerFacts,
  type MatchOptions,
  type MatchState,
  type Seat,
  type Triple,
} from '../src';
import { randomCommand } from '../src/simulate';

const RUNS = Number(process.env.FORK_PROPERTY_RUNS ?? 60);

interface Plan {
  seed: number;
  options: Partial<MatchOptions>;
  /** Provably fair: commitments before each deal, reveals after it (as the service's dealer). */
  fair: boolean;
  /** Seats 1 and 2 join a lobby table (fair only: a seeded match takes no strangers). */
  lobby: boolean;
  bots?: Triple<string | null>;
  /** Chance that the cutter cuts before a deal; chance of a lead before the lay-away (a void under redeal). */
  cut: number;
  earlyLead: number;
}

interface Played {
  events: BismarckEvent[];
  /** The log's length after each decision. */
  ends: number[];
  /** The length after the decision that started the match (every seat taken). */
  start: number;
}

/** A whole match by the rules' own decide and evolve, with random legal moves and the dealer's facts. */
function play(plan: Plan, upTo?: (state: MatchState) => boolean): Played {
  const random = mulberry32(plan.seed);
  const events: BismarckEvent[] = [];
  const ends: number[] = [];
  let state: MatchState = initialState();
  const seeds: { deal: number; commitment: string; seed: string }[] = [];
  const nextSeed = () => `${plan.seed}-${seeds.length}`;
  const facts = (): DealerFacts | undefined => (plan.fair ? { commitment: sha256Hex(nextSeed()), seeds } : undefined);
  const apply = (command: Command): void => {
    for (const e of decide({ ...command, dealer: facts() } as Command, state)) {
      if (e.type === 'DeckCommitted') seeds.push({ deal: e.data.deal, commitment: e.data.commitment, seed: nextSeed() });
      state = evolve(state, e);
      events.push(e);
    }
    ends.push(events.length);
  };
  const lobby = plan.fair && plan.lobby;
  apply({
    type: 'createMatch',
    matchId: `original-${plan.seed}`,
    players: lobby ? ['Ann', null, null] : ['Ann', 'Bob', 'Cyd'],
    options: plan.options,
    firstDealer: (plan.seed % 3) as Seat,
    seeded: !plan.fair,
    ...(plan.bots && !lobby ? { bots: plan.bots } : {}),
  });
  if (lobby) {
    apply({ type: 'joinSeat', seat: 2, name: 'Cyd', ...(plan.bots?.[2] ? { bot: plan.bots[2] } : {}) });
    apply({ type: 'joinSeat', seat: 1, name: 'Bob', ...(plan.bots?.[1] ? { bot: plan.bots[1] } : {}) });
  }
  const start = events.length;
  let deals = 0;
  for (let steps = 0; steps < 5000 && !upTo?.(state); steps++) {
    if (state.status === 'awaitingDeal' && state.cut === null && random() < plan.cut) {
      apply({ type: 'cut', seat: cutterOf(state.dealer), cut: `c${Math.floor(random() * 1e6)}` });
      continue;
    }
    const command = randomCommand(state, { random, deck: (n) => shuffleDeck(`deck-${plan.seed}`, n), leadBeforeDiscard: plan.earlyLead }, deals);
    if (command === null) break;
    if (command.type === 'deal') {
      deals++;
      const shuffle = plan.fair
        ? { algorithm: SHUFFLE_ALGORITHM, index: events.length + 1, seeded: false, commitment: state.status === 'awaitingDeal' ? state.commitment : null, cut: null }
        : { algorithm: SHUFFLE_ALGORITHM, index: events.length + 1, seeded: true, cut: null };
      apply({ ...command, shuffle });
    } else apply(command);
  }
  return { events, ends, start };
}

const common = {
  contractChoice: fc.constantFrom<MatchOptions['contractChoice']>('blind', 'informed'),
  leadBeforeDiscard: fc.constantFrom<MatchOptions['leadBeforeDiscard']>('reject', 'redeal'),
  mustTrump: fc.boolean(),
};
const options: fc.Arbitrary<Partial<MatchOptions>> = fc.oneof(
  fc.record({ schedule: fc.constantFrom<MatchOptions['schedule']>('quick', 'modern'), ...common }),
  fc.record({ schedule: fc.constant('traditional' as const), ...common, fourthRound: fc.constantFrom<MatchOptions['fourthRound']>('none', 'freeTrump', 'freeTrumpBlind') }),
);
const plans: fc.Arbitrary<Plan> = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  options,
  fair: fc.boolean(),
  lobby: fc.boolean(),
  bots: fc.constantFrom<Plan['bots']>(undefined, [null, 'greedy', 'random'], [null, null, 'strong']),
  cut: fc.constantFrom(0, 0.5, 1),
  earlyLead: fc.constantFrom(0, 0.3),
});

const fork = (events: BismarckEvent[], version: number, matchId = 'the-fork'): BismarckEvent[] =>
  decide({ type: 'forkMatch', matchId, from: { matchId: 'the-original', version, events } }, initialState());

/** A state with what differs between a fork and its original by design left out: ids, the seeded flag, commitments. */
const comparable = (state: MatchState): unknown => {
  const { matchId: _id, seeded: _seeded, forkedFrom: _from, ...rest } = state as MatchState & { matchId?: string; seeded?: boolean; forkedFrom?: unknown };
  return 'commitment' in rest ? { ...rest, commitment: null } : rest;
};
const comparableView = (view: ReturnType<typeof publicView>): unknown => ({ ...view, seeded: null, forkedFrom: null, fairness: { ...view.fairness, commitment: null } });

const thrown = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (error) {
    if (error instanceof RuleViolation) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('nothing thrown');
};

describe('forkableVersions', () => {
  it('are 0, then the end of every decision from the one that started the match (all seats taken) to the head', () => {
    fc.assert(
      fc.property(plans, (plan) => {
        const { events, ends, start } = play(plan);
        const positions = forkableVersions(events);
        expect(positions).toEqual([0, ...ends.filter((end) => end >= start)]);
        // As docs/clients.md tells a client to find them: from the start on, before an event that starts a move, and the head.
        const starts = ['DeckCut', 'DealStarted', 'ContractChosen', 'CardsLaidAway', 'CardPlayed', 'DealVoided'];
        const byType = events.map((_, n) => n).filter((n) => n >= start && starts.includes(events[n].type));
        expect(positions).toEqual([0, ...byType, events.length]);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('forkMatch', () => {
  it('rests exactly where the original rested at a random forkable version: state, public view and every seat view', () => {
    fc.assert(
      fc.property(plans, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (plan, at) => {
        const { events, start } = play(plan);
        const positions = forkableVersions(events);
        const version = positions[Math.floor(at * positions.length)];
        const forked = fork(events, version);
        const original = fold(events.slice(0, version === 0 ? start : version));
        const head = fold(forked);
        expect(comparable(head)).toEqual(comparable(original));
        expect(comparableView(publicView(head))).toEqual(comparableView(publicView(original)));
        for (const seat of [0, 1, 2] as Seat[]) {
          const { seeded: _a, fairness: _b, forkedFrom, ...own } = seatView(head, seat);
          const { seeded: _c, fairness: _d, forkedFrom: none, ...theirs } = seatView(original, seat);
          expect(own).toEqual(theirs);
          expect([forkedFrom, none]).toEqual([{ matchId: 'the-original', version }, null]);
        }
        // Its own creation: seeded, where it comes from, every seat as filled, no lobby and no fairness event.
        expect(forked[0]).toEqual({
          type: 'MatchCreated',
          data: expect.objectContaining({ matchId: 'the-fork', players: ['Ann', 'Bob', 'Cyd'], seeded: true, forkedFrom: { matchId: 'the-original', version } }),
        });
        expect(forked.filter((e) => ['SeatJoined', 'DeckCommitted', 'SeedRevealed', 'MatchCreated'].includes(e.type))).toHaveLength(1);
        expect(head.status !== 'empty' && head.seeded).toBe(true);
        expect(publicView(head).forkedFrom).toEqual({ matchId: 'the-original', version });
        // Each copied deck says where it comes from; the original's versions hold that very deck.
        for (const e of forked) {
          if (e.type !== 'DealStarted') continue;
          const from = (e.data.shuffle as { copiedFrom: { matchId: string; version: number } }).copiedFrom;
          expect(from.matchId).toBe('the-original');
          expect(events[from.version - 1]).toMatchObject({ type: 'DealStarted', data: { deal: e.data.deal, deck: e.data.deck } });
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('plays on to the end from any forkable version', () => {
    fc.assert(
      fc.property(plans, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (plan, at) => {
        const { events } = play(plan);
        const positions = forkableVersions(events);
        let state = fold(fork(events, positions[Math.floor(at * positions.length)]));
        const random = mulberry32(plan.seed + 1);
        for (let deals = 0, steps = 0; steps < 5000; steps++) {
          const command = randomCommand(state, { random, deck: (n) => shuffleDeck(`fork-${plan.seed}`, n), leadBeforeDiscard: 0.1 }, deals);
          if (command === null) break;
          if (command.type === 'deal') deals++;
          state = decide(command, state).reduce(evolve, state);
        }
        expect(state.status).toBe('finished');
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('refuses a version inside a move or inside the lobby (VERSION_NOT_FORKABLE), naming the forkable versions around it', () => {
    fc.assert(
      fc.property(plans, fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 4 }), (plan, ats) => {
        const { events } = play(plan);
        const positions = forkableVersions(events);
        const inside = Array.from({ length: events.length + 1 }, (_, v) => v).filter((v) => !positions.includes(v));
        for (const version of ats.map((at) => inside[Math.floor(at * inside.length)])) {
          const { before, after, message } = notForkable(version, positions);
          expect(before).toBeLessThan(version);
          expect(after).toBeGreaterThan(version);
          expect(positions.filter((v) => v > before && v < after)).toEqual([]);
          expect(thrown(() => fork(events, version))).toEqual({ code: 'VERSION_NOT_FORKABLE', message });
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('says why: inside a move, or before the match started', () => {
    const { events } = play({ seed: 7, options: { schedule: 'quick' }, fair: true, lobby: true, cut: 0, earlyLead: 0 });
    // MatchCreated (open seats), SeatJoined, SeatJoined + DeckCommitted.
    expect(forkableVersions(events).slice(0, 2)).toEqual([0, 4]);
    expect(thrown(() => fork(events, 2)).message).toBe('version 2 is before the match started (its seats were being taken): fork at 0 or 4');
    const trick = events.findIndex((e) => e.type === 'TrickTaken'); // the third card is the event before
    expect(thrown(() => fork(events, trick)).message).toBe(`version ${trick} is inside a move (the events of one move are appended together): fork at ${trick - 1} or ${trick + 1}`);
  });

  it('refuses a match in play (MATCH_NOT_FINISHED), a version out of range (VALIDATION_FAILED), an existing match (MATCH_EXISTS)', () => {
    const plan: Plan = { seed: 3, options: { schedule: 'quick' }, fair: true, lobby: false, cut: 0.5, earlyLead: 0 };
    const inPlay = play(plan, (s) => s.status === 'trickPlay').events;
    expect(thrown(() => fork(inPlay, 2)).code).toBe('MATCH_NOT_FINISHED');
    const { events } = play(plan);
    expect(thrown(() => fork(events, events.length + 1)).code).toBe('VALIDATION_FAILED');
    expect(thrown(() => fork(events, -1)).code).toBe('VALIDATION_FAILED');
    expect(thrown(() => fork(events, 1.5)).code).toBe('VALIDATION_FAILED');
    expect(thrown(() => decide({ type: 'forkMatch', matchId: 'f', from: { matchId: 'o', version: 0, events } }, fold(events))).code).toBe('MATCH_EXISTS');
    expect(thrown(() => decide({ type: 'forkMatch', matchId: '', from: { matchId: 'o', version: 0, events } }, initialState())).code).toBe('VALIDATION_FAILED');
  });

  it("takes no dealer's facts: a fork commits to nothing and reveals nothing", () => {
    const { events } = play({ seed: 13, options: { schedule: 'quick' }, fair: true, lobby: false, cut: 0, earlyLead: 0 });
    const seeds = events.filter((e) => e.type === 'SeedRevealed').map((e) => e.data as { deal: number; commitment: string; seed: string });
    const dealer: DealerFacts = { commitment: sha256Hex('next'), seeds };
    const forked = decide({ type: 'forkMatch', matchId: 'f', from: { matchId: 'the-original', version: events.length, events }, dealer }, initialState());
    expect(forked).toEqual(fork(events, events.length, 'f'));
  });

  it('at 0 and at the start is the match as it started; at the head, the finished match', () => {
    const { events, start } = play({ seed: 11, options: { schedule: 'quick' }, fair: true, lobby: false, cut: 1, earlyLead: 0 });
    expect(start).toBe(2); // MatchCreated, DeckCommitted
    expect(fork(events, 0).map((e) => e.type)).toEqual(['MatchCreated']);
    expect(fork(events, 2).slice(1)).toEqual([]);
    const whole = fork(events, events.length);
    expect(fold(whole).status).toBe('finished');
    expect(whole.at(-1)!.type).toBe('MatchFinished');
    // Its cuts are copied (they are moves), its commitments and reveals are not.
    expect(whole.filter((e) => e.type === 'DeckCut')).toEqual(events.filter((e) => e.type === 'DeckCut'));
    expect(whole).toHaveLength(events.filter((e) => e.type !== 'DeckCommitted' && e.type !== 'SeedRevealed').length);
  });

  it('refuses a log that does not replay with an Error, not a refusal of the caller', () => {
    const { events } = play({ seed: 5, options: { schedule: 'quick' }, fair: false, lobby: false, cut: 0, earlyLead: 0 });
    const played = events.findIndex((e) => e.type === 'CardPlayed');
    const broken = events.map((e, i) => (i === played ? ({ ...e, data: { ...e.data, card: e.data && (e.data as { card: string }).card === '2C' ? '3C' : '2C' } } as BismarckEvent) : e));
    expect(() => fork(broken, 0)).toThrow(/does not replay/);
  });
});

describe('createMatch with forkedFrom', () => {
  const create = (extra: object): Command => ({ type: 'createMatch', matchId: 'f', players: ['A', 'B', 'C'], firstDealer: 0, seeded: true, ...extra }) as Command;

  it('records it last in MatchCreated, only for a fork', () => {
    const [created] = decide(create({ forkedFrom: { matchId: 'o', version: 12 } }), initialState());
    expect(Object.keys(created.data)).toEqual(['matchId', 'players', 'options', 'firstDealer', 'seeded', 'forkedFrom']);
    expect(Object.keys(decide(create({}), initialState())[0].data)).not.toContain('forkedFrom');
  });

  it.each([
    ['a fork that is not seeded', { seeded: false, forkedFrom: { matchId: 'o', version: 1 } }],
    ['no match named', { forkedFrom: { matchId: '', version: 1 } }],
    ['a negative version', { forkedFrom: { matchId: 'o', version: -1 } }],
    ['no object', { forkedFrom: 'o' }],
  ])('refuses %s (VALIDATION_FAILED)', (_name, extra) => {
    expect(thrown(() => decide(create(extra), initialState())).code).toBe('VALIDATION_FAILED');
  });
});
