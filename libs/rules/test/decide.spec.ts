import {
  type BismarckEvent,
  type Command,
  type Contract,
  type RuleErrorCode,
  type Seat,
  decide,
  dealPlan,
  dealsInMatch,
  fold,
  initialState,
  legalActions,
  publicView,
  resolveOptions,
  seatView,
  shuffleDeck,
  RuleViolation,
  type MatchOptions,
} from '../src';
import { SCRIPTED_TABLE, create, given, history, scriptedDeck } from './given';
import { awaiting, playUntil } from './play-until';

const DECK = shuffleDeck('decide-spec', 1);

describe('options', () => {
  it('fills in the defaults of docs/rules.md', () => {
    expect(resolveOptions()).toEqual({
      schedule: 'modern',
      scoring: 'zeroSum',
      contractChoice: 'blind',
      spadesInFreeTrump: true,
      mustTrump: false,
      leadBeforeDiscard: 'reject',
      fourthRound: 'none',
    });
  });

  it.each([
    ['modern scores zeroSum by default', { schedule: 'modern' }, 'zeroSum'],
    ['traditional scores overOnly by default', { schedule: 'traditional' }, 'overOnly'],
    ['quick scores overOnly by default', { schedule: 'quick' }, 'overOnly'],
    ['a given scoring overrides the schedule default', { schedule: 'traditional', scoring: 'zeroSum' }, 'zeroSum'],
    ['modern may score overOnly', { schedule: 'modern', scoring: 'overOnly' }, 'overOnly'],
  ] as [string, Partial<MatchOptions>, string][])('%s', (_name, partial, scoring) => {
    expect(resolveOptions(partial).scoring).toBe(scoring);
  });

  it.each([
    ['an unknown schedule', { schedule: 'blitz' }],
    ['an unknown scoring', { scoring: 'plusOnly' }],
    ['a non-boolean mustTrump', { mustTrump: 'yes' }],
    ['an unknown option', { jokers: true }],
    ['a fourth round in the modern schedule', { fourthRound: 'freeTrump' }],
    ['a fourth round in the quick schedule', { schedule: 'quick', fourthRound: 'freeTrumpBlind' }],
  ] as [string, unknown][])('refuses %s (VALIDATION_FAILED)', (_name, partial) => {
    expect(() => resolveOptions(partial as Partial<MatchOptions>)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it.each([
    ['modern', { schedule: 'modern' }, 12],
    ['traditional', { schedule: 'traditional' }, 9],
    ['traditional with a fourth round', { schedule: 'traditional', fourthRound: 'freeTrump' }, 12],
    ['quick', { schedule: 'quick' }, 3],
  ] as [string, Partial<MatchOptions>, number][])('a %s match has the right number of deals', (_n, partial, deals) => {
    expect(dealsInMatch(resolveOptions(partial))).toBe(deals);
  });

  it.each([
    ['traditional deal 1 is trump from the first table card', 'traditional', 1, { kind: 'fixed', contract: 'trump', trumpFromTable: true }],
    ['traditional deal 3 is trump from the first table card', 'traditional', 3, { kind: 'fixed', contract: 'trump', trumpFromTable: true }],
    ['traditional deal 4 is no-trump', 'traditional', 4, { kind: 'fixed', contract: 'notrump', trumpFromTable: false }],
    ['traditional deal 6 is no-trump', 'traditional', 6, { kind: 'fixed', contract: 'notrump', trumpFromTable: false }],
    ['traditional deal 7 is pass', 'traditional', 7, { kind: 'fixed', contract: 'pass', trumpFromTable: false }],
    ['traditional deal 9 is pass', 'traditional', 9, { kind: 'fixed', contract: 'pass', trumpFromTable: false }],
    ['quick deal 1 is trump from the first table card', 'quick', 1, { kind: 'fixed', contract: 'trump', trumpFromTable: true }],
    ['quick deal 2 is no-trump', 'quick', 2, { kind: 'fixed', contract: 'notrump', trumpFromTable: false }],
    ['quick deal 3 is pass', 'quick', 3, { kind: 'fixed', contract: 'pass', trumpFromTable: false }],
  ] as const)('%s', (_n, schedule, deal, plan) => {
    expect(dealPlan(resolveOptions({ schedule }), deal)).toEqual(plan);
  });

  it('the fourth round is a free trump, named blind with freeTrumpBlind', () => {
    expect(dealPlan(resolveOptions({ schedule: 'traditional', fourthRound: 'freeTrump' }), 10)).toEqual({ kind: 'freeTrump', blind: false });
    expect(dealPlan(resolveOptions({ schedule: 'traditional', fourthRound: 'freeTrumpBlind' }), 12)).toEqual({ kind: 'freeTrump', blind: true });
  });
});

describe('given no match', () => {
  it('createMatch creates it with the resolved options', () => {
    given([])
      .when(create({ schedule: 'quick' }, 2))
      .then([
        {
          type: 'MatchCreated',
          data: {
            matchId: 'match-1',
            players: ['Ann', 'Bob', 'Cyd'],
            options: resolveOptions({ schedule: 'quick' }),
            firstDealer: 2,
            seeded: true,
          },
        },
      ]);
  });

  it.each([
    ['two players', { players: ['Ann', 'Bob'] }],
    ['an empty name', { players: ['Ann', '', 'Cyd'] }],
    ['a first dealer that is not a seat', { firstDealer: 3 }],
    ['a bad option', { options: { schedule: 'chess' } }],
  ])('createMatch with %s is refused (VALIDATION_FAILED)', (_n, patch) => {
    given([]).when({ ...create(), ...patch } as Command).thenThrows('VALIDATION_FAILED');
  });

  it.each([
    ['deal', { type: 'deal', seat: 0, deck: DECK }],
    ['chooseContract', { type: 'chooseContract', seat: 1, contract: 'pass' }],
    ['discard', { type: 'discard', seat: 1, cards: DECK.slice(0, 4) }],
    ['playCard', { type: 'playCard', seat: 1, card: 'AS' }],
  ] as [string, Command][])('%s is refused (MATCH_NOT_FOUND)', (_n, command) => {
    given([]).when(command).thenThrows('MATCH_NOT_FOUND');
  });
});

describe('given a new modern match (first dealer 0)', () => {
  const created = history(create());

  it('createMatch again is refused (MATCH_EXISTS)', () => {
    given(created).when(create()).thenThrows('MATCH_EXISTS');
  });

  it('the dealer deals the table cards only: hands wait for the blind contract', () => {
    given(created)
      .when({ type: 'deal', seat: 0, deck: DECK, shuffle: { algorithm: 'bismarck-shuffle-v1', index: 1 } })
      .then([
        {
          type: 'DealStarted',
          data: {
            deal: 1,
            dealer: 0,
            forehand: 1,
            deck: DECK,
            tableCards: DECK.slice(0, 4),
            contract: null,
            trump: null,
            shuffle: { algorithm: 'bismarck-shuffle-v1', index: 1 },
          },
        },
      ]);
  });

  it('with contractChoice informed the 48 cards are dealt at once, forehand first', () => {
    given(history(create({ contractChoice: 'informed' })))
      .when({ type: 'deal', seat: 0, deck: DECK })
      .then((events) => {
        expect(events.map((e) => e.type)).toEqual(['DealStarted', 'HandsDealt']);
        const hands = (events[1] as Extract<BismarckEvent, { type: 'HandsDealt' }>).data.hands;
        expect(hands[1]![0]).toBe(DECK[4]);
        expect(hands[2]![0]).toBe(DECK[5]);
        expect(hands[0]![0]).toBe(DECK[6]);
        expect(hands.map((h) => h!.length)).toEqual([16, 16, 16]);
      });
  });

  it('another seat cannot deal (NOT_YOUR_TURN)', () => {
    given(created).when({ type: 'deal', seat: 1, deck: DECK }).thenThrows('NOT_YOUR_TURN');
  });

  it.each([
    ['51 cards', DECK.slice(1)],
    ['a card twice', [DECK[0], ...DECK.slice(0, 51)]],
    ['a bad code', ['1S', ...DECK.slice(1)]],
    ['no deck', undefined],
  ])('a deck with %s is refused (VALIDATION_FAILED)', (_n, deck) => {
    given(created).when({ type: 'deal', seat: 0, deck } as Command).thenThrows('VALIDATION_FAILED');
  });

  it.each([
    ['chooseContract', { type: 'chooseContract', seat: 1, contract: 'pass' }],
    ['discard', { type: 'discard', seat: 1, cards: DECK.slice(0, 4) }],
    ['playCard', { type: 'playCard', seat: 1, card: 'AS' }],
  ] as [string, Command][])('%s before the deal is refused (WRONG_PHASE)', (_n, command) => {
    given(created).when(command).thenThrows('WRONG_PHASE');
  });

  it('a seat that is not 0, 1 or 2 is refused (VALIDATION_FAILED)', () => {
    given(created).when({ type: 'deal', seat: 5 as Seat, deck: DECK }).thenThrows('VALIDATION_FAILED');
  });

  it('an unknown command is refused (VALIDATION_FAILED)', () => {
    given(created).when({ type: 'cheat', seat: 0 } as unknown as Command).thenThrows('VALIDATION_FAILED');
  });
});

describe('given the table cards are up (modern, blind)', () => {
  const dealt = history(create(), { type: 'deal', seat: 0, deck: DECK });

  it('shows the table cards to everybody and no hands to anybody', () => {
    const state = fold(dealt);
    const view = publicView(state);
    expect(view).toMatchObject({ phase: 'contract', dealNumber: 1, dealer: 0, forehand: 1, turn: 1, tableCards: DECK.slice(0, 4) });
    expect(view.handSizes).toEqual([0, 0, 0]);
    expect(seatView(state, 1).hand).toEqual([]);
    expect(seatView(state, 1).legal).toEqual({ action: 'chooseContract', contracts: ['spades', 'trump', 'notrump', 'pass'], trumps: ['S', 'H', 'D', 'C'] });
    expect(legalActions(state, 0)).toBeNull();
  });

  it('forehand announces: the contract is recorded and the 48 cards are dealt, forehand picks up the table', () => {
    const events = given(dealt)
      .when({ type: 'chooseContract', seat: 1, contract: 'trump', trump: 'H' })
      .then((events) => {
        expect(events[0]).toEqual({ type: 'ContractChosen', data: { deal: 1, seat: 1, contract: 'trump', trump: 'H' } });
        expect(events[1].type).toBe('HandsDealt');
      });
    const state = fold([...dealt, ...events]);
    expect(publicView(state)).toMatchObject({ phase: 'discard', contract: 'trump', trump: 'H', handSizes: [16, 20, 16], turn: 1 });
    expect(publicView(state).contractsPlayed[1]).toEqual({ trump: 1 });
    expect(seatView(state, 1).hand).toEqual(expect.arrayContaining(DECK.slice(0, 4)));
    expect(seatView(state, 1).legal).toEqual({ action: 'discard', count: 4 });
  });

  it('spades makes spades trump', () => {
    given(dealt)
      .when({ type: 'chooseContract', seat: 1, contract: 'spades' })
      .then((events) => expect(events[0].data).toMatchObject({ contract: 'spades', trump: 'S' }));
  });

  it('another seat cannot announce (NOT_YOUR_TURN)', () => {
    given(dealt).when({ type: 'chooseContract', seat: 2, contract: 'pass' }).thenThrows('NOT_YOUR_TURN');
  });

  it('a wrong-phase command from the wrong seat is WRONG_PHASE (the phase is checked first)', () => {
    given(dealt).when({ type: 'discard', seat: 2, cards: DECK.slice(0, 4) }).thenThrows('WRONG_PHASE');
  });

  it.each([
    ['trump without a suit', { contract: 'trump' }],
    ['trump with a bad suit', { contract: 'trump', trump: 'X' }],
    ['a suit with notrump', { contract: 'notrump', trump: 'H' }],
    ['an unknown contract', { contract: 'grand' }],
  ])('%s is refused (VALIDATION_FAILED)', (_n, patch) => {
    given(dealt).when({ type: 'chooseContract', seat: 1, ...patch } as Command).thenThrows('VALIDATION_FAILED');
  });

  it('spades as the free trump is refused when spadesInFreeTrump is false (SPADES_NOT_ALLOWED)', () => {
    const noSpades = history(create({ spadesInFreeTrump: false }), { type: 'deal', seat: 0, deck: DECK });
    given(noSpades).when({ type: 'chooseContract', seat: 1, contract: 'trump', trump: 'S' }).thenThrows('SPADES_NOT_ALLOWED');
    expect(legalActions(fold(noSpades), 1)).toMatchObject({ trumps: ['H', 'D', 'C'] });
  });
});

describe('the compendium (modern)', () => {
  it('a contract the forehand has already played is refused (CONTRACT_ALREADY_PLAYED)', () => {
    // the bot always takes the first contract still open: seat 1 played spades in deal 1
    const { events, state } = playUntil(history(create()), awaiting('awaitingContract', 4));
    expect(publicView(state).forehand).toBe(1);
    expect(publicView(state).contractsPlayed[1]).toEqual({ spades: 1 });
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'spades' }).thenThrows('CONTRACT_ALREADY_PLAYED');
    expect(legalActions(state, 1)).toMatchObject({ contracts: ['trump', 'notrump', 'pass'] });
  });

  it('in the last forehand deal only the remaining contract is allowed (CONTRACT_LOCKED)', () => {
    const { events, state } = playUntil(history(create()), awaiting('awaitingContract', 10));
    expect(publicView(state).contractsPlayed[1]).toEqual({ spades: 1, trump: 4, notrump: 7 });
    expect(legalActions(state, 1)).toEqual({ action: 'chooseContract', contracts: ['pass'], trumps: [] });
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'notrump' }).thenThrows('CONTRACT_LOCKED');
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'trump', trump: 'C' }).thenThrows('CONTRACT_LOCKED');
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'pass' }).then((e) => expect(e[0].type).toBe('ContractChosen'));
  });
});

