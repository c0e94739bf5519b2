/**
 * Bot decisions of matches a person sits in go first; those of matches of bots only (one request
 * starts one, and it plays itself to the end: a few CPU seconds a match of strong bots) take their
 * turns one at a time, and only while no person's match is waiting for a decision. So a flood of
 * bot-only matches costs at most one thread's work at a time and never delays a person's game by more
 * than one decision.
 */
export class PeopleFirst {
  /** Decisions for matches with a person in them, started and not done. */
  private forPeople = 0;
  /** A decision for a match of bots only is running. */
  private botsOnlyRunning = false;
  /** Bot-only decisions waiting for their turn, oldest first. */
  private readonly waiting: { start: () => void; refuse: (error: Error) => void }[] = [];
  private closed = false;

  /** Runs `work` now when a person waits for it; else when it is the bot-only matches' turn. */
  async run<T>(withPeople: boolean, work: () => Promise<T>): Promise<T> {
    if (withPeople) {
      this.forPeople++;
      try {
        return await work();
      } finally {
        this.forPeople--;
        this.next();
      }
    }
    await new Promise<void>((start, refuse) => {
      if (this.closed) return refuse(new Error('the bots are stopping'));
      this.waiting.push({ start, refuse });
      this.next();
    });
    try {
      return await work();
    } finally {
      this.botsOnlyRunning = false;
      this.next();
    }
  }

  /** Bot-only decisions waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Refuses the bot-only decisions still waiting, and any later one: a stopping process does not wait for them. */
  close(): void {
    this.closed = true;
    for (const { refuse } of this.waiting.splice(0)) refuse(new Error('the bots are stopping'));
  }

  private next(): void {
    if (this.botsOnlyRunning || this.forPeople > 0) return;
    const first = this.waiting.shift();
    if (!first) return;
    this.botsOnlyRunning = true;
    first.start();
  }
}
