/** Open live streams per client address and per seat token, in this process. */
export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(
    /** 0: no limit. */
    private readonly perAddress: number,
    /** 0: no limit. */
    private readonly perToken: number,
  ) {}

  /** Counts one more stream for this caller, or answers null when one of its limits is reached. */
  acquire(address: string, token: string | undefined): (() => void) | null {
    const keys: [string, number][] = [];
    if (this.perAddress > 0) keys.push([`a:${address}`, this.perAddress]);
    if (this.perToken > 0 && token) keys.push([`t:${token}`, this.perToken]);
    if (keys.some(([key, limit]) => (this.open.get(key) ?? 0) >= limit)) return null;
    for (const [key] of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [key] of keys) {
        const left = (this.open.get(key) ?? 1) - 1;
        if (left > 0) this.open.set(key, left);
        else this.open.delete(key);
      }
    };
  }
}
