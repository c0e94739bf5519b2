import { PeopleFirst } from './people-first';

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

describe('PeopleFirst: bot decisions of matches with people first, bot-only matches one at a time', () => {
  it('runs a person\'s decision at once, bot-only ones one at a time and only while no person waits', async () => {
    const gate = new PeopleFirst();
    const log: string[] = [];
    const b1 = manual(log, 'b1');
    const b2 = manual(log, 'b2');
    const b3 = manual(log, 'b3');
    const p1 = manual(log, 'p1');
    const results = [gate.run(false, b1.work), gate.run(false, b2.work), gate.run(false, b3.work)];
    await settle();
    expect(log).toEqual(['start b1']); // one bot-only decision at a time
    expect(gate.queued).toBe(2);
    results.push(gate.run(true, p1.work));
    await settle();
    expect(log).toEqual(['start b1', 'start p1']); // a person's does not queue behind them
    b1.finish();
    await settle();
    expect(log).toEqual(['start b1', 'start p1', 'end b1']); // b2 waits: a person's decision runs
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

  it('when closed, refuses the bot-only decisions still waiting and later ones; the one running finishes', async () => {
    const gate = new PeopleFirst();
    const log: string[] = [];
    const running = manual(log, 'running');
    const first = gate.run(false, running.work);
    const waiting = gate.run(false, async () => 'never');
    await settle();
    gate.close();
    await expect(waiting).rejects.toThrow('the bots are stopping');
    await expect(gate.run(false, async () => 'later')).rejects.toThrow('the bots are stopping');
    running.finish();
    await expect(first).resolves.toBe('running');
    expect(gate.queued).toBe(0);
  });

  it('a failed decision passes its error on and frees the turn', async () => {
    const gate = new PeopleFirst();
    const failing = gate.run(false, () => Promise.reject(new Error('worker died')));
    const next = gate.run(false, async () => 'next');
    await expect(failing).rejects.toThrow('worker died');
    await expect(next).resolves.toBe('next');
    const person = gate.run(true, () => Promise.reject(new Error('again')));
    await expect(person).rejects.toThrow('again');
    await expect(gate.run(false, async () => 'after')).resolves.toBe('after');
  });
});
