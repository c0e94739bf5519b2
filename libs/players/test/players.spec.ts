import { decidePlayer, DELETED_NAME, evolvePlayer, foldPlayer, isPlayerId, isPlayerStream, MAX_TOKENS, NO_PLAYER, PlayerRuleViolation, shownName, type PlayerCommand, type PlayerState } from '@bismarck/players';

const ID = 'pl-0f8fad5b-d9cb-469f-a165-70867728950e';
const run = (commands: PlayerCommand[]): PlayerState =>
  commands.reduce<PlayerState>((state, command) => decidePlayer(command, state).reduce(evolvePlayer, state), NO_PLAYER);
const refused = (command: PlayerCommand, state: PlayerState): string => {
  try {
    decidePlayer(command, state);
  } catch (error) {
    if (error instanceof PlayerRuleViolation) return error.code;
    throw error;
  }
  return 'accepted';
};

describe('a player account', () => {
  const registered = run([{ type: 'registerPlayer', playerId: ID, name: 'Astrid', tokenId: 't1' }]);

  it('registers with its first token, and shows its name', () => {
    expect(decidePlayer({ type: 'registerPlayer', playerId: ID, name: 'Astrid', tokenId: 't1' }, NO_PLAYER)).toEqual([
      { type: 'PlayerRegistered', data: { playerId: ID, name: 'Astrid' } },
      { type: 'TokenIssued', data: { tokenId: 't1' } },
    ]);
    expect(registered).toEqual({ status: 'active', playerId: ID, name: 'Astrid', tokens: ['t1'] });
    expect(shownName(registered)).toBe('Astrid');
  });


  it("registers an identity provider's user with no token, the identity kept in PlayerRegistered; it may mint tokens later", () => {
    const identity = { issuer: 'https://id.example', subject: '248289761001' };
    const events = decidePlayer({ type: 'registerPlayer', playerId: ID, name: 'Astrid', identity }, NO_PLAYER);
    expect(events).toEqual([{ type: 'PlayerRegistered', data: { playerId: ID, name: 'Astrid', identity } }]);
    const state = foldPlayer(events);
    expect(state).toEqual({ status: 'active', playerId: ID, name: 'Astrid', tokens: [] });
    expect(decidePlayer({ type: 'issueToken', tokenId: 't1' }, state)).toEqual([{ type: 'TokenIssued', data: { tokenId: 't1' } }]);
    expect(refused({ type: 'registerPlayer', playerId: ID, name: 'Astrid', identity }, state)).toBe('PLAYER_EXISTS');
  });
  it('refuses a second registration, a blank or too long name, and any command before registration', () => {
    expect(refused({ type: 'registerPlayer', playerId: ID, name: 'B', tokenId: 't2' }, registered)).toBe('PLAYER_EXISTS');
    expect(refused({ type: 'registerPlayer', playerId: ID, name: '   ', tokenId: 't2' }, NO_PLAYER)).toBe('VALIDATION_FAILED');
    expect(refused({ type: 'renamePlayer', name: 'x'.repeat(41) }, registered)).toBe('VALIDATION_FAILED');
    expect(refused({ type: 'renamePlayer', name: 'Bjørn' }, NO_PLAYER)).toBe('PLAYER_NOT_FOUND');
    expect(refused({ type: 'issueToken', tokenId: 't2' }, NO_PLAYER)).toBe('PLAYER_NOT_FOUND');
  });

  it('renames (the same name again appends nothing)', () => {
    expect(shownName(run([{ type: 'registerPlayer', playerId: ID, name: 'Astrid', tokenId: 't1' }, { type: 'renamePlayer', name: 'Åsa' }]))).toBe('Åsa');
    expect(decidePlayer({ type: 'renamePlayer', name: 'Astrid' }, registered)).toEqual([]);
  });

  it('issues tokens up to MAX_TOKENS, revokes only its own, and frees a place by revoking', () => {
    let state = registered;
    for (let i = 2; i <= MAX_TOKENS; i++) state = decidePlayer({ type: 'issueToken', tokenId: `t${i}` }, state).reduce(evolvePlayer, state);
    expect(state.status === 'active' && state.tokens.length).toBe(MAX_TOKENS);
    expect(refused({ type: 'issueToken', tokenId: 'one-too-many' }, state)).toBe('TOO_MANY_TOKENS');
    expect(refused({ type: 'revokeToken', tokenId: 'not-mine' }, state)).toBe('TOKEN_NOT_FOUND');
    state = decidePlayer({ type: 'revokeToken', tokenId: 't1' }, state).reduce(evolvePlayer, state);
    expect(state.status === 'active' && state.tokens.includes('t1')).toBe(false);
    expect(refused({ type: 'revokeToken', tokenId: 't1' }, state)).toBe('TOKEN_NOT_FOUND');
    expect(refused({ type: 'issueToken', tokenId: 'again' }, state)).toBe('accepted');
  });

  it('is deleted for good: its name is "deleted player" and every later command is refused', () => {
    const deleted = run([{ type: 'registerPlayer', playerId: ID, name: 'Astrid', tokenId: 't1' }, { type: 'deletePlayer' }]);
    expect(deleted).toEqual({ status: 'deleted', playerId: ID });
    expect(shownName(deleted)).toBe(DELETED_NAME);
    for (const command of [{ type: 'renamePlayer', name: 'A' }, { type: 'issueToken', tokenId: 'x' }, { type: 'revokeToken', tokenId: 't1' }, { type: 'deletePlayer' }] as PlayerCommand[]) {
      expect(refused(command, deleted)).toBe('PLAYER_DELETED');
    }
  });

  it('folds to the same state as deciding step by step', () => {
    const events = [
      ...decidePlayer({ type: 'registerPlayer', playerId: ID, name: 'Astrid', tokenId: 't1' }, NO_PLAYER),
      { type: 'PlayerRenamed' as const, data: { name: 'Åsa' } },
      { type: 'TokenIssued' as const, data: { tokenId: 't2' } },
      { type: 'TokenRevoked' as const, data: { tokenId: 't1' } },
    ];
    expect(foldPlayer(events)).toEqual({ status: 'active', playerId: ID, name: 'Åsa', tokens: ['t2'] });
  });

  it('tells a player id (its stream) from a match id', () => {
    expect(isPlayerId(ID)).toBe(true);
    expect(isPlayerId('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
    expect(isPlayerId(`${ID}x`)).toBe(false);
    expect(isPlayerStream(ID)).toBe(true);
    expect(isPlayerStream('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
  });
});
