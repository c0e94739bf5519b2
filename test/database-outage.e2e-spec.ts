import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { buildOpenApi, createApp } from '../apps/api/src/bootstrap';
import { watchContract, type ContractWatch } from './support/contract';
import { createTestDatabase, type TestDatabase } from './support/database';
import { createMatch, playOneAction, type CreatedMatch } from './support/player';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';

// The database goes away under a running service (a restart, a failover, a cut network), then comes
// back: meanwhile every request that needs it answers 503 DATABASE_UNAVAILABLE with Retry-After
// (never 500), and afterwards the same service serves again without a restart.
describe('a database outage', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  // The 503s of an outage are held to the document like every other answer.
  let contract: ContractWatch;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    db = await createTestDatabase({ migrations: [] });
    const target = new URL(db.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    app = await createApp({ databaseUrl: viaProxy.toString(), embedded: db.embedded, quiet: true, poolSize: 4 });
    await app.init();
    contract = watchContract(app.getHttpServer(), buildOpenApi(app));
  }, 60_000);
  afterAll(async () => {
    await proxy?.up().catch(() => undefined);
    await app?.close();
    await proxy?.close();
    await db?.drop();
    contract?.assertKept();
  }, 60_000);

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while it is away, and serves again when it is back', async () => {
    const match: CreatedMatch = await createMatch(http, { options: { schedule: 'quick' } });
    await playOneAction(http, match);
    const before = (await http().get(`/api/matches/${match.id}`).expect(200)).body.version;

    await proxy.down();
    const answers = [
      await http().post('/api/matches').send({ players: ['A', 'B', 'C'] }),
      await http().get(`/api/matches/${match.id}`),
      await http().get('/api/matches'),
      await http().get(`/api/matches/${match.id}/events`),
      await http().post(`/api/matches/${match.id}/deal`).set('Authorization', `Bearer ${match.seats[0].token}`),
    ];
    for (const res of answers) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await http().get('/health')).status).toBe(503);

    await proxy.up();
    let back = false;
    for (let i = 0; i < 50 && !back; i++) {
      back = (await http().get(`/api/matches/${match.id}`)).status === 200;
      if (!back) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toBe(true);
    // Nothing was appended while it was away; play goes on.
    expect((await http().get(`/api/matches/${match.id}`).expect(200)).body.version).toBe(before);
    expect(await playOneAction(http, match)).toBe(true);
    await http().post('/api/matches').send({ players: ['A', 'B', 'C'] }).expect(201);
  }, 90_000);
});
