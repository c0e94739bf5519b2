import { type Identity, type MatchFacts, botIdentity, isBotIdentity, isRated, seatIdentity } from '../src';

const registered: Identity[] = ['ann', 'bob', 'cat'];
const withBots: Identity[] = ['ann', botIdentity('strong'), botIdentity('greedy')];
const fair = { finished: true, seeded: false, forked: false };

describe('isRated: which finished matches count', () => {
  it.each([
    ['three registered players, fair, finished', { ...fair, seats: registered }, true],
    ['players and bots', { ...fair, seats: withBots }, true],
    ['three bots', { ...fair, seats: [botIdentity('random'), botIdentity('random'), botIdentity('strong')] }, true],
    ['an anonymous person at the table', { ...fair, seats: ['ann', null, 'cat'] }, false],
    ['three anonymous people', { ...fair, seats: [null, null, null] }, false],
    ['a seeded match', { ...fair, seeded: true, seats: registered }, false],
    ['a fork (always seeded)', { ...fair, seeded: true, forked: true, seats: registered }, false],
    ['a fork, even were it not seeded', { ...fair, forked: true, seats: registered }, false],
    ['a match still in play', { ...fair, finished: false, seats: registered }, false],
    ['not three seats', { ...fair, seats: ['ann', 'bob'] }, false],
  ] as [string, MatchFacts, boolean][])('%s → %s', (_name, facts, rated) => {
    expect(isRated(facts)).toBe(rated);
  });
});

describe('identities', () => {
  it('names each bot kind bot:<strategy>', () => {
    expect(['strong', 'greedy', 'random'].map(botIdentity)).toEqual(['bot:strong', 'bot:greedy', 'bot:random']);
    expect(isBotIdentity('bot:strong')).toBe(true);
    expect(isBotIdentity('0b3c7e1a-ann')).toBe(false);
  });

  it.each([
    ['a bot seat is its kind', { bot: 'strong', player: null }, 'bot:strong'],
    ['a bound seat is its player', { bot: null, player: 'p-42' }, 'p-42'],
    ['an anonymous seat is nobody', { bot: null, player: null }, null],
  ] as [string, { bot: string | null; player: string | null }, Identity | null][])('%s', (_name, seat, identity) => {
    expect(seatIdentity(seat)).toBe(identity);
  });
});
