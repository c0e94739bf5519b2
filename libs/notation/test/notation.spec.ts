// The notation gives back exactly the events it was written from (docs/notation.md): whole matches
// and logs cut short after any decision, as every caller may see them; and a text that is not a
// notation is refused with its line and what was expected there.
import fc from 'fast-check';
import {
  decide,
  evolve,
  fold,
  forkableVersions,
  initialState,
  mulberry32,
  randomCommand,
  shuffleDeck,
  visibleEvents,
  type BismarckEvent,
  type MatchOptions,
  type Triple,
  type Viewer,
} from '@bismarck/rules';
import { fromNotation, NotationError, toNotation } from '../src';
import { playMatch, type MatchPlan } from './matches';

const RUNS = Number(process.env.NOTATION_PROPERTY_RUNS ?? 40);
const VIEWERS: Viewer[] = ['spectator', 0, 1, 2];

/** Exact: the same events, the same fields, in the same order (keys included). */
function expectRoundTrip(events: BismarckEvent[]): string {
  const text = toNotation(events);
  const back = fromNotation(text);
  expect(back).toStrictEqual(events);
  expect(JSON.stringify(back)).toBe(JSON.stringify(events));
  return text;
}

const name = fc.oneof(
  fc.constantFrom('Astrid', 'Bjørn', 'Cecilia', ' "quoted" \\ # -', '??', '-', 'line\u2028break', 'tab\there', '😀 emoji'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const common = {
  scoring: maybe(fc.constantFrom<MatchOptions['scoring']>('zeroSum', 'overOnly')),
  contractChoice: maybe(fc.constantFrom<MatchOptions['contractChoice']>('blind', 'informed')),
  spadesInFreeTrump: maybe(fc.boolean()),
  mustTrump: maybe(fc.boolean()),
  leadBeforeDiscard: maybe(fc.constantFrom<MatchOptions['leadBeforeDiscard']>('reject', 'redeal')),
};
const options: fc.Arbitrary<Partial<MatchOptions>> = fc.oneof(
  fc.record({ schedule: fc.constant('modern' as const), ...common }, { requiredKeys: ['schedule'] }),
  fc.record({ schedule: fc.constant('quick' as const), ...common }, { requiredKeys: ['schedule'] }),
  fc.record(
    { schedule: fc.constant('traditional' as const), ...common, fourthRound: maybe(fc.constantFrom<MatchOptions['fourthRound']>('none', 'freeTrump', 'freeTrumpBlind')) },
    { requiredKeys: ['schedule'] },
  ),
);
const plan: fc.Arbitrary<MatchPlan> = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  options,
  names: fc.tuple(name, name, name) as fc.Arbitrary<Triple<string>>,
  fair: fc.boolean(),
  lobby: fc.boolean(),
  abandon: fc.boolean().map((b) => b && Math.random() < 0.3),
  cut: fc.constantFrom(0, 0.5, 1),
  earlyLead: fc.constantFrom(0, 0.2),
  shuffleRecord: fc.boolean(),
  bots: fc.constantFrom<MatchPlan['bots']>(undefined, [null, 'greedy', 'strong'], [null, null, 'random'], [null, 'strong', null]),
});

