import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { type BismarckEvent, type Command, type MatchState, dealToReveal, decide, deckKey, fold, legalActions, normalCut, publicView, redactEvent, sha256Hex, shuffleDeck } from '../src';
import { mulberry32, playRandomMatch, randomCommand } from '../src/simulate';
import { create, given, history } from './given';
import { playUntil } from './play-until';

// First dealer 0: dealer 0, forehand 1, and seat 2 (on the dealer's right) cuts.
const committed: BismarckEvent = { type: 'DeckCommitted', data: { deal: 1, commitment: sha256Hex('server-seed') } };

describe('the cut (seat on the dealer\'s right) before a deal', () => {
  const start = () => [...history(create({}, 0)), committed];

  it('given a committed deck, when the cutter cuts, then DeckCut', () => {
    given(start())
      .when({ type: 'cut', seat: 2, cut: 'my-lucky-cut' })
      .then([{ type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'my-lucky-cut' } }]);
  });

  it.each([
    ['the dealer cuts', { seat: 0, cut: 'x' }, 'NOT_YOUR_TURN'],
    ['forehand cuts', { seat: 1, cut: 'x' }, 'NOT_YOUR_TURN'],
    ['an empty cut', { seat: 2, cut: '' }, 'VALIDATION_FAILED'],
    ['a cut of 65 characters', { seat: 2, cut: 'x'.repeat(65) }, 'VALIDATION_FAILED'],
    ['a cut of 65 letters beyond ASCII', { seat: 2, cut: 'ø'.repeat(65) }, 'VALIDATION_FAILED'],
    ['a cut of only spaces', { seat: 2, cut: '   ' }, 'VALIDATION_FAILED'],
    ['a control character', { seat: 2, cut: 'a\u0007b' }, 'VALIDATION_FAILED'],
    ['a tab', { seat: 2, cut: 'a\tb' }, 'VALIDATION_FAILED'],
    ['a newline', { seat: 2, cut: 'a\nb' }, 'VALIDATION_FAILED'],
    ['a bidi override (U+202E)', { seat: 2, cut: 'abc\u202Edef' }, 'VALIDATION_FAILED'],
    ['a zero-width space (U+200B)', { seat: 2, cut: 'a\u200Bb' }, 'VALIDATION_FAILED'],
    ['a zero-width joiner (U+200D)', { seat: 2, cut: 'a\u200Db' }, 'VALIDATION_FAILED'],
    ['a lone surrogate', { seat: 2, cut: 'a\uD800b' }, 'VALIDATION_FAILED'],
    ['a line separator (U+2028)', { seat: 2, cut: 'a\u2028b' }, 'VALIDATION_FAILED'],
    ['a no-break space (U+00A0)', { seat: 2, cut: 'a\u00A0b' }, 'VALIDATION_FAILED'],
    ['a private-use character', { seat: 2, cut: 'a\uE000' }, 'VALIDATION_FAILED'],
    ['an unassigned code point of the BMP', { seat: 2, cut: 'a\u0378' }, 'VALIDATION_FAILED'],
    ['a tag character (U+E0041, invisible)', { seat: 2, cut: 'a\u{E0041}' }, 'VALIDATION_FAILED'],
    ['a noncharacter beyond the BMP (U+1FFFF)', { seat: 2, cut: 'a\u{1FFFF}' }, 'VALIDATION_FAILED'],
    ['five combining marks on one letter', { seat: 2, cut: 'x\u0301\u0302\u0303\u0304\u0305' }, 'VALIDATION_FAILED'],
    ['a number', { seat: 2, cut: 42 as unknown as string }, 'VALIDATION_FAILED'],
  ] as const)('refuses %s (%s)', (_name, cmd, code) => {
    given(start()).when({ type: 'cut', ...cmd }).thenThrows(code);
  });

  it('states the rule in plain words when it refuses', () => {
    expect(() => decide({ type: 'cut', seat: 2, cut: 'a\u202Eb' }, fold(start()))).toThrow(/1 to 64 printable characters/);
  });

  it.each([
    ['letters beyond ASCII', 'Bjørn'],
    ['spaces inside', 'lykke til'],
    ['spaces around', ' lykke til '],
    ['an emoji', '🃏 lykke til 🍀'],
        ['other scripts', 'Ελλάδα 日本 עברית'],
    ['64 characters beyond the BMP', '🂡'.repeat(64)],
    ['every visible ASCII character', '!"#$%&\'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~'],
  ])('accepts %s, recorded as typed when it is NFC already', (_name, cut) => {
    given(start()).when({ type: 'cut', seat: 2, cut }).then([{ type: 'DeckCut', data: { deal: 1, seat: 2, cut } }]);
  });

  it('records a decomposed cut in its NFC form, which gives the same deck as the composed one', () => {
    const decomposed = 'Bjo\u0308rn ha\u030Aper';
    const composed = 'Bj\u00F6rn h\u00E5per';
    expect(decomposed).not.toBe(composed);
    given(start()).when({ type: 'cut', seat: 2, cut: decomposed }).then([{ type: 'DeckCut', data: { deal: 1, seat: 2, cut: composed } }]);
    const recorded = decide({ type: 'cut', seat: 2, cut: decomposed }, fold(start()))[0] as Extract<BismarckEvent, { type: 'DeckCut' }>;
    expect(shuffleDeck(deckKey('server-seed', recorded.data.cut), 2)).toEqual(shuffleDeck(deckKey('server-seed', composed), 2));
  });

  it('counts characters after normalisation: 65 decomposed letters that compose to 64 are a cut', () => {
    const cut = 'o\u0308'.repeat(32) + 'a'.repeat(32);
    given(start()).when({ type: 'cut', seat: 2, cut }).then([{ type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'ö'.repeat(32) + 'a'.repeat(32) } }]);
  });

  it('an ASCII cut, the only kind before, is unchanged: recorded as sent, the same key as ever', () => {
    expect(normalCut('k7Qz-42')).toBe('k7Qz-42');
    expect(deckKey('seed', 'k7Qz-42')).toBe('6ccc1458237a00088a7e1bdad20f85f60e8520f95d8ff677b7a0ee6882e19c00');
  });

  it('replaying a recorded cut decides the same event (the audit\'s rules check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }), (typed) => {
        const normal = normalCut(typed);
        fc.pre(normal !== null);
        expect(normalCut(normal)).toBe(normal);
      }),
    );
  });

  it('refuses a second cut of the same deal (WRONG_PHASE)', () => {
    const cutOnce = [...start(), { type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'a' } } as BismarckEvent];
    given(cutOnce).when({ type: 'cut', seat: 2, cut: 'b' }).thenThrows('WRONG_PHASE');
  });

  it('refuses a cut once the deal has started (WRONG_PHASE)', () => {
    const dealt = history(create({}, 0), { type: 'deal', seat: 0, deck: shuffleDeck('s', 1) });
    given(dealt).when({ type: 'cut', seat: 2, cut: 'late' }).thenThrows('WRONG_PHASE');
  });

  it('offers the cut to the cutter only, until it is made; the view shows commitment and cut', () => {
    const state = fold(start());
    expect(legalActions(state, 2)).toEqual({ action: 'cut' });
    expect(legalActions(state, 0)).toEqual({ action: 'deal' });
    expect(legalActions(state, 1)).toBeNull();
    expect(publicView(state).fairness).toEqual({ commitment: sha256Hex('server-seed'), cut: null });
    const after = fold([{ type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'c' } }], state);
    expect(legalActions(after, 2)).toBeNull();
    expect(publicView(after).fairness).toEqual({ commitment: sha256Hex('server-seed'), cut: 'c' });
  });

  it('fairness events are public to every viewer', () => {
    for (const e of [committed, { type: 'SeedRevealed', data: { deal: 1, commitment: 'c', seed: 's' } } as BismarckEvent]) {
      expect(redactEvent(e, 'spectator', false)).toEqual(e);
    }
  });
});

