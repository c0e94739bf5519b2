import { decide, evolve, initialState, shuffleDeck, type BismarckEvent, type Command, type MatchState, type Seat } from '@bismarck/rules';
import { botToAct } from './bot-runner.service';

// Which bot seat the runner lets act in a state: the seat whose turn it is, a bot on the dealer's
// right cutting first, nobody in a match of persons or a match that is over.
const play = (state: MatchState, command: Command): MatchState => decide(command, state).reduce<MatchState>((s, e: BismarckEvent) => evolve(s, e), state);
const created = (bots: (string | null)[], firstDealer: Seat = 0): MatchState =>
  play(initialState(), {
    type: 'createMatch',
    matchId: 'm',
    players: ['A', 'B', 'C'],
    bots: bots as [string | null, string | null, string | null],
    firstDealer,
    seeded: false,
    options: { schedule: 'quick' },
    dealer: { commitment: 'c'.repeat(64) },
  });

describe('botToAct', () => {
  it.each<[string, (string | null)[], Seat | null]>([
    ['a match of persons: nobody', [null, null, null], null],
    ['a bot dealer deals', ['greedy', null, null], 0],
    ["a bot on the dealer's right cuts before a person deals", [null, null, 'random'], 2],
    ["a bot on the dealer's right cuts before a bot dealer deals", ['greedy', null, 'random'], 2],
    ['a bot who is neither dealer nor cutter waits', [null, 'greedy', null], null],
  ])('%s', (_name, bots, seat) => {
    expect(botToAct(created(bots, 0))).toBe(seat);
  });

  it('after the cut, the bot dealer deals; a finished match has nobody to act', () => {
    const cut = play(created(['greedy', null, 'random'], 0), { type: 'cut', seat: 2, cut: 'x' });
    expect(botToAct(cut)).toBe(0);
    const dealt = play(cut, { type: 'deal', seat: 0, deck: shuffleDeck('spec', 1) });
    // Forehand (seat 1) is a person: no bot acts.
    expect(botToAct(dealt)).toBeNull();
    expect(botToAct({ ...(dealt as object), status: 'finished', winners: [0], previous: null } as unknown as MatchState)).toBeNull();
  });
});