describe('fixed deals (traditional and quick)', () => {
  it('traditional deal 1: trump is the suit of the first table card, hands dealt at once, no contract to choose', () => {
    const events = history(create({ schedule: 'traditional' }), { type: 'deal', seat: 0, deck: DECK });
    expect(events[1].data).toMatchObject({ contract: 'trump', trump: DECK[0][1] });
    expect(events[2].type).toBe('HandsDealt');
    const state = fold(events);
    expect(publicView(state)).toMatchObject({ phase: 'discard', handSizes: [16, 20, 16] });
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'pass' }).thenThrows('WRONG_PHASE');
  });

  it('the table trump stays trump when forehand lays the card away', () => {
    const events = history(create({ schedule: 'quick' }), { type: 'deal', seat: 0, deck: DECK }, { type: 'discard', seat: 1, cards: DECK.slice(0, 4) });
    expect(publicView(fold(events))).toMatchObject({ phase: 'play', contract: 'trump', trump: DECK[0][1] });
  });

  it('traditional fourth round: forehand names the trump after seeing his hand (contracts: trump only)', () => {
    const { events, state } = playUntil(history(create({ schedule: 'traditional', fourthRound: 'freeTrump' })), awaiting('awaitingContract', 10));
    expect(seatView(state, 1).hand).toHaveLength(16);
    expect(legalActions(state, 1)).toEqual({ action: 'chooseContract', contracts: ['trump'], trumps: ['S', 'H', 'D', 'C'] });
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'pass' }).thenThrows('CONTRACT_LOCKED');
    given(events).when({ type: 'chooseContract', seat: 1, contract: 'trump', trump: 'D' }).then((e) => expect(e.map((x) => x.type)).toEqual(['ContractChosen']));
  });

  it('traditional fourth round blind: forehand names the trump from the table cards alone', () => {
    const { events, state } = playUntil(history(create({ schedule: 'traditional', fourthRound: 'freeTrumpBlind' })), awaiting('awaitingContract', 11));
    expect(seatView(state, 2).hand).toEqual([]);
    given(events).when({ type: 'chooseContract', seat: 2, contract: 'trump', trump: 'C' }).then((e) => expect(e.map((x) => x.type)).toEqual(['ContractChosen', 'HandsDealt']));
  });
});