describe('deckKey', () => {
  it('is the seed itself without a cut, so a seeded match without cuts deals shuffleDeck(seed, index)', () => {
    expect(deckKey('seed', null)).toBe('seed');
  });
  it('is HMAC-SHA256(seed, "cut:" + cut) in hex with a cut', () => {
    expect(deckKey('seed', 'abc')).toBe(createHmac('sha256', 'seed').update('cut:abc').digest('hex'));
    expect(deckKey('seed', 'abc')).not.toBe(deckKey('seed', 'abd'));
  });
  it('hashes a cut beyond ASCII as its UTF-8 bytes (what docs/fairness.md tells a verifier to do)', () => {
    const utf8 = Buffer.from('cut:Bj\u00F8rn \u{1F340}', 'utf8');
    expect(utf8.length).toBe('cut:Bjrn '.length + 2 + 4);
    expect(deckKey('seed', 'Bj\u00F8rn \u{1F340}')).toBe(createHmac('sha256', 'seed').update(utf8).digest('hex'));
    expect(deckKey('seed', 'Bj\u00F8rn \u{1F340}')).toBe('6d4679acb46a28e57d2a6814ba502e65f4e0e3804475fd5f9a74b4a2a0452d3c');
  });
});

describe("the dealer's events, decided by the rules from the facts the service brings", () => {
  const dealer = { commitment: sha256Hex('next-seed') };
  const unseeded = (players: (string | null)[] = ['Ann', 'Bob', 'Cyd']): Command =>
    ({ ...create({ schedule: 'quick' }, 0), players, seeded: false }) as Command;

  it('a new match commits to the deck of deal 1; a lobby table when its last seat is joined; a seeded one never', () => {
    const [created, committedNow] = decide({ ...unseeded(), dealer }, fold([]));
    expect(created.type).toBe('MatchCreated');
    expect(committedNow).toEqual({ type: 'DeckCommitted', data: { deal: 1, commitment: dealer.commitment } });
    const lobby = decide({ ...unseeded(['Ann', null, 'Cyd']), dealer }, fold([]));
    expect(lobby.map((e) => e.type)).toEqual(['MatchCreated']);
    expect(decide({ type: 'joinSeat', seat: 1, name: 'Bob', dealer }, fold(lobby)).map((e) => e.type)).toEqual(['SeatJoined', 'DeckCommitted']);
    expect(decide({ ...create({}, 0), dealer }, fold([])).map((e) => e.type)).toEqual(['MatchCreated']);
    // Without facts (as in every other test here) the rules decide no dealer event.
    expect(decide(unseeded(), fold([])).map((e) => e.type)).toEqual(['MatchCreated']);
  });

  it("the deal's last card reveals that deal's seeds right after DealScored, then commits to the next deck", () => {
    const start = decide({ ...unseeded(), dealer }, fold([]));
    const { events, state } = playUntil(start, (s) => s.status === 'trickPlay' && s.trickNumber === 16 && s.trick.length === 2);
    const last = randomCommand(state, { random: () => 0, deck: (n) => shuffleDeck('x', n) }, 1)!;
    const seeds = [
      { deal: 1, commitment: dealer.commitment, seed: 'next-seed' },
      { deal: 2, commitment: 'c2', seed: 'not-this-deal' },
    ];
    const next = { commitment: sha256Hex('seed-2') };
    const decided = decide({ ...last, dealer: { ...next, seeds } }, fold(events));
    expect(decided.map((e) => e.type)).toEqual(['CardPlayed', 'TrickTaken', 'DealScored', 'SeedRevealed', 'DeckCommitted']);
    expect(decided[3]).toEqual({ type: 'SeedRevealed', data: seeds[0] });
    expect(decided[4]).toEqual({ type: 'DeckCommitted', data: { deal: 2, commitment: next.commitment } });
    // A card in the middle of a deal brings nothing of the dealer's.
    const mid = playUntil(start, (s) => s.status === 'trickPlay' && s.trickNumber === 3);
    const play = randomCommand(mid.state, { random: () => 0, deck: (n) => shuffleDeck('x', n) }, 1)!;
    expect(decide({ ...play, dealer: { ...next, seeds } }, mid.state).map((e) => e.type)).toEqual(['CardPlayed']);
  });
});

// The dealer reads a deal's seeds before the decision that may reveal them (the rules decide once):
// the rules' own question must say so exactly when the decision scores the deal.
describe('dealToReveal: the seeds a decision may reveal, asked before it', () => {
  const unseeded = (state: MatchState): MatchState => ('seeded' in state ? ({ ...state, seeded: false } as MatchState) : state);

  it('names the deal in play before each decision that scores it, and no deal before any other', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom('quick', 'modern'), (seed, schedule) => {
        let scored = 0;
        playRandomMatch({ schedule }, 0, { random: mulberry32(seed), deck: (n) => shuffleDeck(`reveal-${seed}`, n) }, (before, _command, events) => {
          const score = events.find((e) => e.type === 'DealScored');
          expect(dealToReveal(unseeded(before))).toBe(score?.type === 'DealScored' ? score.data.deal : null);
          expect(dealToReveal(before)).toBeNull(); // a seeded match reveals nothing
          if (score) scored++;
        });
        expect(scored).toBeGreaterThan(0);
      }),
      { numRuns: 20 },
    );
  });
});
