import { DataDirectoryLockedError, resolveDatabaseUrl } from '@bismarck/database';
import { createApp } from './bootstrap';
import { appConfig, type AppConfig } from './platform/config/app.config';
import { edgeConfig } from './platform/config/edge.config';
import { SettingError } from './platform/config/env';

/** `npm start`: the api on PORT, on DATABASE_URL or else the embedded PostgreSQL. */
async function main(): Promise<void> {
  // Checked before the database starts: a wrong setting stops here with its message alone. The app
  // reads its settings through Nest (appConfig.KEY); this only runs the same validation first.
  appConfig();
  edgeConfig();
  const database = await resolveDatabaseUrl();
  const app = await createApp({ databaseUrl: database.url, embedded: database.embedded, poolSize: Number(process.env.DB_POOL_SIZE) || undefined, shutdownHooks: false }).catch(
    async (error: unknown) => {
      await database.stop(); // the embedded database and its lock, for the next start
      throw error;
    },
  );
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
  // Another process has the embedded database, or a setting is wrong: the operator needs its message, not a stack.
  console.error(error instanceof DataDirectoryLockedError || error instanceof SettingError ? error.message : error);
  process.exit(1);
});
