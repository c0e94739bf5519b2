/**
 * A bounded least-recently-used map, per match id: what a process remembers of matches (folded
 * states, token hashes, seeds) must not grow with every match it has ever served.
 */
export class MatchCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(id: string): V | undefined {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
    }
    return hit;
  }

  set(id: string, match: V): void {
    if (this.capacity === 0) return;
    this.entries.delete(id);
    this.entries.set(id, match);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }
}
