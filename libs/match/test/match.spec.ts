import { fold, mulberry32, nothingSecret, playRandomMatch, shuffleDeck, type BismarckEvent } from '@bismarck/rules';
import type { StoredEvent } from '@bismarck/event-store';
import { eventView, foldOnto, storedEventView, toDomainEvent, UNBORN, type FoldedMatch } from '@bismarck/match';

// A whole quick match, as the log would hold it.
const EVENTS = playRandomMatch({ schedule: 'quick' }, 0, { random: mulberry32(7), deck: (i) => shuffleDeck('match-spec', i) }).events;
const stored = (e: BismarckEvent, i: number, metadata: Record<string, unknown> = {}): StoredEvent => ({
  streamId: 'm',
  version: i + 1,
  type: e.type,
  data: e.data,
  metadata,
  recordedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString(),
  position: String(i + 1),
  txId: String(i + 1),
  hash: `h${i + 1}`,
});
const LOG = EVENTS.map((e, i) => stored(e, i));
const foldedTo = (version: number): FoldedMatch => foldOnto(UNBORN, EVENTS.slice(0, version));
const versionOf = (type: BismarckEvent['type'], after = 0): number => EVENTS.findIndex((e, i) => i >= after && e.type === type) + 1;

describe('the fold of a match', () => {
  it('folds in pieces to the same match as in one go, and to the rules’ own fold', () => {
    const whole = foldOnto(UNBORN, EVENTS);
    for (const cut of [0, 1, 5, versionOf('HandsDealt'), EVENTS.length - 1]) {
      expect(foldOnto(foldOnto(UNBORN, EVENTS.slice(0, cut)), EVENTS.slice(cut))).toEqual(whole);
    }
    expect(whole.version).toBe(EVENTS.length);
    expect(whole.state).toEqual(fold(EVENTS));
  });

  it('keeps the checkpoint at the last version where nothing was secret', () => {
    let lastClear = 0;
    for (let version = 1; version <= EVENTS.length; version++) {
      const folded = foldedTo(version);
      if (nothingSecret(folded.state)) lastClear = version;
      expect(folded.checkpoint).toBe(lastClear);
    }
    const dealt = versionOf('HandsDealt');
    expect(foldedTo(dealt).checkpoint).toBeLessThan(dealt);
    expect(foldedTo(EVENTS.length).checkpoint).toBe(EVENTS.length);
  });

  it('leaves the match it folds onto as it was', () => {
    const before = foldedTo(3);
    const copy = structuredClone(before);
    foldOnto(before, EVENTS.slice(3));
    expect(before).toEqual(copy);
  });
});

describe('an event as a caller sees it', () => {
  const dealt = versionOf('HandsDealt');
  const scored = versionOf('DealScored');
  const hands = (view: { data: unknown }) => (view.data as { hands: (string[] | null)[] }).hands;

  it('hides the other seats’ hands while their deal is under way', () => {
    const now = foldedTo(dealt);
    expect(hands(storedEventView(LOG[dealt - 1], 1, now)).map((h) => h !== null)).toEqual([false, true, false]);
    expect(hands(storedEventView(LOG[dealt - 1], 'spectator', now))).toEqual([null, null, null]);
  });

  it('shows every hand once the deal is scored', () => {
    expect(hands(storedEventView(LOG[dealt - 1], 'spectator', foldedTo(scored)))).toEqual(hands(toDomainEvent(LOG[dealt - 1])));
  });

  it('gives the chain’s hash only up to the checkpoint', () => {
    const now = foldedTo(dealt);
    expect(storedEventView(LOG[now.checkpoint - 1], 0, now).hash).toBe(`h${now.checkpoint}`);
    expect(storedEventView(LOG[dealt - 1], 0, now).hash).toBeUndefined();
    expect(eventView(EVENTS[0], 1, LOG[0].recordedAt, 0, now)).not.toHaveProperty('hash');
  });

  it('marks a stand-in’s move, and no other', () => {
    const now = foldedTo(EVENTS.length);
    expect(storedEventView(stored(EVENTS[dealt], dealt, { standIn: true }), 0, now).standIn).toBe(true);
    expect(storedEventView(LOG[dealt], 0, now)).not.toHaveProperty('standIn');
  });
});
