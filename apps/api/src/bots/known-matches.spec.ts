import fc from 'fast-check';
import { dealHistory } from '@bismarck/bots';
import { foldOnto, UNBORN } from '@bismarck/projections';
import { mulberry32, playRandomMatch, shuffleDeck, visibleEvents, type BismarckEvent, type Seat } from '@bismarck/rules';
import { KnownMatches, learn, type KnownMatch } from './known-matches';

// The bot runner reads a match on from where it last read it: what it knows after reading the log in
// any number of pieces is what one read of the whole log gives, for the fold and for every seat's
// history of the deal in progress.
describe('learn', () => {
  it('folds the log read in pieces to the whole log\'s fold and deal history, at every moment of random matches', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom('quick', 'traditional'), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 }), (seed, schedule, pieces) => {
        const random = mulberry32(seed);
        const { events } = playRandomMatch({ schedule, leadBeforeDiscard: 'redeal' }, 0, { random, deck: (n) => shuffleDeck(`known-${seed}`, n), leadBeforeDiscard: 0.1 }, undefined, 400);
        let known: KnownMatch | undefined;
        let at = 0;
        for (let i = 0; at < events.length; i++) {
          const size = pieces[i % pieces.length];
          known = learn(known, events.slice(at, at + size));
          at = Math.min(events.length, at + size);
          const whole: BismarckEvent[] = events.slice(0, at);
          expect(known.folded).toEqual(foldOnto(UNBORN, whole));
          for (const seat of [0, 1, 2] as Seat[]) expect(dealHistory(visibleEvents(known.deal, seat))).toEqual(dealHistory(visibleEvents(whole, seat)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('nothing new: the same knowledge', () => {
    const known = learn(undefined, []);
    expect(learn(known, [])).toBe(known);
    expect(known.folded).toEqual(UNBORN);
  });
});

describe('KnownMatches', () => {
  const at = (version: number, status = 'playing'): KnownMatch => ({ folded: { ...UNBORN, version, state: { ...UNBORN.state, status } as never }, deal: [] });

  it('keeps the matches used last, up to its capacity', () => {
    const known = new KnownMatches(2);
    known.set('a', at(1));
    known.set('b', at(1));
    known.set('a', at(2)); // a is now the latest used
    known.set('c', at(1));
    expect(known.get('b')).toBeUndefined();
    expect(known.get('a')?.folded.version).toBe(2);
    expect(known.get('c')?.folded.version).toBe(1);
    expect(known.size).toBe(2);
  });

  it('forgets a finished match', () => {
    const known = new KnownMatches(5);
    known.set('a', at(7));
    known.set('a', at(9, 'finished'));
    expect(known.get('a')).toBeUndefined();
    expect(known.size).toBe(0);
  });
});