const scripted = (options: Partial<MatchOptions> = {}, contract: Contract = 'notrump', trump: string | null = null) =>
  history(create(options), { type: 'deal', seat: 0, deck: scriptedDeck() }, { type: 'chooseContract', seat: 1, contract, trump } as Command);
const LAY_AWAY = ['2D', '3D', '4D', '5D'];

describe('given forehand holds 20 cards (laying away)', () => {
  const before = scripted();

  it('forehand lays away 4 cards and leads to the first trick', () => {
    const events = given(before)
      .when({ type: 'discard', seat: 1, cards: LAY_AWAY })
      .then([{ type: 'CardsLaidAway', data: { deal: 1, seat: 1, cards: LAY_AWAY } }]);
    const state = fold([...before, ...events]);
    expect(publicView(state)).toMatchObject({ phase: 'play', turn: 1, tableCards: [], handSizes: [16, 16, 16] });
    expect(seatView(state, 1).laidAway).toEqual(['5D', '4D', '3D', '2D']);
    expect(seatView(state, 0).laidAway).toBeNull();
  });

  it('forehand may lay away table cards and trumps', () => {
    given(scripted({}, 'trump', 'C')).when({ type: 'discard', seat: 1, cards: SCRIPTED_TABLE }).then((e) => expect(e).toHaveLength(1));
  });

  it.each([
    ['3 cards', ['2D', '3D', '4D']],
    ['5 cards', ['2D', '3D', '4D', '5D', '6D']],
    ['a card twice', ['2D', '2D', '3D', '4D']],
    ['a bad code', ['2D', '3D', '4D', 'ZZ']],
  ])('%s are refused (VALIDATION_FAILED)', (_n, cards) => {
    given(before).when({ type: 'discard', seat: 1, cards }).thenThrows('VALIDATION_FAILED');
  });

  it('a card forehand does not hold is refused (CARD_NOT_IN_HAND)', () => {
    given(before).when({ type: 'discard', seat: 1, cards: ['2D', '3D', '4D', 'AS'] }).thenThrows('CARD_NOT_IN_HAND');
  });

  it('another seat cannot lay away (NOT_YOUR_TURN)', () => {
    given(before).when({ type: 'discard', seat: 0, cards: ['2S', '3S', '4S', '5S'] }).thenThrows('NOT_YOUR_TURN');
  });

  it('another seat cannot play while forehand lays away (NOT_YOUR_TURN)', () => {
    given(before).when({ type: 'playCard', seat: 2, card: '8D' }).thenThrows('NOT_YOUR_TURN');
  });

  it('deal and chooseContract are refused (WRONG_PHASE)', () => {
    given(before).when({ type: 'deal', seat: 0, deck: DECK }).thenThrows('WRONG_PHASE');
    given(before).when({ type: 'chooseContract', seat: 1, contract: 'pass' }).thenThrows('WRONG_PHASE');
  });

  it('leading before laying away is refused by default (DISCARD_FIRST)', () => {
    given(before).when({ type: 'playCard', seat: 1, card: 'AH' }).thenThrows('DISCARD_FIRST');
  });

  describe('with leadBeforeDiscard redeal', () => {
    const redeal = scripted({ leadBeforeDiscard: 'redeal' }, 'trump', 'H');

    it('the lead voids the deal: the same dealer deals the same deal again with the same contract', () => {
      const voided = given(redeal)
        .when({ type: 'playCard', seat: 1, card: 'AH' })
        .then([{ type: 'DealVoided', data: { deal: 1, seat: 1, card: 'AH', reason: 'leadBeforeDiscard' } }]);
      const state = fold([...redeal, ...voided]);
      expect(publicView(state)).toMatchObject({ phase: 'deal', dealer: 0, forehand: 1, turn: 0, contract: 'trump', trump: 'H' });
      expect(publicView(state).contractsPlayed[1]).toEqual({ trump: 1 });
      given([...redeal, ...voided])
        .when({ type: 'deal', seat: 0, deck: DECK })
        .then((events) => {
          expect(events.map((e) => e.type)).toEqual(['DealStarted', 'HandsDealt']);
          expect(events[0].data).toMatchObject({ deal: 1, dealer: 0, forehand: 1, contract: 'trump', trump: 'H' });
        });
    });

    it('a card forehand does not hold is refused (CARD_NOT_IN_HAND)', () => {
      given(redeal).when({ type: 'playCard', seat: 1, card: 'AS' }).thenThrows('CARD_NOT_IN_HAND');
    });

    it('in a deal whose trump comes from the first table card, the new table cards set the trump', () => {
      const first = history(create({ schedule: 'quick', leadBeforeDiscard: 'redeal' }), { type: 'deal', seat: 0, deck: scriptedDeck() });
      expect(first[1].data).toMatchObject({ trump: 'C' });
      const voided = given(first).when({ type: 'playCard', seat: 1, card: 'AC' }).then((e) => expect(e[0].type).toBe('DealVoided'));
      given([...first, ...voided])
        .when({ type: 'deal', seat: 0, deck: DECK })
        .then((events) => expect(events[0].data).toMatchObject({ deal: 1, contract: 'trump', trump: DECK[0][1] }));
    });
  });
});

