import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { type BismarckEvent, type Command, type MatchState, dealToReveal, decide, deckKey, fold, legalActions, publicView, redactEvent, sha256Hex, shuffleDeck } from '../src';
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
    ['a cut with spaces', { seat: 2, cut: 'a b' }, 'VALIDATION_FAILED'],
    ['a cut of 65 characters', { seat: 2, cut: 'x'.repeat(65) }, 'VALIDATION_FAILED'],
  ] as const)('refuses %s (%s)', (_name, cmd, code) => {
    given(start()).when({ type: 'cut', ...cmd }).thenThrows(code);
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
