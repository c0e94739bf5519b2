/** The stream was not at the expected version. Nothing was written. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  readonly code = 'VERSION_MISMATCH';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(`stream ${streamId} is at version ${currentVersion}, expected ${expectedVersion}`);
  }
}

/** An idempotency key was reused with a different request. Nothing was written. */
export class IdempotencyKeyReuseError extends Error {
  override readonly name = 'IdempotencyKeyReuseError';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor(
    readonly streamId: string,
    readonly scope: string,
    readonly key: string,
  ) {
    super(`idempotency key ${key} (${scope}) on stream ${streamId} was used for a different request`);
  }
}
