import { Injectable } from '@nestjs/common';
import type { Seat, Viewer } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { ProblemException } from '../../platform/problem/problem';
import { storedEventView, type EventView, type FoldedMatch } from '@bismarck/match';
import { isListTime, MatchReader, type ListFilter, type ListPosition, type MatchSummary, type Versioned } from '@bismarck/projections';
import { parseMatchId } from '../../platform/http/match-id';
import { decodeCursor, encodeCursor } from '../../platform/http/page-cursor';
import { MatchFolds } from './match-folds.service';

export interface MatchPage {
  items: MatchSummary[];
  nextCursor: string | null;
}

export interface EventPage {
  events: EventView[];
  version: number;
  next: number | null;
  /** The newest version whose hash may be shown (nothing secret up to it), and that hash. */
  checkpoint: { version: number; hash: string };
}

/**
 * The read side as the API answers it: projection rows (read by MatchReader, one query each) with a
 * 404 for an unknown match and an opaque list cursor, and the log as the caller may see it.
 */
@Injectable()
export class MatchQueries {
  private readonly reader: MatchReader;

  constructor(
    private readonly store: EventStore,
    private readonly folds: MatchFolds,
  ) {
    this.reader = new MatchReader(store.queryable);
  }

  async publicState(id: string): Promise<Versioned<unknown>> {
    return found(id, await this.reader.publicState(id));
  }

  async seatView(id: string, seat: Seat): Promise<Versioned<unknown>> {
    return found(id, await this.reader.seatView(id, seat));
  }

  async scorecard(id: string): Promise<Versioned<unknown>> {
    return found(id, await this.reader.scorecard(id));
  }

  async list(limit: number, filter: ListFilter, cursor?: string): Promise<MatchPage> {
    const page = await this.reader.list(limit, filter, cursor ? decodeCursor(cursor, listPosition) : undefined);
    return { items: page.items, nextCursor: page.next ? encodeCursor([page.next.createdAt, page.next.id]) : null };
  }

  /** The log, each event redacted for this caller as of now (a scored deal has no secrets left). */
  async events(id: string, viewer: Viewer, after: number, limit: number): Promise<EventPage> {
    const latest = await this.caughtUp(id);
    const stored = await this.store.readStream(id, { after, limit: limit + 1 });
    const page = stored.slice(0, limit);
    const pinned = page.find((e) => e.version === latest.checkpoint);
    return {
      events: page.map((e) => storedEventView(e, viewer, latest)),
      version: latest.version,
      next: stored.length > limit ? page[page.length - 1].version : null,
      checkpoint: { version: latest.checkpoint, hash: pinned ? pinned.hash : await this.store.hashAt(id, latest.checkpoint) },
    };
  }

  /** The whole log as `viewer` may see it (the notation), redacted as `events` does. */
  async log(id: string, viewer: Viewer): Promise<{ version: number; events: EventView[] }> {
    const latest = await this.caughtUp(id);
    const stored = await this.store.readStream(id, { limit: latest.version });
    return { version: latest.version, events: stored.map((e) => storedEventView(e, viewer, latest)) };
  }

  /**
   * Caught up with the log first (another instance may have appended), so that `version` is the
   * log's and redaction uses the newest state: a deal scored by now has no secrets left.
   */
  private async caughtUp(id: string): Promise<FoldedMatch> {
    const latest = await this.folds.load(id, true);
    if (!latest) throw notFound(id);
    return latest;
  }
}

function notFound(id: string): ProblemException {
  return new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
}

function found<T>(id: string, doc: T | null): T {
  if (doc === null) throw notFound(id);
  return doc;
}

/** Only what the list hands out: a time of the list's own format (isListTime) and a match id. */
const listPosition = (key: unknown[]): ListPosition | null => (key.length === 2 && isListTime(key[0]) ? { createdAt: key[0], id: parseMatchId(key[1]) } : null);
