import { MatchCreators } from './match-creators';

describe('MatchCreators: who created a match, in this process only', () => {
  it('answers the address that created a match, and the match itself when unknown here', () => {
    const creators = new MatchCreators();
    creators.remember('m1', '127.0.0.2');
    creators.remember('m2', '127.0.0.2');
    creators.remember('m3', undefined);
    expect(creators.of('m1')).toBe('address:127.0.0.2');
    expect(creators.of('m2')).toBe(creators.of('m1'));
    // Created elsewhere (another instance, before a restart), or without an address: its own creator.
    expect(creators.of('m3')).toBe('match:m3');
    expect(creators.of('m4')).toBe('match:m4');
  });

  it('forgets the oldest matches first beyond 50,000', () => {
    const creators = new MatchCreators();
    for (let i = 0; i <= 50_000; i++) creators.remember(`m${i}`, `10.0.${i % 256}.1`);
    expect(creators.of('m0')).toBe('match:m0');
    expect(creators.of('m1')).toBe('address:10.0.1.1');
    expect(creators.of('m50000')).toBe('address:10.0.80.1');
  });
});
