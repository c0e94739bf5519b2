import { createHash } from 'node:crypto';
import { jsonbText } from './jsonb';

/** One event as exported: everything its hash covers, and the hash. */
export interface ExportedEvent {
  version: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  /** ISO 8601, for people. */
  recordedAt: string;
  /** Microseconds since the Unix epoch, as the hash covers it (a decimal string). */
  recordedAtMicros: string;
  /** Lowercase hex SHA-256. */
  hash: string;
}

/**
 * The hash the event store gives an event (es_event_hash in libs/event-store):
 * SHA-256(previous hash bytes || UTF-8 of jsonb text of [stream, version, type, data, metadata, micros]).
 */
export function eventHash(previousHex: string | null, streamId: string, e: Omit<ExportedEvent, 'hash' | 'recordedAt'>): string {
  const text = jsonbText([streamId, e.version, e.type, e.data, e.metadata, BigInt(e.recordedAtMicros)]);
  return createHash('sha256')
    .update(Buffer.from(previousHex ?? '', 'hex'))
    .update(text, 'utf8')
    .digest('hex');
}