describe('JSON → text → JSON is exact', () => {
  it('for random whole matches of every schedule and variant, as every caller may see them', () => {
    fc.assert(
      fc.property(plan, (p) => {
        const { events } = playMatch(p);
        for (const viewer of VIEWERS) expectRoundTrip(visibleEvents(events, viewer));
      }),
      { numRuns: RUNS },
    );
  });

  it('for a match cut short after any decision (in progress), as every caller may see it', () => {
    fc.assert(
      fc.property(plan, fc.double({ min: 0, max: 1, noNaN: true }), (p, at) => {
        const { events, ends } = playMatch(p);
        const end = ends[Math.min(ends.length - 1, Math.floor(at * ends.length))];
        for (const viewer of VIEWERS) expectRoundTrip(visibleEvents(events.slice(0, end), viewer));
      }),
      { numRuns: RUNS },
    );
  });

  const base: Omit<MatchPlan, 'options'> = { seed: 7, names: ['Astrid', 'Bjørn', 'Cecilia'], fair: true, lobby: true, abandon: false, cut: 0.5, earlyLead: 0.2, shuffleRecord: true };
  it.each<[string, Partial<MatchOptions>]>([
    ['modern, blind', { schedule: 'modern' }],
    ['modern, informed, mustTrump, no spades as free trump', { schedule: 'modern', contractChoice: 'informed', mustTrump: true, spadesInFreeTrump: false }],
    ['modern, redeal on an early lead', { schedule: 'modern', leadBeforeDiscard: 'redeal' }],
    ['traditional', { schedule: 'traditional' }],
    ['traditional, fourth round freeTrump, zeroSum', { schedule: 'traditional', fourthRound: 'freeTrump', scoring: 'zeroSum' }],
    ['traditional, fourth round freeTrumpBlind, redeal', { schedule: 'traditional', fourthRound: 'freeTrumpBlind', leadBeforeDiscard: 'redeal' }],
    ['quick', { schedule: 'quick' }],
    ['quick, redeal, overOnly', { schedule: 'quick', leadBeforeDiscard: 'redeal', scoring: 'overOnly' }],
  ])('for a whole %s match, provably fair and seeded', (_name, o) => {
    for (const fair of [true, false]) {
      const { events } = playMatch({ ...base, fair, options: o });
      expect(events.at(-1)?.type).toBe('MatchFinished');
      for (const viewer of VIEWERS) expectRoundTrip(visibleEvents(events, viewer));
    }
  });

  it('covers voids, cuts, commitments, reveals, joins and an abandoned table', () => {
    const types = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const { events } = playMatch({ seed, options: { schedule: 'quick', leadBeforeDiscard: 'redeal' }, names: ['a', 'b', 'c'], fair: true, lobby: true, abandon: seed === 0, cut: 0.5, earlyLead: 0.3, shuffleRecord: true });
      for (const e of events) types.add(e.type);
      expectRoundTrip(events);
    }
    expect([...types].sort()).toEqual(
      // every type but ContractChosen, which the quick schedule never needs (the modern rows above have it)
      ['CardPlayed', 'CardsLaidAway', 'DealScored', 'DealStarted', 'DealVoided', 'DeckCommitted', 'DeckCut', 'HandsDealt', 'MatchCreated', 'MatchFinished', 'SeatJoined', 'SeedRevealed', 'TableAbandoned', 'TrickTaken'].sort(),
    );
  });
});

