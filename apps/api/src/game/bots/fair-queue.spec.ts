import { STRONG_DEFAULTS } from '@bismarck/bots';
import { strongBudget, underLoad, LEAST_BUDGET, STAND_IN_RUSH, type BotTask } from './bot-decision';
import { FairQueue, type Load, type Turn } from './fair-queue';

/** A piece of work the test finishes by hand, recording when it starts. */
function manual(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));
const person = (who: string, match: string): Turn => ({ withPeople: true, person: who, match });
const botsOnly = (who: string, match: string): Turn => ({ withPeople: false, person: who, match });

describe('FairQueue: people first, bot-only matches one at a time', () => {
  it("runs a person's decision before bot-only ones, bot-only ones one at a time and only while no person's runs or waits", async () => {
    const gate = new FairQueue(2);
    const log: string[] = [];
    const b1 = manual(log, 'b1');
    const b2 = manual(log, 'b2');
    const b3 = manual(log, 'b3');
    const p1 = manual(log, 'p1');
    const results = [gate.run(botsOnly('a', 'm1'), b1.work), gate.run(botsOnly('a', 'm2'), b2.work), gate.run(botsOnly('b', 'm3'), b3.work)];
    await settle();
    expect(log).toEqual(['start b1']); // one bot-only decision at a time, though two threads
    expect(gate.queued).toBe(2);
    results.push(gate.run(person('c', 'm4'), p1.work));
    await settle();
    expect(log).toEqual(['start b1', 'start p1']); // a person's does not queue behind them
    b1.finish();
    await settle();
    expect(log).toEqual(['start b1', 'start p1', 'end b1']); // b2, b3 wait: a person's decision runs
    p1.finish();
    await settle();
    expect(log.slice(3)).toEqual(['end p1', 'start b2']);
    b2.finish();
    await settle();
    b3.finish();
    expect(await Promise.all(results)).toEqual(['b1', 'b2', 'b3', 'p1']);
    expect(log.slice(5)).toEqual(['end b2', 'start b3', 'end b3']);
    expect(gate.queued).toBe(0);
  });

  it('runs at most `capacity` decisions at once and tells each how many wait behind it', async () => {
    const gate = new FairQueue(2);
    const loads: Load[] = [];
    const finishers: (() => void)[] = [];
    const all = Array.from({ length: 5 }, (_, i) =>
      gate.run(person(`c${i}`, `m${i}`), (load) => {
        loads.push(load);
        return new Promise<void>((resolve) => finishers.push(resolve));
      }),
    );
    await settle();
    // The first two started at once, before the others asked; three wait.
    expect(loads).toEqual([
      { waiting: 0, capacity: 2 },
      { waiting: 0, capacity: 2 },
    ]);
    expect(gate.queued).toBe(3);
    while (finishers.length > 0) {
      finishers.shift()!();
      await settle();
      expect(finishers.length).toBeLessThanOrEqual(2);
    }
    await Promise.all(all);
    expect(loads.map((l) => l.waiting)).toEqual([0, 0, 2, 1, 0]);
  });

  it('when closed, refuses the decisions still waiting and later ones; the one running finishes', async () => {
    const gate = new FairQueue(1);
    const log: string[] = [];
    const running = manual(log, 'running');
    const first = gate.run(person('a', 'm1'), running.work);
    const waiting = gate.run(person('b', 'm2'), async () => 'never');
    const waitingBots = gate.run(botsOnly('c', 'm3'), async () => 'never');
    await settle();
    gate.close();
    await expect(waiting).rejects.toThrow('the bots are stopping');
    await expect(waitingBots).rejects.toThrow('the bots are stopping');
    await expect(gate.run(person('a', 'm4'), async () => 'later')).rejects.toThrow('the bots are stopping');
    running.finish();
    await expect(first).resolves.toBe('running');
    expect(gate.queued).toBe(0);
  });

  it('a failed decision passes its error on and frees the turn', async () => {
    const gate = new FairQueue(1);
    const failing = gate.run(botsOnly('a', 'm1'), () => Promise.reject(new Error('worker died')));
    const next = gate.run(botsOnly('a', 'm2'), async () => 'next');
    await expect(failing).rejects.toThrow('worker died');
    await expect(next).resolves.toBe('next');
    const persons = gate.run(person('a', 'm3'), () => Promise.reject(new Error('again')));
    await expect(persons).rejects.toThrow('again');
    await expect(gate.run(botsOnly('a', 'm1'), async () => 'after')).resolves.toBe('after');
  });

  it('refuses a capacity under one', () => {
    expect(() => new FairQueue(0)).toThrow('capacity');
  });
});

/** The order in which one thread serves `turns`, all asked while another decision runs. */
async function servedOrder(turns: (Turn & { name: string })[]): Promise<string[]> {
  const gate = new FairQueue(1);
  const order: string[] = [];
  const blocker = manual([], 'blocker');
  const running = gate.run(person('other', 'x'), blocker.work);
  await settle();
  const all = turns.map((turn) => gate.run(turn, async () => void order.push(turn.name)));
  blocker.finish();
  await Promise.all([running, ...all]);
  return order;
}
const named = (name: string, turn: Turn) => ({ ...turn, name });