describe('given the cards are being played (scripted hands)', () => {
  // seat 0: all spades + 2H 3H 4H; seat 1 (forehand): 5H..AH 6D 7D JC QC KC AC; seat 2: 8D..AD 2C..TC
  const playing = (options: Partial<MatchOptions> = {}, contract: Contract = 'notrump', trump: string | null = null) =>
    history(
      create(options),
      { type: 'deal', seat: 0, deck: scriptedDeck() },
      { type: 'chooseContract', seat: 1, contract, trump } as Command,
      { type: 'discard', seat: 1, cards: LAY_AWAY },
    );
  const play = (seat: Seat, card: string): Command => ({ type: 'playCard', seat, card });
  const after = (events: BismarckEvent[], ...commands: Command[]) => {
    const out = events.slice();
    for (const c of commands) out.push(...decide(c, fold(out)));
    return out;
  };

  it('forehand leads; the others play in turn (NOT_YOUR_TURN)', () => {
    given(playing()).when(play(0, '2H')).thenThrows('NOT_YOUR_TURN');
    given(after(playing(), play(1, 'AH'))).when(play(0, '2H')).thenThrows('NOT_YOUR_TURN');
  });

  it('a seat holding the led suit must follow it (MUST_FOLLOW_SUIT)', () => {
    const led = after(playing(), play(1, 'AH'), play(2, '8D'));
    given(led).when(play(0, 'AS')).thenThrows('MUST_FOLLOW_SUIT');
    expect(legalActions(fold(led), 0)).toEqual({ action: 'play', cards: ['4H', '3H', '2H'] });
  });

  it('a seat void in the led suit may play any card', () => {
    given(after(playing(), play(1, 'AH'))).when(play(2, '2C')).then([{ type: 'CardPlayed', data: { deal: 1, trick: 1, seat: 2, card: '2C' } }]);
  });

  it('the third card completes the trick: the highest card of the led suit wins and leads next', () => {
    const events = given(after(playing(), play(1, 'AH'), play(2, 'AD')))
      .when(play(0, '2H'))
      .then([
        { type: 'CardPlayed', data: { deal: 1, trick: 1, seat: 0, card: '2H' } },
        { type: 'TrickTaken', data: { deal: 1, trick: 1, winner: 1, cards: [{ seat: 1, card: 'AH' }, { seat: 2, card: 'AD' }, { seat: 0, card: '2H' }] } },
      ]);
    const view = publicView(fold([...after(playing(), play(1, 'AH'), play(2, 'AD')), ...events]));
    expect(view).toMatchObject({ turn: 1, trick: [], tricksTaken: [0, 1, 0], lastTrick: { winner: 1 } });
  });

  it('the highest trump wins the trick', () => {
    const start = after(playing({}, 'spades'), play(1, '6D'), play(2, '8D'));
    given(start).when(play(0, '2S')).then((e) => expect(e[1].data).toMatchObject({ winner: 0 }));
  });

  it('there is no obligation to trump by default', () => {
    given(after(playing({}, 'spades'), play(1, 'AC'), play(2, '2C'))).when(play(0, '2H')).then((e) => expect(e[1].data).toMatchObject({ winner: 1 }));
  });

  it('with mustTrump a seat void in the led suit that holds a trump must play one (MUST_TRUMP)', () => {
    const start = after(playing({ mustTrump: true }, 'spades'), play(1, 'AC'), play(2, '2C'));
    given(start).when(play(0, '2H')).thenThrows('MUST_TRUMP');
    expect(legalActions(fold(start), 0)).toMatchObject({ cards: expect.arrayContaining(['2S', 'AS']) });
    expect((legalActions(fold(start), 0) as { cards: string[] }).cards).toHaveLength(13);
    given(start).when(play(0, '2S')).then((e) => expect(e[1].data).toMatchObject({ winner: 0 }));
  });

  it('mustTrump asks for no over-trump and means nothing without a trump suit', () => {
    given(after(playing({ mustTrump: true }, 'notrump'), play(1, 'AC'), play(2, '2C'))).when(play(0, '2H')).then((e) => expect(e).toHaveLength(2));
  });

  it.each([
    ['a card the seat does not hold (CARD_NOT_IN_HAND)', 'AS', 'CARD_NOT_IN_HAND'],
    ['a card already laid away (CARD_NOT_IN_HAND)', '2D', 'CARD_NOT_IN_HAND'],
    ['a malformed code (VALIDATION_FAILED)', 'XX', 'VALIDATION_FAILED'],
    ['a lower-case code (VALIDATION_FAILED)', 'ah', 'VALIDATION_FAILED'],
  ] as [string, string, RuleErrorCode][])('forehand leading %s is refused', (_n, card, code) => {
    given(playing()).when(play(1, card)).thenThrows(code);
  });

  it.each([
    ['deal', { type: 'deal', seat: 0, deck: DECK }],
    ['chooseContract', { type: 'chooseContract', seat: 1, contract: 'pass' }],
    ['discard', { type: 'discard', seat: 1, cards: ['5H', '6H', '7H', '8H'] }],
  ] as [string, Command][])('%s during play is refused (WRONG_PHASE)', (_n, command) => {
    given(playing()).when(command).thenThrows('WRONG_PHASE');
  });
});

