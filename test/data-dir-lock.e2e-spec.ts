import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createMatch } from './support/player';

// The compiled service and command line, as `npm start` and `npm run bismarck` run them.
const MAIN = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'main.js');
const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

// Always on the embedded database (in a temp directory), with DATABASE_URL or without.
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  for (const file of [MAIN, CLI]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (npm test does it first)`);
  }
  dataDir = mkdtempSync(join(tmpdir(), 'bismarck-lock-e2e-'));
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { proc: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', BISMARCK_DATA_DIR: dataDir, ...extraEnv };
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, output: () => out, exit };
}

/** Starts the service and resolves with it and its base URL once it listens. */
function startService(): Promise<{ proc: ChildProcess; url: string }> {
  const { proc, output, exit } = run([MAIN]);
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      const m = /listening on (http:\/\/localhost:\d+)/.exec(output());
      if (m) resolve({ proc, url: m[1] });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    void exit.then((code) => reject(new Error(`service exited with ${code}: ${output()}`)));
  });
}

/** Runs a process that must refuse: resolves with its exit code, output and how long it took. */
async function refused(args: string[]): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const { output, exit } = run(args);
  const code = await exit;
  return { code, output: output(), ms: Date.now() - started };
}

describe('one process per embedded data directory', () => {
  it('refuses a second server and the rebuild command while one serves, and is taken over after a crash', async () => {
    const first = await startService();
    const match = await createMatch(() => request(first.url));
    const holder = `in use by process ${first.proc.pid} (`;

    const second = await refused([MAIN]);
    expect(second.code).not.toBe(0);
    expect(second.ms).toBeLessThan(30_000); // refused, not left waiting (a process start alone takes seconds on a busy machine)
    expect(second.output).toContain(`embedded database directory ${dataDir} is ${holder}`);
    expect(second.output).not.toContain('listening on');
    expect(second.output).not.toMatch(/\n\s+at /); // a message, not a stack trace

    await request(first.url).get(`/api/matches/${match.id}`).expect(200);

    const rebuild = await refused([CLI, 'rebuild', '--compare-only']);
    expect(rebuild.code).not.toBe(0);
    expect(rebuild.output).toContain(`embedded database directory ${dataDir} is ${holder}`);
    expect(rebuild.output).not.toContain('replayed');

    const killed = new Promise((resolve) => first.proc.once('exit', resolve));
    first.proc.kill('SIGKILL');
    await killed;
    const next = await startService();
    await request(next.url).get(`/api/matches/${match.id}`).expect(200);

    // A clean stop (SIGTERM, as from a service manager) exits 0 and leaves the directory unlocked.
    const stopped = new Promise<number | null>((resolve) => next.proc.once('exit', (code) => resolve(code)));
    next.proc.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(existsSync(join(dataDir, 'bismarck.lock'))).toBe(false);
  }, 120_000);
});

describe('a wrong setting', () => {
  it.each([
    [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN must be at least 16 characters\n$/],
    [{ PORT: 'abc' }, /^PORT must be an integer from 0 to 65535, got "abc"\n$/],
    [{ TRUST_PROXY: 'uniquelocal' }, /^TRUST_PROXY must be the number of proxies in front of the service or a comma-separated list of their exact IP addresses, got "uniquelocal": .*TRUST_PROXY=1 behind one nginx.*\n$/],
  ])('%j stops `npm start` with exit 1 and its message alone, before the database starts', async (env, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'bismarck-setting-'));
    try {
      const started = run([MAIN], { ...env, BISMARCK_DATA_DIR: dir });
      expect(await started.exit).toBe(1);
      expect(started.output()).toMatch(message);
      expect(existsSync(join(dir, 'bismarck.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

