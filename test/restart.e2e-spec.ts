import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, onRealServer, type TestDatabase } from './support/database';
import { createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

// The compiled service, as `npm start` runs it (`npm test` builds it first).
const MAIN = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'main.js');

let db: TestDatabase | undefined;
let dataDir: string | undefined;
let child: ChildProcess | undefined;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` (npm test does it first)`);
  if (onRealServer) db = await createTestDatabase({ migrations: [] });
  else dataDir = mkdtempSync(join(tmpdir(), 'bismarck-restart-'));
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** Starts the service in its own process and resolves with its base URL. */
function startService(): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn' };
  if (db) env.DATABASE_URL = db.url;
  else {
    delete env.DATABASE_URL;
    env.BISMARCK_DATA_DIR = dataDir;
  }
  const proc = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (m) resolve(m[1]);
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

describe('a killed and restarted service', () => {
  it('resumes every match where it was, and plays on to the end', async () => {
    let url = await startService();
    let http = () => request(url);
    const matches: CreatedMatch[] = [];
    for (let i = 0; i < 3; i++) matches.push(await createMatch(http, { options: { schedule: 'quick' } }));
    await Promise.all(
      matches.map(async (m, i) => {
        for (let k = 0; k < 20 + i * 13; k++) await playOneAction(http, m, seededPick(i));
      }),
    );
    const before = await Promise.all(matches.map(async (m) => (await http().get(`/api/matches/${m.id}`).expect(200)).body));

    await kill(child!);
    url = await startService();
    http = () => request(url);

    const after = await Promise.all(matches.map(async (m) => (await http().get(`/api/matches/${m.id}`).expect(200)).body));
    expect(after).toEqual(before);
    for (const [i, m] of matches.entries()) {
      while (await playOneAction(http, m, seededPick(100 + i)));
      const card = (await http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body;
      expect(card.finished).toBe(true);
      expect(card.deals).toHaveLength(3);
    }
  }, 120_000);
});
