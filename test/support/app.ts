import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore } from '@bismarck/event-store';
import { ProjectionRebuilder, type TableDifference } from '@bismarck/projections';
import { buildOpenApi, createApp } from '../../apps/api/src/bootstrap';
import { watchContract, type ContractWatch } from './contract';
import { createTestDatabase, STARTUP_MS, type TestDatabase } from './database';

export interface TestApp {
  app: NestExpressApplication;
  db: TestDatabase;
  http: () => ReturnType<typeof request>;
  /** Every answer of this app checked against its OpenAPI document; stopping the app fails on a broken one. */
  contract: ContractWatch;
  /** Closes the app, keeping the database (to start another app on it). */
  stopApp(): Promise<void>;
  close(): Promise<void>;
}

/** The whole api on a fresh database of its own: a real server with DATABASE_URL, else embedded. */
export async function startTestApp(existing?: TestDatabase): Promise<TestApp> {
  const db = existing ?? (await createTestDatabase({ migrations: [] }));
  // One test client creates hundreds of matches a minute and audits them all: no creation limit, no
  // whole-match read limit and no cap on strong-bot matches unless a test sets one (test/edge.e2e-spec.ts,
  // test/service-actors.e2e-spec.ts test them).
  const unset = ['RATE_LIMIT_CREATES_PER_ADDRESS', 'RATE_LIMIT_WHOLE_MATCH_READS_PER_ADDRESS', 'STRONG_BOT_MATCHES_PER_CALLER'].filter((name) => process.env[name] === undefined);
  for (const name of unset) process.env[name] = '0';
  // A person against bots would wait 1.5 s at each bot lay-away: a short pause keeps the path in use
  // without slowing every such test (test/bot-table-cards.e2e-spec.ts sets its own).
  if (process.env.BOT_TABLE_CARDS_PAUSE_MS === undefined) {
    unset.push('BOT_TABLE_CARDS_PAUSE_MS');
    process.env.BOT_TABLE_CARDS_PAUSE_MS = '20';
  }
  const app = await createApp({ databaseUrl: db.url, embedded: db.embedded, quiet: true, poolSize: 8 }).finally(() => {
    for (const name of unset) delete process.env[name];
  });
  await app.init();
  const contract = watchContract(app.getHttpServer(), buildOpenApi(app));
  let stopped = false;
  const stopApp = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await app.close();
    contract.assertKept();
  };
  return {
    app,
    db,
    http: () => request(app.getHttpServer()),
    contract,
    stopApp,
    close: async () => {
      try {
        await stopApp();
      } finally {
        await db.drop();
      }
    },
  };
}

/**
 * The api for one test file: started before its tests on a database of its own, closed after them.
 * The returned handle is filled in by `beforeAll`, so use it inside tests and hooks only.
 */
export function useTestApp(before?: () => void, after?: () => void): TestApp {
  const handle = {} as TestApp;
  beforeAll(async () => {
    before?.();
    Object.assign(handle, await startTestApp());
  }, STARTUP_MS);
  // Closing the app (its sweeps, bot threads and pool) and then the database takes seconds on a busy
  // machine: more than jest's default 5 s for a hook.
  afterAll(async () => {
    after?.();
    await handle.close?.();
  }, 60_000);
  return handle;
}

/**
 * Two api instances on one database of their own, as a deployment behind a load balancer runs them:
 * started before the file's tests, the second stopped and the first closed (dropping the database) after.
 * The handles are filled in by `beforeAll`, so use them inside tests and hooks only.
 */
export function useTwoTestApps(): { a: TestApp; b: TestApp } {
  const a = {} as TestApp;
  const b = {} as TestApp;
  beforeAll(async () => {
    const db = await createTestDatabase({ migrations: [] });
    Object.assign(a, await startTestApp(db));
    Object.assign(b, await startTestApp(db));
  }, 2 * STARTUP_MS);
  afterAll(async () => {
    await b.stopApp?.();
    await a.close?.();
  }, 60_000);
  return { a, b };
}

/** Rebuilds every projection from the log into fresh tables and compares them with the live ones (nothing is swapped). */
export async function rebuildDifferences(app: NestExpressApplication): Promise<TableDifference[]> {
  const db = app.get(DataSource);
  const rebuilder = new ProjectionRebuilder(app.get(EventStore), db, (work) => db.transaction((m) => work(m)));
  await rebuilder.rebuild();
  try {
    return await rebuilder.compare();
  } finally {
    await rebuilder.dropRebuildTables();
  }
}
