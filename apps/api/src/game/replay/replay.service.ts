import { Injectable } from '@nestjs/common';
import { auditMatch, exportOf, parsePin, type AuditReport, type ExportedMatch } from '@bismarck/audit';
import { EventStore } from '@bismarck/event-store';
import { evolve, initialState, isDealRevealed, publicView, seatOwn, seatView, type BismarckEvent, type Viewer } from '@bismarck/rules';
import { invalidParameter, ProblemException } from '../../platform/problem/problem';
import { MatchQueries } from '../matches/match-queries.service';
import { toDomainEvent } from '@bismarck/match';
import { MatchFolds } from '../matches/match-folds.service';

export interface ReplayView {
  /** The state right after this event. */
  replayVersion: number;
  /** The match's version now. */
  latestVersion: number;
  /** The view as the caller may see it; a scored deal shows every hand. */
  view: Record<string, unknown>;
  /** Present when the deal on the table at this version has been scored since: nothing of it is secret. */
  revealed: { deal: number; hands: string[][]; laidAway: string[] | null; deck: string[] | null } | null;
}

export interface AuditResult extends AuditReport {
  /** The database's own check of the hash chain (es_verify_stream), independent of the replay. */
  databaseChain: { ok: boolean; brokenAt: number | null };
}

/** Any moment of a match as the caller may see it, the audit, and the self-contained export. */
@Injectable()
export class ReplayService {
  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
    private readonly queries: MatchQueries,
  ) {}

  async replay(id: string, version: number, viewer: Viewer): Promise<ReplayView> {
    // Caught up with the log first: another instance may have appended what this one has not seen.
    const latest = await this.folds.load(id, true);
    if (!latest) throw notFound(id);
    if (version > latest.version) {
      throw invalidParameter('version', `version must be at most ${latest.version}, the match's current version.`);
    }
    const stored = await this.store.readStream(id, { limit: version });
    const events = stored.map(toDomainEvent);
    const state = events.reduce(evolve, initialState());
    // The clock as it ran at that moment: the turn began when its last event was recorded.
    const pub = publicView(state, stored.at(-1)?.recordedAt ?? null);
    const view: Record<string, unknown> = viewer === 'spectator' ? { id, version, ...pub } : { id, version, ...seatView(state, viewer, pub) };
    const deal = typeof view.dealNumber === 'number' ? view.dealNumber : 0;
    // Revealed at read time: a deal scored by now has no secrets, even when replaying its middle.
    const revealed = deal > 0 && isDealRevealed(latest.state, deal) ? revealedDeal(state, events, deal) : null;
    return { replayVersion: version, latestVersion: latest.version, view, revealed };
  }

  async audit(id: string, pinText?: string): Promise<AuditResult> {
    const pin = pinText === undefined ? undefined : parsePin(pinText);
    if (pin === null) throw invalidParameter('pin', 'pin must be <version>:<64 hex digits>.');
    // The version the projection recorded in the last append's transaction: a log cut short no longer
    // reaches it. Read before the log: a match that moves on meanwhile (bots, stand-ins) only adds events.
    const recorded = await this.queries.publicState(id);
    const doc = await this.exportDocument(id);
    if (pin) {
      // Only checkpoints are ever handed out; a hash past one would cover secret cards, so none is checked.
      const { checkpoint } = recorded.body as { checkpoint: { version: number } };
      if (pin.version > checkpoint.version) {
        throw invalidParameter('pin', `pin is past the match's checkpoint (version ${checkpoint.version}): no hash past it is handed out while its cards are secret.`);
      }
    }
    const report = auditMatch(doc, { recordedVersion: recorded.version, pin });
    const chain = await this.store.verifyStream(id);
    return { ...report, ok: report.ok && chain.ok, databaseChain: { ok: chain.ok, brokenAt: chain.brokenAt } };
  }

  /** The whole log with its proofs; only for a finished match (before that, cards are still secret). */
  async exportFinished(id: string): Promise<ExportedMatch> {
    const doc = await this.exportDocument(id);
    // Finished: MatchFinished is in the log (a RematchOffered may follow it).
    if (!doc.events.some((e) => e.type === 'MatchFinished')) {
      throw new ProblemException('MATCH_NOT_FINISHED', 'A match can be exported once it is finished: until then some cards are secret.');
    }
    return doc;
  }

  private async exportDocument(id: string): Promise<ExportedMatch> {
    const events = await this.store.readProvenStream(id);
    if (events.length === 0) throw notFound(id);
    return exportOf(id, events);
  }
}

function revealedDeal(state: ReturnType<typeof initialState>, events: BismarckEvent[], deal: number): ReplayView['revealed'] {
  const hands = ([0, 1, 2] as const).map((s) => seatOwn(state, s).hand);
  const forehand = publicView(state).forehand;
  const laidAway = forehand === null ? null : seatOwn(state, forehand).laidAway;
  const started = [...events].reverse().find((e) => e.type === 'DealStarted' && e.data.deal === deal) as
    | Extract<BismarckEvent, { type: 'DealStarted' }>
    | undefined;
  return { deal, hands, laidAway, deck: started?.data.deck ?? null };
}

function notFound(id: string): ProblemException {
  return new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
}
