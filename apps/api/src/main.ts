import { DataDirectoryLockedError, resolveDatabaseUrl } from '@bismarck/database';
import { createApp } from './bootstrap';
import { appConfig, type AppConfig } from './config/app.config';

/** `npm start`: the api on PORT, on DATABASE_URL or else the embedded PostgreSQL. */
async function main(): Promise<void> {
  const database = await resolveDatabaseUrl();
  const app = await createApp({ databaseUrl: database.url, embedded: database.embedded, poolSize: Number(process.env.DB_POOL_SIZE) || undefined });
  await app.listen(app.get<string | symbol, AppConfig>(appConfig.KEY).port, process.env.HOST ?? '0.0.0.0');
  const { port } = app.getHttpServer().address() as { port: number };
  const where = database.embedded ? `embedded PostgreSQL (${database.dataDir})` : 'DATABASE_URL';
  console.log(`Bismarck api listening on http://localhost:${port} (docs at /docs), on ${where}`);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  // Another process has the embedded database: the operator needs its message, not a stack.
  console.error(error instanceof DataDirectoryLockedError ? error.message : error);
  process.exit(1);
});
