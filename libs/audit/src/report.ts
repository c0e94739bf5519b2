import type { BismarckEvent, ForkedFrom } from '@bismarck/rules';
import type { ExportedEvent } from './chain';

export const EXPORT_FORMAT = 'bismarck-export-v1';

/** A match as one self-contained document: the whole log with its proofs. */
export interface ExportedMatch {
  format: typeof EXPORT_FORMAT;
  matchId: string;
  exportedAt: string;
  /** True when created with a caller's seed: reproducible, NOT provably fair. */
  seeded: boolean;
  events: ExportedEvent[];
}

/** The checks, in the order a report lists them (`pin` only when a pin is given). */
export const AUDIT_CHECKS = ['chain', 'complete', 'pin', 'commitments', 'decks', 'rules', 'scores'] as const;

export interface AuditCheck {
  name: (typeof AUDIT_CHECKS)[number];
  ok: boolean;
  /** What was checked, or what failed. Never a card that is still secret. */
  detail: string;
  /** The first event version that fails this check. */
  failedAt: number | null;
}

/** What the log is checked against, beyond itself. */
export interface AuditExpectations {
  /** The log must be a whole finished match (an export): it ends in MatchFinished (and, maybe, RematchOffered). */
  finished?: boolean;
  /** The version the service recorded for the match elsewhere (its projection): the log must reach it. */
  recordedVersion?: number;
  /** A hash a client kept during play (a checkpoint): the log must hold it at that version. */
  pin?: ChainPin;
}

/** One point of the hash chain as a client saw it. */
export interface ChainPin {
  version: number;
  /** Lowercase hex SHA-256. */
  hash: string;
}

/** `<version>:<hash>`, as `GET …/audit?pin=` and `verify --pin` take a pin; null when it is not one. */
export const PIN_PATTERN = /^([1-9][0-9]{0,9}):([0-9a-fA-F]{64})$/;

export function parsePin(text: string): ChainPin | null {
  const m = PIN_PATTERN.exec(text);
  if (!m || Number(m[1]) > 2 ** 31 - 1) return null;
  return { version: Number(m[1]), hash: m[2].toLowerCase() };
}

export interface AuditReport {
  ok: boolean;
  matchId: string;
  version: number;
  /** From the hashed MatchCreated, never from the document's envelope. */
  seeded: boolean;
  /** A fork's origin, from the hashed MatchCreated (a fork is always seeded); null for any other match. */
  forkedFrom: ForkedFrom | null;
  /** Deals whose deck provably neither the server nor a seat alone chose (committed seed, seat's cut, revealed). */
  provablyFairDeals: number[];
  scoredDeals: number[];
  checks: AuditCheck[];
  /** The first event version that fails any check. */
  firstFailure: number | null;
}

/** The export document of a match from its whole log (the events keep only what the hash covers, and the hash). */
export function exportOf(matchId: string, events: readonly ExportedEvent[], exportedAt = new Date().toISOString()): ExportedMatch {
  const created = events[0]?.type === 'MatchCreated' ? (events[0].data as { seeded?: boolean }) : {};
  return {
    format: EXPORT_FORMAT,
    matchId,
    exportedAt,
    seeded: created.seeded === true,
    events: events.map(({ version, type, data, metadata, recordedAt, recordedAtMicros, hash }) => ({ version, type, data, metadata, recordedAt, recordedAtMicros, hash })),
  };
}

/** The checks' verdicts: a check stops at its first failure, at the version it names. */
export const pass = (name: AuditCheck['name'], detail: string): AuditCheck => ({ name, ok: true, detail, failedAt: null });
export const fail = (name: AuditCheck['name'], failedAt: number, detail: string): AuditCheck => ({ name, ok: false, detail, failedAt });

/** A rules event of one type, as a logged event's data is read. */
export type E<T extends BismarckEvent['type']> = Extract<BismarckEvent, { type: T }>;
