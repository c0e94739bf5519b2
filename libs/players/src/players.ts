// A player's account as an event stream of its own (docs/players.md), decided like a match: the
// service brings every fact from outside (ids, the time, a token's id), the rules decide the events,
// and the state is the fold of them. A token's secret and its hash never enter the log: the stream
// records only that a token with this id was issued or revoked (the hash is kept beside the log).

/** The most tokens a player holds at once: one per device or client is plenty. */
export const MAX_TOKENS = 20;
/** The name a deleted player's account shows (the log keeps the old names in the player's own stream). */
export const DELETED_NAME = 'deleted player';

// ---- commands ------------------------------------------------------------------------------------

export interface RegisterPlayer {
  type: 'registerPlayer';
  playerId: string;
  name: string;
  /** The first token, issued with the account; none for an account an identity provider's sign-in registered. */
  tokenId?: string;
  /** The identity provider's user the account belongs to (OpenID Connect `iss` and `sub`), kept in the player's own stream only. */
  identity?: PlayerIdentity;
}

/** An OpenID Connect identity: the issuer and its opaque, never reassigned subject id. */
export interface PlayerIdentity {
  issuer: string;
  subject: string;
}
export interface RenamePlayer {
  type: 'renamePlayer';
  name: string;
}
export interface IssueToken {
  type: 'issueToken';
  tokenId: string;
}
export interface RevokeToken {
  type: 'revokeToken';
  tokenId: string;
}
export interface DeletePlayer {
  type: 'deletePlayer';
}
export type PlayerCommand = RegisterPlayer | RenamePlayer | IssueToken | RevokeToken | DeletePlayer;

// ---- events --------------------------------------------------------------------------------------

export type PlayerEvent =
  | { type: 'PlayerRegistered'; data: { playerId: string; name: string; identity?: PlayerIdentity } }
  | { type: 'PlayerRenamed'; data: { name: string } }
  | { type: 'TokenIssued'; data: { tokenId: string } }
  | { type: 'TokenRevoked'; data: { tokenId: string } }
  /** Every token goes with the account; the name is shown as DELETED_NAME from here on. */
  | { type: 'PlayerDeleted'; data: Record<string, never> };

export const PLAYER_EVENT_TYPES: readonly PlayerEvent['type'][] = ['PlayerRegistered', 'PlayerRenamed', 'TokenIssued', 'TokenRevoked', 'PlayerDeleted'];

// ---- state ---------------------------------------------------------------------------------------

export type PlayerState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly playerId: string; readonly name: string; readonly tokens: readonly string[] }
  | { readonly status: 'deleted'; readonly playerId: string };

export const NO_PLAYER: PlayerState = { status: 'none' };

// ---- refusals ------------------------------------------------------------------------------------

export type PlayerErrorCode = 'VALIDATION_FAILED' | 'PLAYER_EXISTS' | 'PLAYER_NOT_FOUND' | 'PLAYER_DELETED' | 'TOO_MANY_TOKENS' | 'TOKEN_NOT_FOUND';

/** The one error the account rules throw; `code` is a stable string of the HTTP contract. */
export class PlayerRuleViolation extends Error {
  constructor(
    readonly code: PlayerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PlayerRuleViolation';
  }
}

const refuse = (code: PlayerErrorCode, message: string): never => {
  throw new PlayerRuleViolation(code, message);
};

/** A name: not empty, not only spaces, at most 40 characters (the HTTP layer checks the printable characters). */
export const isPlayerName = (value: unknown): value is string => typeof value === 'string' && value.length <= 40 && value.trim().length > 0;

// ---- decide and evolve ---------------------------------------------------------------------------

export function decidePlayer(command: PlayerCommand, state: PlayerState): PlayerEvent[] {
  if (command.type === 'registerPlayer') {
    if (state.status !== 'none') refuse('PLAYER_EXISTS', 'this player exists already');
    if (!isPlayerName(command.name)) refuse('VALIDATION_FAILED', 'name must be 1 to 40 printable characters, not only spaces');
    const registered: PlayerEvent = {
      type: 'PlayerRegistered',
      data: { playerId: command.playerId, name: command.name, ...(command.identity ? { identity: { issuer: command.identity.issuer, subject: command.identity.subject } } : {}) },
    };
    return command.tokenId === undefined ? [registered] : [registered, { type: 'TokenIssued', data: { tokenId: command.tokenId } }];
  }
  if (state.status === 'none') return refuse('PLAYER_NOT_FOUND', 'there is no such player');
  if (state.status === 'deleted') return refuse('PLAYER_DELETED', 'this player deleted the account');
  switch (command.type) {
    case 'renamePlayer':
      if (!isPlayerName(command.name)) refuse('VALIDATION_FAILED', 'name must be 1 to 40 printable characters, not only spaces');
      return command.name === state.name ? [] : [{ type: 'PlayerRenamed', data: { name: command.name } }];
    case 'issueToken':
      if (state.tokens.length >= MAX_TOKENS) refuse('TOO_MANY_TOKENS', `a player holds at most ${MAX_TOKENS} tokens: revoke one first`);
      return [{ type: 'TokenIssued', data: { tokenId: command.tokenId } }];
    case 'revokeToken':
      if (!state.tokens.includes(command.tokenId)) refuse('TOKEN_NOT_FOUND', 'this player has no such token');
      return [{ type: 'TokenRevoked', data: { tokenId: command.tokenId } }];
    case 'deletePlayer':
      return [{ type: 'PlayerDeleted', data: {} }];
    default:
      return unknownCommand(command);
  }
}

const unknownCommand = (command: never): never => refuse('VALIDATION_FAILED', `unknown command ${JSON.stringify((command as { type?: unknown }).type)}`);

export function evolvePlayer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'PlayerRegistered':
      return state.status === 'none' ? { status: 'active', playerId: event.data.playerId, name: event.data.name, tokens: [] } : state;
    case 'PlayerRenamed':
      return state.status === 'active' ? { ...state, name: event.data.name } : state;
    case 'TokenIssued':
      return state.status === 'active' ? { ...state, tokens: [...state.tokens, event.data.tokenId] } : state;
    case 'TokenRevoked':
      return state.status === 'active' ? { ...state, tokens: state.tokens.filter((t) => t !== event.data.tokenId) } : state;
    case 'PlayerDeleted':
      return state.status === 'active' ? { status: 'deleted', playerId: state.playerId } : state;
  }
}

export const foldPlayer = (events: readonly PlayerEvent[], from: PlayerState = NO_PLAYER): PlayerState => events.reduce(evolvePlayer, from);

/** The name the account shows to others. */
export const shownName = (state: PlayerState): string | null => (state.status === 'active' ? state.name : state.status === 'deleted' ? DELETED_NAME : null);

// ---- streams -------------------------------------------------------------------------------------

/** A player's id is the id of its stream: `pl-` and a UUID, told apart from a match's id at a glance. */
export const PLAYER_ID = /^pl-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isPlayerId = (value: unknown): value is string => typeof value === 'string' && PLAYER_ID.test(value);
/** The log holds matches and players: a stream whose id is a player's is an account. */
export const isPlayerStream = (streamId: string): boolean => streamId.startsWith('pl-');
