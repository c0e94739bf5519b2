import { request as httpRequest } from 'node:http';
import { Piscina } from 'piscina';
import { useTestApp } from './support/app';
import { createMatch, playToEnd, seededPick } from './support/player';
import { listenLocal } from './support/server';

// The analysis queue's bound (ANALYSIS_QUEUE + ANALYSIS_WORKERS deals at once, per process) counts a
// deal from the moment it is accepted, before its log is read, from every address together: 160
// requests for distinct deals at once, from 40 loopback addresses (4 each: within
// ANALYSIS_PER_ADDRESS), get that many 202s and 503 ANALYSIS_BUSY for the rest. The workers are held
// until every answer is in, so that no accepted deal is done and gives its place back meanwhile.
const ENV = { ANALYSIS_MAX_NODES: '200000', ANALYSIS_WAIT_MS: '0', ANALYSIS_QUEUE: '64', ANALYSIS_WORKERS: '1', ANALYSIS_PER_ADDRESS: '4' };
const ACCEPTED = 64 + 1;
const saved: Record<string, string | undefined> = {};
const t = useTestApp(
  () => Object.entries(ENV).forEach(([k, v]) => ((saved[k] = process.env[k]), (process.env[k] = v))),
  () => Object.keys(ENV).forEach((k) => (saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k]))),
);

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: any;
}

/** GET from a loopback address of its own (127.0.0.0/8 is all this machine's): the service counts each apart. */
function getFrom(base: string, path: string, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function solves(): Promise<number> {
  const text = (await t.http().get('/metrics').expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith('bismarck_deal_analyses_total{outcome="done"}'));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('160 analysis requests at once from 40 addresses', () => {
  it(`accepts ${ACCEPTED} (ANALYSIS_QUEUE + workers) and answers the rest 503 ANALYSIS_BUSY with Retry-After, counted before the log is read`, async () => {
    const base = await listenLocal(t.app);
    // 54 finished matches of 3 scored deals: one played, 53 forks of it at its end (one append each).
    const source = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'analysis-busy' });
    await playToEnd(t.http, source, seededPick(11));
    const { version } = (await t.http().get(`/api/matches/${source.id}`).expect(200)).body;
    const matches = [source.id];
    for (let i = 0; i < 53; i++) matches.push((await t.http().post(`/api/matches/${source.id}/fork?version=${version}`).expect(201)).body.id);
    const asked = matches.flatMap((id) => [1, 2, 3].map((deal) => ({ id, deal }))).slice(0, 160);

    // The workers wait for the test: an accepted deal holds its place until every answer is in.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = Piscina.prototype.run;
    const spy = jest.spyOn(Piscina.prototype, 'run').mockImplementation(function (this: Piscina, task: unknown, options?: any) {
      return held.then(() => run.call(this, task, options));
    });
    try {
      const before = await solves();
      const answers = await Promise.all(asked.map(({ id, deal }, i) => getFrom(base, `/api/matches/${id}/analysis?deal=${deal}`, `127.0.0.${10 + (i % 40)}`)));
      const accepted = answers.filter((a) => a.status === 202);
      const busy = answers.filter((a) => a.status === 503);
      expect({ accepted: accepted.length, busy: busy.length }).toEqual({ accepted: ACCEPTED, busy: 160 - ACCEPTED });
      for (const a of accepted) expect(a.body).toMatchObject({ status: 'pending', retryAfter: 2 });
      for (const a of busy) {
        expect(a.body).toMatchObject({ status: 503, code: 'ANALYSIS_BUSY', retryAfter: 4 });
        expect(a.retryAfter).toBe('4');
      }

      // Released, the accepted deals are done; the forks replay their source's deals: one solve per deal number.
      release();
      const done = async (i: number): Promise<void> => {
        for (let tries = 0; tries < 600; tries++) {
          const a = await getFrom(base, `/api/matches/${asked[i].id}/analysis?deal=${asked[i].deal}`, `127.0.0.${10 + (i % 40)}`);
          if (a.status === 200) return;
          expect([202, 503]).toContain(a.status);
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`no analysis of ${asked[i].id} deal ${asked[i].deal}`);
      };
      await Promise.all(answers.map((a, i) => (a.status === 202 ? done(i) : Promise.resolve())));
      const dealsSolved = new Set(asked.filter((_, i) => answers[i].status === 202).map((a) => a.deal));
      expect(await solves()).toBe(before + dealsSolved.size);
      // A refused deal is accepted once the queue has room; one of a deal already solved costs no solve.
      const refused = answers.findIndex((a, i) => a.status === 503 && dealsSolved.has(asked[i].deal));
      await done(refused);
      expect(await solves()).toBe(before + dealsSolved.size);
    } finally {
      release();
      spy.mockRestore();
    }
  }, 180_000);
});
