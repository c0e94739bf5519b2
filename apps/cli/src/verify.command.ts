import { readFileSync } from 'node:fs';
import { auditMatch, EXPORT_FORMAT, parsePin, type ExportedMatch } from '@bismarck/audit';

/** Checks an exported match offline: no server, no database. Exit status 0 when every check passes. */
export function verifyCommand(file: string, options: { pin?: string } = {}): void {
  const pin = options.pin === undefined ? undefined : parsePin(options.pin);
  if (pin === null) {
    console.error('--pin must be <version>:<64 hex digits>, a checkpoint kept during play');
    process.exit(1);
  }
  let doc: ExportedMatch;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as ExportedMatch;
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    process.exit(1);
  }
  if (doc?.format !== EXPORT_FORMAT || !Array.isArray(doc.events)) {
    console.error(`${file} is not a ${EXPORT_FORMAT} document`);
    process.exit(1);
  }
  // An export is made of a finished match only: one without MatchFinished (only a RematchOffered may follow it) is cut short.
  const report = auditMatch(doc, { finished: true, pin });
  console.log(`match ${report.matchId}: ${report.version} events, ${report.scoredDeals.length} deals scored${report.seeded ? ' (seeded: NOT provably fair)' : ''}`);
  if (report.forkedFrom) console.log(`  a fork of match ${report.forkedFrom.matchId} at version ${report.forkedFrom.version}`);
  for (const check of report.checks) console.log(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name.padEnd(12)} ${check.detail}`);
  if (!report.seeded) console.log(`  provably fair deals: ${report.provablyFairDeals.join(', ') || 'none (no deal was cut by a seat)'}`);
  if (report.ok) {
    console.log('verified');
    return;
  }
  console.log(`NOT verified: the first failing event is version ${report.firstFailure}`);
  process.exitCode = 1;
}
