import request from 'supertest';
import type { Counter } from 'prom-client';
import { streamMatchEvents, type MatchEvent } from '@bismarck/client';
import { MetricsService } from '../apps/api/src/platform/metrics/metrics.service';
import { startLoadBalancer, type LoadBalancer, type Routing } from '../bench/load-balancer';
import { startTestApp, type TestApp } from './support/app';
import { createTestDatabase, type TestDatabase } from './support/database';
import { withEnv } from './support/env';
import { createMatch, playOneAction, seededPick } from './support/player';
import { listenLocal } from './support/server';

// nginx with the reference deployment's config (docker/nginx/bismarck.conf, run as bench/load-balancer.ts
// runs it; scripts/ensure.sh installs it) in front of two api instances on one database, set as the
// deployment sets them (TRUST_PROXY=1), with a creation limit a test can reach.
const CREATES_PER_ADDRESS = 10;
describe('two api instances behind nginx (docker/nginx/bismarck.conf)', () => {
  let db: TestDatabase;
  let instances: TestApp[];
  let ports: number[];

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
    const env = { TRUST_PROXY: '1', RATE_LIMIT_CREATES_PER_ADDRESS: String(CREATES_PER_ADDRESS) };
    instances = [await withEnv(env, () => startTestApp(db)), await withEnv(env, () => startTestApp(db))];
    ports = await Promise.all(instances.map(async (t) => Number(new URL(await listenLocal(t.app)).port)));
  }, 60_000);
  afterAll(async () => {
    await instances?.[1]?.stopApp();
    await instances?.[0]?.close();
  });

  /** Commands each instance has handled so far (its bismarck_commands_total). */
  const commandsServed = (): Promise<number[]> =>
    Promise.all(
      instances.map(async (t) => {
        const counter = t.app.get(MetricsService).registry.getSingleMetric('bismarck_commands_total') as Counter;
        return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
      }),
    );

  async function through<T>(routing: Routing, work: (lb: LoadBalancer, http: () => ReturnType<typeof request>) => Promise<T>): Promise<T> {
    const lb = await startLoadBalancer(routing, ports);
    try {
      return await work(lb, () => request(`http://127.0.0.1:${lb.port}`));
    } finally {
      await lb.stop();
    }
  }

  it('routed by match id, all the commands of a match reach one instance; creations, which have no id, reach both', async () => {
    await through('hashed', async (_, http) => {
      const start = await commandsServed();
      const matches = [];
      for (let i = 0; i < 4; i++) matches.push(await createMatch(http, { seed: `hashed-${i}` }));
      const created = (await commandsServed()).map((n, i) => n - start[i]);
      expect(created[0] + created[1]).toBe(4);
      expect(Math.min(...created)).toBeGreaterThan(0);
      for (const [i, match] of matches.entries()) {
        const before = await commandsServed();
        for (let k = 0; k < 6; k++) await playOneAction(http, match, seededPick(i));
        const served = (await commandsServed()).map((n, j) => n - before[j]);
        expect(served.sort()).toEqual([0, 6]);
      }
    });
  }, 60_000);

  it('round robin spreads the commands of one match over both instances, and every one is accepted', async () => {
    await through('roundRobin', async (_, http) => {
      const match = await createMatch(http, { seed: 'round-robin' });
      const before = await commandsServed();
      for (let k = 0; k < 8; k++) await playOneAction(http, match, seededPick(3));
      const served = (await commandsServed()).map((n, j) => n - before[j]);
      expect(served[0] + served[1]).toBe(8);
      expect(Math.min(...served)).toBeGreaterThan(0);
    });
  }, 60_000);

  it('a stream through nginx receives each event as it is appended, through either instance: unbuffered, once each, in order', async () => {
    await through('hashed', async (lb, http) => {
      const match = await createMatch(http, { seed: 'stream-through-nginx' });
      const controller = new AbortController();
      const received: MatchEvent[] = [];
      const reading = (async () => {
        try {
          for await (const e of streamMatchEvents(`http://127.0.0.1:${lb.port}`, match.id, { signal: controller.signal, reconnect: false })) received.push(e);
        } catch (error) {
          if (!controller.signal.aborted) throw error;
        }
      })();
      try {
        for (let k = 0; k < 8; k++) {
          // Straight to one instance, then the other: half the appends come through the instance the stream is not on.
          const direct = instances[k % 2];
          await playOneAction(direct.http, match, seededPick(5));
          const { version } = (await direct.http().get(`/api/matches/${match.id}`).expect(200)).body;
          // Each event arrives while the stream stays open: nginx holds nothing back.
          const deadline = Date.now() + 5000;
          while (received.at(-1)?.version !== version && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          expect(received.at(-1)?.version).toBe(version);
        }
      } finally {
        controller.abort();
        await reading;
      }
      expect(received.map((e) => e.version)).toEqual(received.map((_, i) => i + 1));
    });
  }, 60_000);

  it('counts each client by the address nginx saw: X-Forwarded-For entries a client forges change nothing', async () => {
    await through('oneInstance', async (_, http) => {
      const statuses: number[] = [];
      for (let i = 0; i < CREATES_PER_ADDRESS + 2; i++) {
        const forged = `203.0.113.${i + 1}, 198.51.100.${i + 1}`;
        statuses.push((await http().post('/api/matches').set('X-Forwarded-For', forged).send({ players: ['A', 'B', 'C'] })).status);
      }
      // Earlier tests of this file created some matches from this address too: fewer may be left.
      expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(CREATES_PER_ADDRESS);
      expect(statuses.slice(-2)).toEqual([429, 429]);
    });
  }, 60_000);
});
