import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { foldOnto, toDomainEvent, UNBORN, type FoldedMatch } from '@bismarck/match';
import { EventStore, type StoredEvent } from '@bismarck/event-store';
import { appConfig } from '../../platform/config/app.config';
import { KeyedLock } from './keyed-lock';
import { MatchCache } from '../../platform/cache/match-cache';

export interface LoadedMatch extends FoldedMatch {
  createdAt: string;
  updatedAt: string;
}

/**
 * The folded matches of this process: loads a match by folding its stream, keeps recent folds in
 * memory, and runs one write at a time per match (`run`). Not the live event streams (live/).
 */
@Injectable()
export class MatchFolds {
  private readonly cache: MatchCache<LoadedMatch>;
  private readonly lock = new KeyedLock();

  constructor(
    private readonly store: EventStore,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.cache = new MatchCache<LoadedMatch>(config.stateCacheSize);
  }

  /**
   * The match as last known here, or (fresh) as the log says now. Null when there is no such match.
   * A fresh load of a match known here reads only the events after the known version (another
   * process appended them) and folds them onto the known state: the log is append-only.
   */
  async load(id: string, fresh = false): Promise<LoadedMatch | null> {
    const known = this.cache.get(id);
    if (known && !fresh) return known;
    const events = await this.store.readStream(id, { after: known?.version ?? 0 });
    if (known) {
      if (events.length === 0) return known;
      return this.caughtUp(id, known, events);
    }
    if (events.length === 0) return null;
    const loaded: LoadedMatch = {
      ...foldOnto(UNBORN, events.map(toDomainEvent)),
      createdAt: events[0].recordedAt,
      updatedAt: events[events.length - 1].recordedAt,
    };
    this.cache.set(id, loaded);
    return loaded;
  }

  private caughtUp(id: string, known: LoadedMatch, newer: StoredEvent[]): LoadedMatch {
    if (newer[0].version !== known.version + 1) throw new Error(`stream ${id}: version ${newer[0].version} after ${known.version}`);
    const loaded: LoadedMatch = {
      ...foldOnto(known, newer.map(toDomainEvent)),
      createdAt: known.createdAt,
      updatedAt: newer[newer.length - 1].recordedAt,
    };
    this.cache.set(id, loaded);
    return loaded;
  }

  /** Runs a task alone for this match within this process. */
  run<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.lock.run(id, task);
  }

  remember(id: string, match: LoadedMatch): void {
    this.cache.set(id, match);
  }

  forget(id: string): void {
    this.cache.delete(id);
  }
}
