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
  private readonly waiting: (() => void)[] = [];

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
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.next();
    });
    try {
      return await work();
    } finally {
      this.botsOnlyRunning = false;
      this.next();
    }
  }

  /** Bot-only decisions waiting (for the metrics and the tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private next(): void {
    if (this.botsOnlyRunning || this.forPeople > 0) return;
    const start = this.waiting.shift();
    if (!start) return;
    this.botsOnlyRunning = true;
    start();
  }
}
