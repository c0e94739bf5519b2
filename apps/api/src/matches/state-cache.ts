import type { MatchState } from '@bismarck/rules';

export interface LoadedMatch {
  version: number;
  state: MatchState;
  createdAt: string;
  updatedAt: string;
}

/** A bounded least-recently-used map of folded match states. */
export class StateCache {
  private readonly entries = new Map<string, LoadedMatch>();

  constructor(private readonly capacity: number) {}

  get(id: string): LoadedMatch | undefined {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
    }
    return hit;
  }

  set(id: string, match: LoadedMatch): void {
    if (this.capacity === 0) return;
    this.entries.delete(id);
    this.entries.set(id, match);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }
}
