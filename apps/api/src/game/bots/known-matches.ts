import { foldOnto, UNBORN, type FoldedMatch } from '@bismarck/match';
import type { BismarckEvent } from '@bismarck/rules';

/**
 * What the bot runner has read of a match: its fold, and the events of the deal in progress (from
 * its DealStarted), which are all a bot's deal history needs. A bot move then reads only the events
 * appended since the last one, not the whole log again: in a long match that re-read was quadratic.
 */
export interface KnownMatch {
  readonly folded: FoldedMatch;
  readonly deal: readonly BismarckEvent[];
  /**
   * Learnt from this process's own append (the writer's fold, not read back): a bot may decide on it
   * without asking the log, whose If-Match refuses the move if another process appended meanwhile.
   */
  readonly written?: boolean;
}

/**
 * `known` (or nothing yet) with the events that follow it, folded here, or (`folded`) as the writer
 * that appended them folded them already.
 */
export function learn(known: KnownMatch | undefined, fresh: readonly BismarckEvent[], folded?: FoldedMatch): KnownMatch {
  if (fresh.length === 0 && known) return known;
  const restart = fresh.findLastIndex((e) => e.type === 'DealStarted');
  const deal = restart >= 0 ? fresh.slice(restart) : [...(known?.deal ?? []), ...fresh];
  return { folded: folded ?? foldOnto(known?.folded ?? UNBORN, fresh), deal, written: folded !== undefined };
}

/**
 * The matches read lately, the least recently used dropped past `capacity` (a dropped match is read
 * whole again when a bot next acts in it). A finished match is forgotten at once, but for its id.
 */
export class KnownMatches {
  private readonly matches = new Map<string, KnownMatch>();
  private readonly over = new Set<string>();

  constructor(private readonly capacity: number) {}

  get(matchId: string): KnownMatch | undefined {
    return this.matches.get(matchId);
  }

  set(matchId: string, known: KnownMatch): void {
    this.matches.delete(matchId);
    if (known.folded.state.status === 'finished' || known.folded.state.status === 'abandoned') {
      // Only its id is kept: a loop still running for it then stops without reading the whole log.
      this.over.add(matchId);
      if (this.over.size > this.capacity) this.over.delete(this.over.values().next().value!);
      return;
    }
    this.matches.set(matchId, known);
    if (this.matches.size > this.capacity) this.matches.delete(this.matches.keys().next().value!);
  }

  /**
   * What this process appended (events from version `from`, and the writer's fold after them), when
   * it follows what is known here; anything else is read from the log when next needed.
   */
  written(matchId: string, from: number, events: readonly BismarckEvent[], folded: FoldedMatch): void {
    const known = this.matches.get(matchId);
    if ((known?.folded.version ?? 0) === from - 1) this.set(matchId, learn(known, events, folded));
  }

  /** Finished (or abandoned) when last seen here: nothing can follow. */
  ended(matchId: string): boolean {
    return this.over.has(matchId);
  }

  /** Not to be trusted without asking the log (a move decided on it lost a race). */
  doubt(matchId: string): void {
    const known = this.matches.get(matchId);
    if (known?.written) this.matches.set(matchId, { ...known, written: false });
  }

  get size(): number {
    return this.matches.size;
  }
}
