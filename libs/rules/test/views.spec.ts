import { type BismarckEvent, changesScorecard, evolve, fold, isDealRevealed, publicView, redactEvent, scorecard, seatView, shuffleDeck, visibleEvents } from '../src';
import { create, history } from './given';
import { awaiting, playUntil } from './play-until';

const DECK = shuffleDeck('views-spec', 1);
const started = history(create({ contractChoice: 'informed' }), { type: 'deal', seat: 0, deck: DECK });
const [, dealStarted, handsDealt] = started;

describe('redactEvent', () => {
  it('nobody sees the deck order of a deal that is not scored', () => {
    for (const viewer of [0, 1, 2, 'spectator'] as const)
      expect(redactEvent(dealStarted, viewer, false).data).toMatchObject({ deck: null, tableCards: DECK.slice(0, 4) });
  });

  it('a seat sees only its own hand; a spectator sees none', () => {
    const hands = (e: BismarckEvent) => (e as Extract<BismarckEvent, { type: 'HandsDealt' }>).data.hands;
    expect(hands(redactEvent(handsDealt, 2, false)).map((h) => h !== null)).toEqual([false, false, true]);
    expect(hands(redactEvent(handsDealt, 'spectator', false))).toEqual([null, null, null]);
  });

  it('laid-away cards are seen by forehand only', () => {
    const laid: BismarckEvent = { type: 'CardsLaidAway', data: { deal: 1, seat: 1, cards: ['2S', '3S', '4S', '5S'] } };
    expect(redactEvent(laid, 1, false)).toEqual(laid);
    expect(redactEvent(laid, 0, false).data).toMatchObject({ cards: null });
    expect(redactEvent(laid, 'spectator', false).data).toMatchObject({ cards: null });
  });

  it('nothing of a scored deal is secret', () => {
    expect(redactEvent(dealStarted, 'spectator', true)).toEqual(dealStarted);
    expect(redactEvent(handsDealt, 0, true)).toEqual(handsDealt);
  });

  it('never mutates the stored event', () => {
    const copy = JSON.parse(JSON.stringify(handsDealt));
    redactEvent(handsDealt, 0, false);
    expect(handsDealt).toEqual(copy);
  });
});

describe('visibleEvents', () => {
  const { events } = playUntil(history(create()), awaiting('trickPlay', 2));

  it('reveals an event of deal 1 once deal 1 is scored anywhere in the list (read time, not write time)', () => {
    const seen = visibleEvents(events, 'spectator');
    expect(seen).toHaveLength(events.length);
    const first = seen.find((e) => e.type === 'DealStarted' && e.data.deal === 1)!;
    const second = seen.find((e) => e.type === 'DealStarted' && e.data.deal === 2)!;
    expect(first.data).toMatchObject({ deck: expect.any(Array) });
    expect(second.data).toMatchObject({ deck: null });
    expect(isDealRevealed(fold(events), 1)).toBe(true);
    expect(isDealRevealed(fold(events), 2)).toBe(false);
  });

  it('keeps deal 1 secret in a prefix of the log that ends before it was scored', () => {
    const prefix = events.slice(0, events.findIndex((e) => e.type === 'DealScored'));
    const seen = visibleEvents(prefix, 0);
    expect(seen.find((e) => e.type === 'DealStarted')!.data).toMatchObject({ deck: null });
  });
});

describe('views', () => {
  it('a seat sees its hand sorted by suit (S H D C), then rank from the ace down', () => {
    const view = seatView(fold(started), 0);
    expect(view.hand).toHaveLength(16);
    const order = (c: string) => 'SHDC'.indexOf(c[1]) * 13 + (12 - '23456789TJQKA'.indexOf(c[0]));
    expect(view.hand.map(order)).toEqual(view.hand.map(order).sort((a, b) => a - b));
  });

  it('the public view has no hands and counts cards only', () => {
    const view = publicView(fold(started));
    expect(view).not.toHaveProperty('hand');
    expect(view.handSizes).toEqual([16, 16, 16]);
    expect(view.status).toBe('playing');
  });

  it("the view carries each seat's quota once the contract is known (the table shows tricks against it), null before", () => {
    expect(publicView(fold(started)).quotas).toBeNull(); // forehand (seat 1) has not announced yet
    const laying = history(create({ contractChoice: 'informed' }), { type: 'deal', seat: 0, deck: DECK }, { type: 'chooseContract', seat: 1, contract: 'pass' });
    expect(publicView(fold(laying)).quotas).toEqual([6, 4, 6]);
    expect(seatView(fold(laying), 2).quotas).toEqual([6, 4, 6]);
    const { state } = playUntil(history(create({ schedule: 'quick' })), awaiting('trickPlay', 1));
    const view = publicView(state);
    expect(view.contract).toBe('trump');
    expect(view.quotas).toEqual([0, 1, 2].map((s) => (s === view.forehand ? 8 : 4)));
    expect(publicView(playUntil(history(create({ schedule: 'quick' })), () => false).state).quotas).toBeNull(); // finished
  });

  it('the scorecard lists every scored deal with running totals', () => {
    const { state } = playUntil(history(create({ schedule: 'quick' })), () => false);
    const card = scorecard(state);
    expect(card.deals.map((d) => [d.number, d.contract])).toEqual([[1, 'trump'], [2, 'notrump'], [3, 'pass']]);
    expect(card.finished).toBe(true);
    expect(card.totals).toEqual(card.deals[2].totals);
    expect(card.winners).toEqual(publicView(state).winners);
  });
});

describe('changesScorecard', () => {
  it('the fairness events (commitment, cut, revealed seed) never change the scorecard', () => {
    const events: BismarckEvent[] = [
      { type: 'DeckCommitted', data: { deal: 1, commitment: 'c1' } },
      { type: 'DeckCut', data: { deal: 1, seat: 2, cut: 'cut' } },
      { type: 'SeedRevealed', data: { deal: 1, commitment: 'c1', seed: 's1' } },
    ];
    let state = fold(history(create({ contractChoice: 'informed' })));
    for (const e of events) {
      expect(changesScorecard(e)).toBe(false);
      const next = evolve(state, e);
      expect(scorecard(next)).toEqual(scorecard(state));
      state = next;
    }
    expect(state.status === 'awaitingDeal' && state.cut).toBe('cut');
  });
});
