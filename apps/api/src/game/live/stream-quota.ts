/** A stream counted against its caller's limits until released (once: again does nothing). */
export interface StreamTicket {
  release(): void;
}

/** With both limits off nothing is counted: one ticket for every stream. */
const UNCOUNTED: StreamTicket = { release: () => undefined };

/** Open live streams per client address and per seat token, in this process. */
export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(
    /** 0: no limit. */
    private readonly perAddress: number,
    /** 0: no limit. */
    private readonly perToken: number,
  ) {}

  /**
   * Counts one more stream for this caller, or answers null when one of its limits is reached. The
   * ticket is a small object, not a closure: an open stream holds it for as long as it lives.
   */
  acquire(address: string, token: string | undefined): StreamTicket | null {
    const counted: [string, number][] = [];
    if (this.perAddress > 0) counted.push([`a:${address}`, this.perAddress]);
    if (this.perToken > 0 && token) counted.push([`t:${token}`, this.perToken]);
    if (counted.length === 0) return UNCOUNTED;
    if (counted.some(([key, limit]) => (this.open.get(key) ?? 0) >= limit)) return null;
    const keys = counted.map(([key]) => key);
    for (const key of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    return new Ticket(this.open, keys);
  }
}

class Ticket implements StreamTicket {
  private released = false;

  constructor(
    private readonly open: Map<string, number>,
    private readonly keys: readonly string[],
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    for (const key of this.keys) {
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    }
  }
}
