import fc from 'fast-check';
import { dealHistory } from '@bismarck/bots';
import { foldOnto, UNBORN } from '@bismarck/match';
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
    expect(known.ended('a')).toBe(true);
    expect(known.ended('b')).toBe(false);
  });

  it('takes what this process wrote when it follows what it knows, and nothing else', () => {
    const known = new KnownMatches(5);
    known.set('a', at(4));
    const folded = { ...UNBORN, version: 6 };
    const events = [{ type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'x' } }, { type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'y' } }] as BismarckEvent[];
    known.written('a', 6, events, { ...UNBORN, version: 7 }); // a gap: version 5 is not known here
    expect(known.get('a')?.folded.version).toBe(4);
    known.written('a', 5, events, folded);
    expect(known.get('a')).toMatchObject({ written: true, deal: events });
    expect(known.get('a')?.folded).toBe(folded); // the writer's fold itself: not folded again
    known.doubt('a');
    expect(known.get('a')).toMatchObject({ written: false, folded });
    known.written('b', 3, events, folded); // never read here, and not from its start: left to the log
    expect(known.get('b')).toBeUndefined();
    known.written('c', 1, events, folded); // from its creation: all there is
    expect(known.get('c')?.folded).toBe(folded);
  });
});