describe('a whole deal and a whole match', () => {
  it('after the 16th trick the deal is scored and the next dealer (one seat clockwise) deals', () => {
    const { events, state } = playUntil(history(create()), awaiting('awaitingDeal', 2));
    const scored = events.find((e) => e.type === 'DealScored') as Extract<BismarckEvent, { type: 'DealScored' }>;
    expect(events.filter((e) => e.type === 'TrickTaken')).toHaveLength(16);
    expect(scored.data.tricks.reduce((a, b) => a + b)).toBe(16);
    expect(scored.data.points.reduce((a, b) => a + b)).toBe(0);
    expect(publicView(state)).toMatchObject({ phase: 'deal', dealNumber: 1, dealer: 1, forehand: 2, turn: 1, totals: scored.data.totals });
  });

  it('after the last deal the match is finished and refuses every command (WRONG_PHASE)', () => {
    const { events, state } = playUntil(history(create({ schedule: 'quick' })), () => false);
    expect(events[events.length - 1].type).toBe('MatchFinished');
    expect(publicView(state)).toMatchObject({ status: 'finished', phase: 'finished', turn: null });
    for (const command of [
      { type: 'deal', seat: 0, deck: DECK },
      { type: 'chooseContract', seat: 1, contract: 'pass' },
      { type: 'discard', seat: 1, cards: DECK.slice(0, 4) },
      { type: 'playCard', seat: 1, card: 'AS' },
    ] as Command[])
      given(events).when(command).thenThrows('WRONG_PHASE');
    given(events).when(create()).thenThrows('MATCH_EXISTS');
    expect([0, 1, 2].map((s) => legalActions(state, s as Seat))).toEqual([null, null, null]);
  });

  it('decide never changes the state it is given, even when it refuses', () => {
    const state = fold(scripted());
    const before = JSON.stringify(state);
    expect(() => decide({ type: 'playCard', seat: 1, card: 'AH' }, state)).toThrow(RuleViolation);
    decide({ type: 'discard', seat: 1, cards: LAY_AWAY }, state);
    expect(JSON.stringify(state)).toBe(before);
    expect(initialState()).toEqual({ status: 'empty' });
  });
});