describe('bot seats', () => {
  const base = { options: { schedule: 'quick' as const }, names: ['Ann', 'Greedy bot', 'Strong bot'] as Triple<string>, abandon: false, cut: 0.5, earlyLead: 0, shuffleRecord: true };

  it('a match created with bot seats has a Bots line, and comes back with its bots', () => {
    const { events } = playMatch({ ...base, seed: 21, fair: true, lobby: false, bots: [null, 'greedy', 'strong'] });
    const text = toNotation(events);
    expect(text).toMatch(/^Bots: - "greedy" "strong"$/m);
    expect((fromNotation(text)[0] as Extract<BismarckEvent, { type: 'MatchCreated' }>).data.bots).toEqual([null, 'greedy', 'strong']);
    expectRoundTrip(events);
  });

  it('a bot that joins a lobby table is written on its Joined line', () => {
    const { events } = playMatch({ ...base, seed: 22, fair: true, lobby: true, bots: [null, null, 'random'] });
    const text = toNotation(events);
    expect(text).toMatch(/^Joined 2: "Strong bot" bot "random"$/m);
    expect(text).toMatch(/^Joined 1: "Greedy bot"$/m);
    expect(text).not.toMatch(/^Bots:/m);
    expectRoundTrip(events);
  });

  it('a Bots line that is not three entries is refused with its line', () => {
    const text = toNotation(playMatch({ ...base, seed: 23, fair: false, lobby: false, bots: [null, 'greedy', null] }).events);
    expect(() => fromNotation(text.replace('Bots: - "greedy" -', 'Bots: - "greedy"'))).toThrow(/line 8: expected "Bots:/);
  });
});

describe('forks', () => {
  /** A finished match forked at a random forkable version, then played on (with the fork's own decks) to the end or cut short. */
  function forkOf(p: MatchPlan, at: number, playOn: number): BismarckEvent[] {
    const { events } = playMatch({ ...p, abandon: false });
    const positions = forkableVersions(events);
    const version = positions[Math.floor(at * positions.length)];
    const fork = decide({ type: 'forkMatch', matchId: 'fork of "the" match', from: { matchId: `match-${p.seed}`, version, events } }, initialState());
    const random = mulberry32(p.seed);
    let state = fold(fork);
    for (let step = 0, deals = 0; step < playOn; step++) {
      const command = randomCommand(state, { random, deck: (n) => shuffleDeck(`fork-${p.seed}`, n), leadBeforeDiscard: 0.1 }, deals);
      if (command === null) break;
      if (command.type === 'deal') deals++;
      for (const e of decide(command, state)) {
        state = evolve(state, e);
        fork.push(e);
      }
    }
    return fork;
  }

  it('a fork has a Forked from line, and comes back with it, as every caller may see it, whole or cut short', () => {
    fc.assert(
      fc.property(plan, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.constantFrom(0, 30, 5000), (p, at, playOn) => {
        const fork = forkOf(p, at, playOn);
        const text = expectRoundTrip(fork);
        const created = fork[0] as Extract<BismarckEvent, { type: 'MatchCreated' }>;
        expect(text).toMatch(new RegExp(`^Forked from: "match-${p.seed}" at ${created.data.forkedFrom!.version}$`, 'm'));
        for (const viewer of VIEWERS) expectRoundTrip(visibleEvents(fork, viewer));
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('a Forked from line that names no version is refused with its line', () => {
    const text = toNotation(forkOf({ seed: 5, options: { schedule: 'quick' }, names: ['a', 'b', 'c'], fair: true, lobby: false, abandon: false, cut: 0.5, earlyLead: 0, shuffleRecord: true }, 0.5, 0));
    expect(text).toMatch(/^Forked from: "match-5" at \d+$/m);
    expect(() => fromNotation(text.replace(/^Forked from: "match-5" at \d+$/m, 'Forked from: "match-5"'))).toThrow(/line 8: expected "Forked from:/);
  });
});

describe('rematches', () => {
  const base = { options: { schedule: 'quick' as const }, names: ['Ann', 'Bob', 'Cyd'] as Triple<string>, lobby: false, abandon: false, cut: 0.5, earlyLead: 0, shuffleRecord: true };

  it('a finished match with a rematch has a Rematch by line, and a rematch a Rematch of line: both come back, as every caller may see them', () => {
    const { events } = playMatch({ ...base, seed: 31, fair: true });
    const offered: BismarckEvent[] = [...events, { type: 'RematchOffered', data: { matchId: 'the "next" match', seat: 2 } }];
    expect(expectRoundTrip(offered)).toMatch(/^Rematch by 2: "the \\"next\\" match"$/m);
    for (const viewer of VIEWERS) expectRoundTrip(visibleEvents(offered, viewer));
    const rematch = decide({ type: 'createMatch', matchId: 'the "next" match', players: ['Ann', 'Bob', 'Cyd'], firstDealer: 1, seeded: false, rematchOf: `match-31` }, initialState());
    expect(expectRoundTrip(rematch)).toMatch(/^Rematch of: "match-31"$/m);
  });

  it('a Rematch of line that names no match is refused with its line', () => {
    const rematch = decide({ type: 'createMatch', matchId: 'm2', players: ['Ann', 'Bob', 'Cyd'], firstDealer: 1, seeded: false, rematchOf: 'm1' }, initialState());
    expect(() => fromNotation(toNotation(rematch).replace('Rematch of: "m1"', 'Rematch of: m1'))).toThrow(/line 8: expected "Rematch of:/);
  });
});

describe('hidden information is written ??', () => {
  const { events, ends } = playMatch({ seed: 3, options: { schedule: 'quick' }, names: ['a', 'b', 'c'], fair: true, lobby: false, abandon: false, cut: 1, earlyLead: 0, shuffleRecord: true });
  const firstLaidAway = events.findIndex((e) => e.type === 'CardsLaidAway');
  const inPlay = events.slice(0, ends.find((n) => n > firstLaidAway + 1)!);
  const forehand = (events.find((e) => e.type === 'DealStarted') as Extract<BismarckEvent, { type: 'DealStarted' }>).data.forehand;

  it('a spectator sees no deck, no hand and no laid-away card of a deal in play', () => {
    const text = toNotation(visibleEvents(inPlay, 'spectator'));
    expect(text).toMatch(/^Deck: \?\?$/m);
    expect(text.match(/^Hand [012]: \?\?$/gm)).toHaveLength(3);
    expect(text).toMatch(/^Laid away by [012]: \?\?$/m);
  });

  it('a seat sees its own hand only, and its own lay-away as forehand', () => {
    const text = toNotation(visibleEvents(inPlay, forehand));
    for (const seat of [0, 1, 2]) expect(text).toMatch(new RegExp(`^Hand ${seat}: ${seat === forehand ? '([2-9TJQKA][SHDC] ?){16}' : '\\?\\?'}$`, 'm'));
    expect(text).toMatch(new RegExp(`^Laid away by ${forehand}: ([2-9TJQKA][SHDC] ?){4}$`, 'm'));
  });

  it('a scored deal shows everything to everyone', () => {
    const text = toNotation(visibleEvents(events, 'spectator'));
    expect(text).not.toContain('??');
  });
});

describe('a text that is not a notation is refused with its line and what was expected', () => {
  const { events } = playMatch({ seed: 11, options: { schedule: 'quick' }, names: ['Astrid', 'Bjørn', 'Cecilia'], fair: true, lobby: false, abandon: false, cut: 1, earlyLead: 0, shuffleRecord: true });
  const good = toNotation(events);
  const lines = good.split('\n');
  const lineOf = (prefix: string): number => lines.findIndex((l) => l.startsWith(prefix)) + 1;
  const replaceLine = (prefix: string, by: string | null): string => {
    const at = lineOf(prefix) - 1;
    return [...lines.slice(0, at), ...(by === null ? [] : [by]), ...lines.slice(at + 1)].join('\n');
  };

  it.each<[string, () => string, () => RegExp]>([
    ['an empty text', () => '', () => /^line 1: expected "Bismarck notation 1", found the end of the text$/],
    ['another format', () => '{"format":"bismarck-export-v1"}', () => /^line 1: expected "Bismarck notation 1", found/],
    ['a header line missing', () => replaceLine('Schedule:', null), () => new RegExp(`^line ${lineOf('Schedule:')}: expected "Schedule: modern \\| traditional \\| quick", found "Options:`)],
    ['an unknown schedule', () => replaceLine('Schedule:', 'Schedule: blitz'), () => new RegExp(`^line ${lineOf('Schedule:')}: expected "Schedule:`)],
    ['an option value outside its list', () => good.replace('scoring=overOnly', 'scoring=most'), () => /^line 5: option scoring is one of zeroSum, overOnly, not most$/],
    ['an open seat written as null', () => replaceLine('Players:', 'Players: "Astrid" null "Cecilia"'), () => /^line 3: expected "Players: "name" "name" "name" \(- for an open seat\)"/],
    ['a card that is not one', () => good.replace(/^Table: (\S+)/m, 'Table: 1S'), () => new RegExp(`^line ${lineOf('Table:')}: Table: 1S is not a card|^line ${lineOf('Table:')}: expected "Table: 4 cards"`)],
    ['three table cards', () => replaceLine('Table:', 'Table: AS KS QS'), () => new RegExp(`^line ${lineOf('Table:')}: Table: expected 4 cards, found 3$`)],
    ['a card twice in a hand', () => replaceLine('Hand 0:', `Hand 0: AS AS ${lines[lineOf('Hand 0:') - 1].split(' ').slice(4).join(' ')}`), () => new RegExp(`^line ${lineOf('Hand 0:')}: Hand 0: a card appears twice$`)],
    ['hands out of order', () => replaceLine('Hand 1:', lines[lineOf('Hand 2:') - 1]), () => new RegExp(`^line ${lineOf('Hand 1:')}: expected "Hand 1: …": the three hands come together`)],
    ['a hand missing', () => replaceLine('Hand 2:', null), () => new RegExp(`^line ${lineOf('Hand 2:')}: expected "Hand 2: …"`)],
    ['a deal start without its Deal line', () => replaceLine('Deal 1:', null), () => new RegExp(`^line ${lineOf('Deal 1:')}: "Shuffle:" belongs to a deal's start: the lines "Deal n: …", \\["Shuffle: …"\\], "Deck: …", "Table: …"`)],
    ['a deck line out of place', () => `${good}Deck: ??\n`, () => new RegExp(`^line ${lines.length}: "Deck:" belongs to a deal's start`)],
    ['a deal start without its deck', () => replaceLine('Deck:', null), () => new RegExp(`^line ${lineOf('Deck:')}: expected "Deck: …" to go on with the deal's start, found "Table:`)],
    ['a trick of four cards', () => good.replace(/^1\. (\d): (\S+ \S+ \S+)/m, '1. $1: $2 2C'), () => new RegExp(`^line ${lineOf('1. ')}: expected "n. leader: card card card -> winner"`)],
    ['a trick taken with two cards', () => good.replace(/^1\. (\d): (\S+ \S+) \S+/m, '1. $1: $2'), () => new RegExp(`^line ${lineOf('1. ')}: trick 1 is taken with 3 cards, not 2$`)],
    ['trick 17', () => good.replace(/^16\. /m, '17. '), () => new RegExp(`^line ${lineOf('16. ')}: a deal has 16 tricks, not 17$`)],
    ['a score with two numbers', () => good.replace(/^Score: tricks (\d+) (\d+) (\d+)/m, 'Score: tricks $1 $2'), () => new RegExp(`^line ${lineOf('Score:')}: expected "Score: tricks a b c; quotas a b c; points a b c; totals a b c"`)],
    ['a name that is not a JSON string', () => replaceLine('Players:', 'Players: Astrid "Bjørn" "Cecilia"'), () => /^line 3: expected "Players:/],
    ['an unknown line', () => `${good}Mulligan: yes\n`, () => new RegExp(`^line ${lines.length}: expected a line of the notation \\(Joined, Abandoned, Commit, .*\\), found "Mulligan: yes"$`)],
  ])('%s', (_name, text, message) => {
    let error: unknown;
    try {
      fromNotation(text());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotationError);
    expect((error as Error).message).toMatch(message());
    expect((error as NotationError).line).toEqual(expect.any(Number));
  });

  it('skips blank lines, comments and surrounding spaces', () => {
    const noisy = `# a comment\n\n${good.split('\n').map((l) => `  ${l}\t`).join('\n\n')}\n# the end\n`;
    expect(fromNotation(noisy)).toStrictEqual(events);
  });
});

describe('toNotation refuses a log it could not give back exactly', () => {
  const { events } = playMatch({ seed: 5, options: { schedule: 'quick' }, names: ['a', 'b', 'c'], fair: false, lobby: false, abandon: false, cut: 0, earlyLead: 0, shuffleRecord: false });
  const changed = (i: number, data: object): BismarckEvent[] => events.map((e, k) => (k === i ? ({ type: e.type, data: { ...e.data, ...data } } as BismarckEvent) : e));
  const at = (type: string): number => events.findIndex((e) => e.type === type);

  it.each<[string, () => BismarckEvent[], RegExp]>([
    ['a log not starting with MatchCreated', () => events.slice(1), /a log starts with MatchCreated/],
    ['a match whose options lack one', () => changed(0, { options: { schedule: 'quick' } }), /options scoring, contractChoice, spadesInFreeTrump, mustTrump, leadBeforeDiscard, fourthRound are missing or unknown/],
    ['a trick taken with other cards than played', () => changed(at('TrickTaken'), { cards: [] }), /TrickTaken\) cannot be written: a trick is taken right after its third card/],
    ['a card played out of turn', () => changed(at('CardPlayed') + 1, { seat: (events[at('CardPlayed')].data as { seat: number }).seat }), /plays out of turn/],
    ['a score of another contract', () => changed(at('DealScored'), { contract: 'pass', trump: null }), /its forehand, contract and trump are not the deal's/],
    ['an event of another deal', () => changed(at('HandsDealt'), { deal: 2 }), /it belongs to deal 2, but the deal on the table is 1/],
    ['spades with no trump', () => changed(at('DealStarted'), { contract: 'spades', trump: null }), /contract spades with trump null/],
  ])('%s', (_name, log, message) => {
    expect(() => toNotation(log())).toThrow(message);
  });
});

describe('seats bound to player accounts (docs/players.md)', () => {
  it('writes the Accounts line and a bound join, and reads them back to the same events', () => {
    const P = 'pl-00000000-0000-4000-8000-00000000000a';
    const Q = 'pl-00000000-0000-4000-8000-00000000000b';
    const created = decide({ type: 'createMatch', matchId: 'm-acc', players: ['Ann', null, 'Cyd'], accounts: [P, null, null], firstDealer: 0, seeded: false }, initialState());
    const joined = decide({ type: 'joinSeat', seat: 1, name: 'Bo', account: Q }, fold(created));
    const events = [...created, ...joined];
    const text = toNotation(events);
    expect(text).toContain(`Accounts: "${P}" - -`);
    expect(text).toContain(`Joined 1: "Bo" player "${Q}"`);
    expect(fromNotation(text)).toEqual(events);
  });
});
