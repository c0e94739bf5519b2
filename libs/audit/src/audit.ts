import { checkCommitments, checkDecks, checkScores, fairDeals } from './deal-checks';
import { checkChain, checkComplete, checkPin, hashedForkedFrom, hashedSeeded } from './log-checks';
import { checkRules } from './replay';
import type { AuditExpectations, AuditReport, E, ExportedMatch } from './report';

/**
 * Checks a match from its full log alone: the hash chain, every commitment against its revealed seed,
 * every deck re-derived and compared with the cards dealt, every decision replayed through the rules,
 * and the scores recomputed. Pure: the same function runs in the service and offline (`verify`).
 */
export function auditMatch(exported: ExportedMatch, expect: AuditExpectations = {}): AuditReport {
  const events = exported.events;
  // The envelope's `seeded` is covered by no hash: a flipped flag must not switch checks off.
  const doc = { ...exported, seeded: hashedSeeded(events) };
  const scoredDeals = events.filter((e) => e.type === 'DealScored').map((e) => (e.data as E<'DealScored'>['data']).deal);
  const checks = [
    checkChain(doc),
    checkComplete(exported, doc.seeded, expect),
    ...(expect.pin ? [checkPin(doc, expect.pin)] : []),
    checkCommitments(doc, new Set(scoredDeals)),
    checkDecks(doc, new Set(scoredDeals)),
    checkRules(events),
    checkScores(events),
  ];
  const failures = checks.map((c) => c.failedAt).filter((v): v is number => v !== null);
  return {
    ok: checks.every((c) => c.ok),
    matchId: doc.matchId,
    version: events.length,
    seeded: doc.seeded,
    forkedFrom: hashedForkedFrom(events),
    provablyFairDeals: doc.seeded ? [] : fairDeals(events, new Set(scoredDeals)),
    scoredDeals,
    checks,
    firstFailure: failures.length ? Math.min(...failures) : null,
  };
}
