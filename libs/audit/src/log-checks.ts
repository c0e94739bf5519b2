import type { ForkedFrom } from '@bismarck/rules';
import { eventHash, type ExportedEvent } from './chain';
import { fail, pass, type AuditCheck, type AuditExpectations, type ChainPin, type ExportedMatch } from './report';

// The log as a document: its hash chain, a client's pin on it, and its end.

export function checkChain(doc: ExportedMatch): AuditCheck {
  let previous: string | null = null;
  for (const [i, e] of doc.events.entries()) {
    if (e.version !== i + 1) return fail('chain', i + 1, `event ${i + 1} has version ${e.version}: the log is not gapless and in order`);
    let expected: string;
    try {
      expected = eventHash(previous, doc.matchId, e);
    } catch (error) {
      return fail('chain', e.version, `event ${e.version} cannot be hashed: ${(error as Error).message}`);
    }
    if (expected !== e.hash) return fail('chain', e.version, `event ${e.version}'s hash does not match its content and its predecessor`);
    previous = e.hash;
  }
  return pass('chain', `${doc.events.length} events, versions 1..${doc.events.length}, every hash covers its predecessor`);
}

/**
 * The log still holds the hash a client pinned. The chain links each hash to everything before it,
 * so a match here proves that no event up to the pinned version was changed, dropped or reordered.
 */
export function checkPin(doc: ExportedMatch, pin: ChainPin): AuditCheck {
  const event = doc.events[pin.version - 1];
  if (!event) return fail('pin', pin.version, `the log ends at version ${doc.events.length}, before the pinned version ${pin.version}: it was cut short`);
  if (event.hash !== pin.hash.toLowerCase()) {
    return fail('pin', pin.version, `the log's hash at version ${pin.version} is not the pinned one: an event up to that version was changed since it was pinned`);
  }
  return pass('pin', `the log holds the pinned hash at version ${pin.version}: nothing up to there changed since`);
}

/** Where a fork starts, as its hashed MatchCreated says (the rules check that it is a seeded match's). */
export function hashedForkedFrom(events: ExportedEvent[]): ForkedFrom | null {
  const from = events[0]?.type === 'MatchCreated' ? (events[0].data as { forkedFrom?: ForkedFrom }).forkedFrom : undefined;
  return from && typeof from.matchId === 'string' && typeof from.version === 'number' ? { matchId: from.matchId, version: from.version } : null;
}

/** The `seeded` flag of the hashed MatchCreated (a log without one is the chain and rules checks' finding). */
export function hashedSeeded(events: ExportedEvent[]): boolean {
  return events[0]?.type === 'MatchCreated' && (events[0].data as { seeded?: unknown }).seeded === true;
}

/** The log is whole: nothing cut off its end, and the envelope says what the hashed events say. */
export function checkComplete(exported: ExportedMatch, seeded: boolean, expect: AuditExpectations): AuditCheck {
  const events = exported.events;
  if (exported.seeded !== undefined && exported.seeded !== seeded) {
    return fail('complete', 1, `the document says seeded=${exported.seeded}, but the hashed MatchCreated says seeded=${seeded}`);
  }
  const finishedAt = events.findIndex((e) => e.type === 'MatchFinished');
  // After the end, only the offer of a rematch (the rules check that it comes once).
  const after = finishedAt < 0 ? [] : events.slice(finishedAt + 1);
  const trailing = after.findIndex((e) => e.type !== 'RematchOffered');
  if (trailing >= 0) return fail('complete', finishedAt + trailing + 2, 'events follow MatchFinished');
  if (expect.finished && finishedAt < 0) {
    return fail('complete', events.length + 1, `the log ends at version ${events.length} without MatchFinished: a finished match's log is cut short`);
  }
  if (expect.recordedVersion !== undefined && expect.recordedVersion > events.length) {
    return fail('complete', events.length + 1, `the service recorded version ${expect.recordedVersion}, but the log holds ${events.length} events: its end is missing`);
  }
  const end =
    finishedAt >= 0
      ? `ends in MatchFinished${after.length > 0 ? ' (then RematchOffered)' : ''}`
      : `reaches the recorded version ${expect.recordedVersion ?? events.length}`;
  return pass('complete', `the log ${end}; the seeded flag is the hashed one (${seeded})`);
}
