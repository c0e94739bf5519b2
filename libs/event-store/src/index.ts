export { EventStore } from './event-store';
export type { EventStoreOptions } from './event-store';
export { Subscription } from './subscription';
export type { SubscribeOptions } from './subscription';
export { ConcurrencyError, IdempotencyKeyReuseError } from './errors';
export { saveCheckpoint, loadCheckpoint, resetCheckpoint } from './checkpoints';
export { rowsOf } from './rows';
export { NOTIFY_CHANNEL } from './wakeups';
export type { ChannelHandler } from './wakeups';
export { START } from './types';
export type {
  AppendOptions,
  AppendResult,
  Appended,
  Replayed,
  Checkpoint,
  ExpectedVersion,
  IdempotencyOptions,
  NewEvent,
  Queryable,
  StoredEvent,
  StoredIdempotency,
  ProvenEvent,
} from './types';
export { EventStoreSchema1764400000000 } from './migrations/1764400000000-event-store-schema';
export { EventStoreAppendBatch1764500000000 } from './migrations/1764500000000-append-batch';
import { EventStoreSchema1764400000000 } from './migrations/1764400000000-event-store-schema';
import { EventStoreAppendBatch1764500000000 } from './migrations/1764500000000-append-batch';

/** The event store's migrations, in order. Combine with the app's: [...eventStoreMigrations, ...own]. */
export const eventStoreMigrations = [EventStoreSchema1764400000000, EventStoreAppendBatch1764500000000] as const;
export { CommandHandler } from './command-handler';
export type { Aggregate, Decision, HandlerPolicy, IdempotencyRequest, StreamCommand, StreamModel, Written } from './command-handler';
export { retrying } from './retry';
export type { RetryPolicy } from './retry';
