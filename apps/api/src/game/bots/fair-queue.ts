/** Whose decision it is: the match, and the person it is played for (docs/bots.md, "Fair shares"). */
export interface Turn {
  /** A person sits in the match: it goes before matches of bots only. */
  readonly withPeople: boolean;
  /**
   * The person the decision is played for: the player account of a bound seat, else the match (its
   * person's seat token). Never an address: people behind one address each get their own share.
   */
  readonly person: string;
  readonly match: string;
  /** The stand-in of a person whose time ran out: late already, it must not wait for a long think. */
  readonly standIn?: boolean;
  /** When the move should be in the log (epoch ms; a timed-out person's stand-in): what it may think is what is left. */
  readonly dueBy?: number;
}

/** How busy the queue was when a decision started: what a strategy may spend on it (strongBudget). */
export interface Load {
  /** Decisions still waiting behind this one. */
  readonly waiting: number;
  /** Decisions that may run at once (the bot threads). */
  readonly capacity: number;
}

interface Waiter {
  readonly start: (load: Load) => void;
  readonly refuse: (error: Error) => void;
}

/**
 * Waiting decisions, served round-robin: the person served least recently first, then among their
 * matches the one served least recently, then that match's decisions in order. A person or a match
 * that had nothing waiting goes before every one served since (served longer ago, or never).
 */
class Lanes {
  private readonly people = new Map<string, { served: number; matches: Map<string, { served: number; waiting: Waiter[] }> }>();
  private tick = 0;
  size = 0;

  push(turn: Turn, waiter: Waiter): void {
    let person = this.people.get(turn.person);
    if (!person) this.people.set(turn.person, (person = { served: -1, matches: new Map() }));
    let match = person.matches.get(turn.match);
    if (!match) person.matches.set(turn.match, (match = { served: -1, waiting: [] }));
    match.waiting.push(waiter);
    this.size++;
  }

  shift(): Waiter | undefined {
    const [personKey, person] = leastRecentlyServed(this.people) ?? [];
    if (!person || personKey === undefined) return undefined;
    const [matchKey, match] = leastRecentlyServed(person.matches)!;
    const waiter = match.waiting.shift()!;
    this.size--;
    person.served = match.served = ++this.tick;
    // Emptied entries go: a person or match that waits again starts afresh (served -1, first in line).
    if (match.waiting.length === 0) person.matches.delete(matchKey);
    if (person.matches.size === 0) this.people.delete(personKey);
    return waiter;
  }

  drain(): Waiter[] {
    const all = [...this.people.values()].flatMap((p) => [...p.matches.values()].flatMap((m) => m.waiting));
    this.people.clear();
    this.size = 0;
    return all;
  }
}

/** The entry served least recently; ties (entries never served) go in the order they arrived. */
function leastRecentlyServed<T extends { served: number }>(entries: Map<string, T>): [string, T] | undefined {
  let best: [string, T] | undefined;
  for (const entry of entries) if (!best || entry[1].served < best[1].served) best = entry;
  return best;
}

/**
 * The bot decisions' turns (docs/bots.md, "Fair shares of the bots' time"). At most `capacity`
 * decisions run at once (the bot threads), so the order in which they start is decided here rather than
 * in the thread pool's first-come-first-served queue:
 * - matches a person sits in go first; a match of bots only (one request starts one, and it plays itself
 *   to the end: a few CPU seconds of strong bots) gets a turn only while no person's decision runs or
 *   waits, one at a time;
 * - within each of the two, round-robin by person, then by match: one person's many matches cannot
 *   hold up another's decision by more than one decision per competing person, whatever address
 *   either comes from (how many matches a caller may hold against strong bots is StrongBotMatches');
 * - a decision starts with the queue's `Load`, so that it can think less when many wait.
 */
export class FairQueue {
  private running = 0;
  private peopleRunning = 0;
  private botsOnlyRunning = false;
  private readonly people = new Lanes();
  private readonly botsOnly = new Lanes();
  private closed = false;

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`FairQueue: capacity must be at least 1, got ${capacity}`);
  }

  /** Runs `work` when it is this turn's; `work` is told the load at its start. */
  async run<T>(turn: Turn, work: (load: Load) => Promise<T>): Promise<T> {
    const load = await new Promise<Load>((start, refuse) => {
      if (this.closed) return refuse(new Error('the bots are stopping'));
      (turn.withPeople ? this.people : this.botsOnly).push(turn, { start, refuse });
      this.next();
    });
    try {
      return await work(load);
    } finally {
      this.running--;
      if (turn.withPeople) this.peopleRunning--;
      else this.botsOnlyRunning = false;
      this.next();
    }
  }

  /** Decisions waiting for their turn. */
  get queued(): number {
    return this.people.size + this.botsOnly.size;
  }

  /** Refuses the decisions still waiting, and any later one: a stopping process does not wait for them. */
  close(): void {
    this.closed = true;
    for (const { refuse } of [...this.people.drain(), ...this.botsOnly.drain()]) refuse(new Error('the bots are stopping'));
  }

  private next(): void {
    while (this.running < this.capacity) {
      let waiter = this.people.shift();
      if (waiter) this.peopleRunning++;
      else if (!this.botsOnlyRunning && this.peopleRunning === 0 && (waiter = this.botsOnly.shift())) this.botsOnlyRunning = true;
      if (!waiter) return;
      this.running++;
      waiter.start({ waiting: this.queued, capacity: this.capacity });
    }
  }
}
