import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { CommandHandler, EventStore, type Decision, type HandlerPolicy, type StreamModel } from '@bismarck/event-store';
import { decidePlayer, PlayerRuleViolation, type PlayerCommand, type PlayerErrorCode, type PlayerEvent } from '@bismarck/players';
import { foldPlayerEvents, NO_FOLDED_PLAYER, PLAYER_PROJECT_FUNCTION, projectPlayer, type FoldedPlayer, type PlayerProjectionArgument } from '@bismarck/projections';
import { ProblemException, type ProblemCode } from '../../platform/problem/problem';
import { hashToken, PLAYER_TOKEN_PREFIX } from '../tokens';

export interface NewToken {
  token: string;
  tokenId: string;
}
export interface PlayerCreated extends NewToken {
  id: string;
  name: string;
}

/**
 * Each refusal of the account rules as the HTTP contract answers it. Every command but a registration
 * acts for the caller's own account, found by its credential: one decided after the account's deletion
 * (a request racing `DELETE /api/players/me`) is answered as the same credential is a moment later,
 * 401, not a 404 the operations do not declare.
 */
const PROBLEM_OF: Record<PlayerErrorCode, ProblemCode> = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  PLAYER_EXISTS: 'CONCURRENT_UPDATE',
  PLAYER_NOT_FOUND: 'PLAYER_NOT_FOUND',
  PLAYER_DELETED: 'UNAUTHORIZED',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  TOKEN_NOT_FOUND: 'TOKEN_NOT_FOUND',
};

/** The `detail` of a refusal whose rules' message does not say it as the client should read it. */
const DETAIL_OF = {
  PLAYER_NOT_FOUND: (id: string) => `There is no player ${id}.`,
  PLAYER_DELETED: () => 'Unknown or revoked player token: the account was deleted.',
} satisfies Partial<Record<PlayerErrorCode, (id: string) => string>>;

/** A lost race is decided again on the log, as a match's is: 5 attempts in all, then 409. */
const ACCOUNT_POLICY: HandlerPolicy = {
  attempts: 5,
  exhausted: () => new ProblemException('CONCURRENT_UPDATE', 'The account changed while this was decided; send it again.'),
  isRefusal: (error) => error instanceof PlayerRuleViolation,
  // Every command is decided on the stream as read: an account that is not there is the rules' refusal.
  notFound: (id) => new ProblemException('PLAYER_NOT_FOUND', `There is no player ${id}.`),
  versionMismatch: (current) => new ProblemException('CONCURRENT_UPDATE', `The account is at version ${current}.`),
  keyReused: () => new ProblemException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first used for a different command.'),
};

const newToken = (): NewToken & { hash: string } => {
  const token = PLAYER_TOKEN_PREFIX + randomBytes(24).toString('base64url');
  return { token, tokenId: `tok_${randomBytes(9).toString('base64url')}`, hash: hashToken(token) };
};

/**
 * Player accounts (docs/players.md) as event streams written through the command handler: each command
 * reads the player's stream, lets the account rules decide, and appends at the version it read, with
 * the inline projection (`players`, and the token hashes beside the log) in the same transaction.
 */
@Injectable()
export class PlayerAccounts {
  private readonly handler: CommandHandler<FoldedPlayer, PlayerEvent>;

  constructor(store: EventStore) {
    const accounts: StreamModel<FoldedPlayer, PlayerEvent> = {
      empty: NO_FOLDED_PLAYER,
      // Nothing cached: the stream is read whole (a handful of events).
      load: async (id) => foldPlayerEvents(NO_FOLDED_PLAYER, await store.readStream(id)),
      readsLog: true,
      fold: (from, events, at) => foldPlayerEvents(from, events.map((e, i) => ({ ...e, version: from.version + 1 + i, recordedAt: at }))),
    };
    this.handler = new CommandHandler(store, accounts, ACCOUNT_POLICY);
  }

  async register(name: string): Promise<PlayerCreated> {
    const id = `pl-${randomUUID()}`;
    const issued = newToken();
    await this.write(id, { type: 'registerPlayer', playerId: id, name, tokenId: issued.tokenId }, issued.hash);
    return { id, name, token: issued.token, tokenId: issued.tokenId };
  }

  /** An account for an identity provider's user, at its first sign-in: no token (the provider's JWT is the credential). */
  async registerIdentity(id: string, name: string, identity: { issuer: string; subject: string }): Promise<void> {
    await this.write(id, { type: 'registerPlayer', playerId: id, name, identity });
  }

  async rename(id: string, name: string): Promise<void> {
    await this.write(id, { type: 'renamePlayer', name });
  }

  async issueToken(id: string): Promise<NewToken> {
    const issued = newToken();
    await this.write(id, { type: 'issueToken', tokenId: issued.tokenId }, issued.hash);
    return { token: issued.token, tokenId: issued.tokenId };
  }

  async revokeToken(id: string, tokenId: string): Promise<void> {
    await this.write(id, { type: 'revokeToken', tokenId });
  }

  async delete(id: string): Promise<void> {
    await this.write(id, { type: 'deletePlayer' });
  }

  private async write(id: string, command: PlayerCommand, tokenHash?: string): Promise<void> {
    await this.handler
      .handle<Decision<PlayerEvent>, void>(id, {
        // A stream not there yet is an account not registered yet: the rules refuse what needs one.
        expectedVersion: command.type === 'registerPlayer' ? 0 : undefined,
        decide: (known) => ({ events: decidePlayer(command, known.state), at: new Date().toISOString() }),
        answer: () => undefined,
        append: ({ after, events, at }) => {
          const issued = events.find((e) => e.type === 'TokenIssued');
          const arg: PlayerProjectionArgument = {
            player: projectPlayer(id, after)!,
            ...(issued && tokenHash ? { token: { token_hash: tokenHash, player_id: id, token_id: issued.data.tokenId, created_at: at } } : {}),
            ...(command.type === 'revokeToken' ? { revoked: [command.tokenId] } : {}),
          };
          return { events: events.map((e) => ({ ...e, metadata: { at } })), inline: { fn: PLAYER_PROJECT_FUNCTION, arg } };
        },
      })
      .catch((error: unknown) => {
        if (!(error instanceof PlayerRuleViolation)) throw error;
        throw new ProblemException(PROBLEM_OF[error.code], DETAIL_OF[error.code as keyof typeof DETAIL_OF]?.(id) ?? error.message);
      });
  }
}