describe('FairQueue: round-robin by person, then by match', () => {
  it("serves a person's matches in turn: A1 B1 C1 A2 A3, not A1 A2 A3 B1 C1", async () => {
    const order = await servedOrder(['A1', 'A2', 'A3', 'B1', 'C1'].map((name) => named(name, person('flood', name[0]))));
    expect(order).toEqual(['A1', 'B1', 'C1', 'A2', 'A3']);
  });

  /**
   * The runner's loops, simulated: each match decides again as soon as its last decision is done (a
   * person who answers at once), one decision at a time per match. `flood` matches of one person (an
   * account's) and one victim match of another; answers the order in which decisions started.
   */
  async function race(floodPeople: (i: number) => string, floodMatches: number, victimDecisions: number) {
    const gate = new FairQueue(1);
    const started: string[] = [];
    /** For each victim decision: the other decisions that started between its asking and its start. */
    const overtakenBy: string[][] = [];
    let victimDone = false;
    const loop = async (who: string, match: string, victim: boolean): Promise<void> => {
      for (let n = 0; victim ? n < victimDecisions : !victimDone; n++) {
        const asked = started.length;
        await gate.run(person(who, match), async () => {
          if (victim) overtakenBy.push(started.slice(asked));
          started.push(match);
          await settle(); // the decision takes a while; the others keep asking meanwhile
        });
      }
      if (victim) victimDone = true;
    };
    const floods = Array.from({ length: floodMatches }, (_, i) => loop(floodPeople(i), `flood-${i}`, false));
    // The victim comes once the flood has filled the queue.
    await settle();
    await loop('victim', 'victim', true);
    await Promise.all(floods);
    return { started, overtakenBy };
  }

  it("a flood of 40 matches of one person holds up another person's decision by at most one of its decisions", async () => {
    const { started, overtakenBy } = await race(() => 'player:flood', 40, 20);
    expect(overtakenBy).toHaveLength(20);
    for (const others of overtakenBy) expect(others.length).toBeLessThanOrEqual(1);
    // In first-come-first-served order the victim would wait for all 40 each time.
    expect(started.filter((m) => m === 'victim')).toHaveLength(20);
    // And the flood's own matches took turns: between two decisions of one flood match, every other flood match had one.
    const floodOrder = started.filter((m) => m !== 'victim');
    for (let i = 0; i + 40 < floodOrder.length; i++) expect(floodOrder[i + 40]).toBe(floodOrder[i]);
  });

  it('40 matches of 40 people hold up a decision by at most one decision per competing match', async () => {
    const { overtakenBy } = await race((i) => `match:${i}`, 40, 10);
    for (const others of overtakenBy) {
      expect(others.length).toBeLessThanOrEqual(40);
      expect(new Set(others).size).toBe(others.length); // no competing match twice
    }
  });

  it('a person who was served waits behind one who was not; a person with nothing waiting starts afresh', async () => {
    const order = await servedOrder(['a1', 'a2', 'b1', 'b2', 'c1'].map((name) => named(name, person(name[0], name))));
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2']);
  });

  it("serves bot-only matches round-robin by person too, after every person's decision", async () => {
    const order = await servedOrder([named('a1', botsOnly('a', 'a1')), named('a2', botsOnly('a', 'a2')), named('b1', botsOnly('b', 'b1')), named('c1', person('c', 'c1'))]);
    expect(order).toEqual(['c1', 'a1', 'b1', 'a2']);
  });
});

describe('strongBudget: fewer deals drawn under load', () => {
  it("keeps the strategy's defaults while fewer decisions wait than there are threads", () => {
    expect(strongBudget({ waiting: 0, capacity: 1 })).toBeUndefined();
    expect(strongBudget({ waiting: 3, capacity: 4 })).toBeUndefined();
  });

  it('shrinks with the queue, never below the least budget', () => {
    expect(strongBudget({ waiting: 1, capacity: 1 })).toEqual({ samples: 64, budgetMs: 100 });
    expect(strongBudget({ waiting: 3, capacity: 1 })).toEqual({ samples: 32, budgetMs: 50 });
    expect(strongBudget({ waiting: 40, capacity: 1 })).toEqual(LEAST_BUDGET);
    expect(strongBudget({ waiting: 8, capacity: 4 })).toEqual({ samples: 43, budgetMs: 67 });
    let last = Infinity;
    for (let waiting = 1; waiting < 100; waiting++) {
      const { samples } = strongBudget({ waiting, capacity: 1 })!;
      expect(samples).toBeLessThanOrEqual(last);
      last = samples;
    }
  });
});

describe('underLoad: a stand-in thinks only until its move is due', () => {
  const task = { strategy: 'strong', view: {}, history: [] } as unknown as BotTask;
  const idle: Load = { waiting: 0, capacity: 1 };
  const standIn = (dueBy?: number): Turn => ({ ...person('p', 'm'), standIn: true, dueBy });

  it('gives a stand-in with time left the budget it would have, cut to the time left', () => {
    expect(underLoad(task, standIn(), idle, 0)).toBe(task);
    expect(underLoad(task, standIn(10_000), idle, 0)).toBe(task);
    expect(underLoad(task, standIn(1_050), idle, 1_000)).toEqual({ ...task, budget: { samples: STRONG_DEFAULTS.samples, budgetMs: 50 } });
    expect(underLoad(task, standIn(1_030), { waiting: 1, capacity: 1 }, 1_000)).toEqual({ ...task, budget: { samples: 64, budgetMs: 30 } });
  });

  it('plays greedy once its move is due, or when many wait', () => {
    expect(underLoad(task, standIn(1_000), idle, 1_000).strategy).toBe('greedy');
    expect(underLoad(task, standIn(1_000 + LEAST_BUDGET.budgetMs - 1), idle, 1_000).strategy).toBe('greedy');
    expect(underLoad(task, standIn(), { waiting: STAND_IN_RUSH, capacity: 1 }, 0).strategy).toBe('greedy');
    // A bot seat is never rushed so: it thinks less under load, but the deadline is not its.
    expect(underLoad(task, { ...person('p', 'm'), dueBy: 0 }, idle, 1_000)).toBe(task);
    expect(underLoad({ ...task, strategy: 'greedy' }, standIn(0), idle, 1_000).strategy).toBe('greedy');
  });
});
