/** How a sweep backs off from a match it could not move on. */
export interface BackoffOptions {
  /** The wait after the first try; each further try doubles it. */
  readonly firstMs: number;
  /** The longest wait between tries. */
  readonly maxMs: number;
  /** Tries at one version before the match is parked. */
  readonly parkAfter: number;
  /** How long a parked match is left alone before it is tried again. */
  readonly parkMs: number;
}

export const SWEEP_BACKOFF: BackoffOptions = { firstMs: 1_000, maxMs: 8_000, parkAfter: 5, parkMs: 60_000 };

/** Match versions a sweep's read leaves out, as two arrays (the SQL's unnest pairs them). */
export interface Skipped {
  ids: string[];
  versions: number[];
}

interface Attempt {
  version: number;
  tries: number;
  nextAt: number;
  parked: boolean;
}

/**
 * What one process's sweep remembers of the matches it tried to move on (a timeout, a stand-in or bot
 * move): a match found again at the version it was tried at was not moved on, so it is tried again only
 * after a wait that doubles, and after `parkAfter` tries it is parked for `parkMs` (the caller logs it
 * and counts it). The sweep's read skips every match that is waiting here, so however many matches
 * cannot move, they never hold the head of the list that honest matches are read from.
 */
export class SweepAttempts {
  private readonly attempts = new Map<string, Attempt>();

  constructor(
    private readonly options: BackoffOptions = SWEEP_BACKOFF,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The match versions the next read must leave out: waiting for their next try, or parked. By version:
   * a match that moved on meanwhile is read again at once.
   */
  waiting(): Skipped {
    const t = this.now();
    const skipped: Skipped = { ids: [], versions: [] };
    for (const [id, a] of this.attempts) {
      if (a.nextAt <= t) continue;
      skipped.ids.push(id);
      skipped.versions.push(a.version);
    }
    return skipped;
  }

  /** Matches parked now. */
  get parked(): number {
    const t = this.now();
    let n = 0;
    for (const a of this.attempts.values()) if (a.parked && a.nextAt > t) n++;
    return n;
  }

  /**
   * Records a try at `version` of the match (found by the sweep, not waiting): 'first' at a version not
   * tried before, 'again' when an earlier try left it where it was, 'parked' when this try parks it
   * (the caller says so, once).
   */
  tried(id: string, version: number): 'first' | 'again' | 'parked' {
    const t = this.now();
    const before = this.attempts.get(id);
    const tries = before?.version === version ? before.tries + 1 : 1;
    const parked = tries >= this.options.parkAfter;
    const wait = parked ? this.options.parkMs : Math.min(this.options.maxMs, this.options.firstMs * 2 ** (tries - 1));
    this.attempts.set(id, { version, tries: parked ? 0 : tries, nextAt: t + wait, parked });
    return parked ? 'parked' : tries === 1 ? 'first' : 'again';
  }

  /** Forgets the matches whose wait is over and that the last read did not find (moved on, finished). */
  forget(found: ReadonlySet<string>): void {
    const t = this.now();
    for (const [id, a] of this.attempts) if (a.nextAt <= t && !found.has(id)) this.attempts.delete(id);
  }
}

/** Runs `work` on every item, at most `bound` at a time; rejects with the first failure once all are done. */
export async function eachBounded<T>(items: readonly T[], bound: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch((err: unknown) => failures.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(bound, items.length) }, lane));
  if (failures.length > 0) throw failures[0];
}
