// given(events).when(command).then(events) / .thenThrows(code): the decider's tests read as sentences.
import { type BismarckEvent, type Command, type MatchState, type RuleErrorCode, type Triple, RuleViolation, decide, dealHands, fold, parseCard, cardCode } from '../src';
import type { Card, MatchOptions, Seat } from '../src';

export const given = (history: BismarckEvent[]) => {
  const state = fold(history);
  return {
    state,
    when: (command: Command) => ({
      then: (expected: BismarckEvent[] | ((events: BismarckEvent[]) => void)) => {
        const events = decide(command, state);
        if (typeof expected === 'function') expected(events);
        else expect(events).toEqual(expected);
        return events;
      },
      thenThrows: (code: RuleErrorCode) => {
        const before = JSON.stringify(state);
        let caught: unknown;
        try {
          decide(command, state);
        } catch (e) {
          caught = e;
        }
        expect(caught).toBeInstanceOf(RuleViolation);
        expect((caught as RuleViolation).code).toBe(code);
        expect(JSON.stringify(state)).toBe(before);
        return caught as RuleViolation;
      },
    }),
  };
};

/** Runs commands from nothing and returns every event they produced (a quick way to build a history). */
export const history = (...commands: Command[]): BismarckEvent[] => {
  const events: BismarckEvent[] = [];
  let state: MatchState = fold([]);
  for (const c of commands) {
    const produced = decide(c, state);
    events.push(...produced);
    state = fold(produced, state);
  }
  return events;
};

export const create = (options: Partial<MatchOptions> = {}, firstDealer: Seat = 0): Command => ({
  type: 'createMatch',
  matchId: 'match-1',
  players: ['Ann', 'Bob', 'Cyd'],
  options,
  firstDealer,
  seeded: true,
});

/** A deck that deals `table` face up and exactly `hands` to the seats (forehand is dealt first). */
export const deckFor = (table: Card[], hands: Triple<Card[]>, forehand: Seat): Card[] => {
  const deck = table.slice();
  for (let i = 0; i < 48; i++) deck.push(hands[(forehand + i) % 3][Math.floor(i / 3)]);
  const check = dealHands(deck.map(parseCard), forehand).map((h) => h.map(cardCode).sort());
  expect(check).toEqual(hands.map((h) => h.slice().sort()));
  return deck;
};

const range = (suit: string, ranks: string) => ranks.split('').map((r) => r + suit);

/**
 * The scripted deal of these tests (first dealer 0: dealer 0, forehand 1):
 *   seat 0: all 13 spades + 2H 3H 4H
 *   seat 1 (forehand): 5H..AH + 2D..7D, then the table cards JC QC KC AC
 *   seat 2: 8D..AD + 2C..TC
 */
export const SCRIPTED_HANDS: Triple<Card[]> = [
  [...range('S', '23456789TJQKA'), '2H', '3H', '4H'],
  [...range('H', '56789TJQKA'), ...range('D', '234567')],
  [...range('D', '89TJQKA'), ...range('C', '23456789T')],
];
export const SCRIPTED_TABLE: Card[] = ['JC', 'QC', 'KC', 'AC'];
export const scriptedDeck = (): Card[] => deckFor(SCRIPTED_TABLE, SCRIPTED_HANDS, 1);
