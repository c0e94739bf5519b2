import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { acquireDataDirLock, breakMarkerName, DATA_DIR_LOCK_FILE, DataDirectoryLockedError } from './data-dir-lock';

jest.setTimeout(30_000);

const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bismarck-lock-'));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has come and gone. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

/** A lock file as another process would have left it; returns its text. */
function writeLock(dir: string, fields: Record<string, unknown>): string {
  const text = JSON.stringify({
    pid: deadPid(),
    hostname: hostname(),
    startedAt: '2026-01-02T03:04:05.000Z',
    command: 'node old-server.js',
    serverPid: null,
    nonce: randomBytes(8).toString('hex'),
    ...fields,
  });
  writeFileSync(join(dir, DATA_DIR_LOCK_FILE), text);
  return text;
}

const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, DATA_DIR_LOCK_FILE), 'utf8'));

describe('the data directory lock', () => {
  it('refuses a second holder, naming the directory and the first', async () => {
    const dir = tempDir();
    const lock = await acquireDataDirLock(dir);
    const refusal = acquireDataDirLock(dir);
    await expect(refusal).rejects.toBeInstanceOf(DataDirectoryLockedError);
    await expect(refusal).rejects.toThrow(
      `embedded database directory ${dir} is in use by process ${process.pid} (`,
    );
    await expect(refusal).rejects.toThrow('stop it first, or set BISMARCK_DATA_DIR to another directory');
    lock.release();
  });

  it('is free again once released, and release is idempotent', async () => {
    const dir = tempDir();
    const first = await acquireDataDirLock(dir);
    first.release();
    first.release();
    expect(existsSync(join(dir, DATA_DIR_LOCK_FILE))).toBe(false);
    const second = await acquireDataDirLock(dir);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, hostname: hostname(), serverPid: null });
    second.release();
  });

  it('records the database process, and release removes only its own lock', async () => {
    const dir = tempDir();
    const lock = await acquireDataDirLock(dir);
    lock.setServerPid(4242);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, serverPid: 4242 });
    const theirs = writeLock(dir, { pid: process.pid, command: 'someone else' });
    lock.release();
    expect(readFileSync(join(dir, DATA_DIR_LOCK_FILE), 'utf8')).toBe(theirs);
  });

  it('takes over the lock of a process that is gone', async () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), serverPid: deadPid() });
    const lock = await acquireDataDirLock(dir);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('waits while a dead holder\'s database process is still exiting, and refuses if it stays', async () => {
    const dir = tempDir();
    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(server);
    writeLock(dir, { pid: deadPid(), serverPid: server.pid });

    await expect(acquireDataDirLock(dir, { waitMs: 300 })).rejects.toThrow(
      `is still in use by its database process ${server.pid}`,
    );
    const started = Date.now();
    const waiting = acquireDataDirLock(dir, { waitMs: 20_000 }); // long beside a SIGKILL's reaping on a busy machine
    setTimeout(() => server.kill('SIGKILL'), 400);
    const lock = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('refuses another host\'s lock, since it cannot check it, and says how to remove it', async () => {
    const dir = tempDir();
    writeLock(dir, { hostname: 'elsewhere.example', pid: deadPid() });
    const refusal = acquireDataDirLock(dir);
    await expect(refusal).rejects.toThrow('on host elsewhere.example, which this host cannot check');
    await expect(refusal).rejects.toThrow(`delete ${join(dir, DATA_DIR_LOCK_FILE)}`);
  });

  it('waits for a lock file still being written, and takes over one that never was', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATA_DIR_LOCK_FILE), '{"pid":');
    await expect(acquireDataDirLock(dir, { waitMs: 200 })).rejects.toThrow('is being locked by another process');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, DATA_DIR_LOCK_FILE), old, old);
    (await acquireDataDirLock(dir)).release();
  });

  it('gets past a breaker that died while removing a stale lock, and clears what it left', async () => {
    const dir = tempDir();
    const stale = writeLock(dir, { pid: deadPid() });
    writeFileSync(join(dir, breakMarkerName(stale, 0)), JSON.stringify({ pid: deadPid() }));
    writeFileSync(join(dir, `${DATA_DIR_LOCK_FILE}.${deadPid()}.0123456789ab.tmp`), stale);
    const lock = await acquireDataDirLock(dir);
    expect(readdirSync(dir)).toEqual([DATA_DIR_LOCK_FILE]);
    lock.release();
  });

  describe('six processes starting at once', () => {
    let modulePath: string;
    beforeAll(() => {
      // The children load the module as plain JavaScript (it needs node: built-ins only).
      const out = tempDir();
      modulePath = join(out, 'data-dir-lock.js');
      const { code } = transformFileSync(join(__dirname, 'data-dir-lock.ts'), {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      writeFileSync(modulePath, code);
    });

    /** Each child tries at the same instant, reports one line, and holds what it got until its stdin closes. */
    const racer = `
      const { acquireDataDirLock } = require(process.argv[1]);
      setTimeout(async () => {
        let report;
        try {
          await acquireDataDirLock(process.argv[2]);
          report = { pid: process.pid, won: true };
        } catch (err) {
          report = { pid: process.pid, won: false, name: err.name, message: err.message };
        }
        console.log(JSON.stringify(report));
        process.stdin.on('end', () => process.exit(0)).resume();
      }, Number(process.argv[3]) - Date.now());
    `;

    async function race(dir: string): Promise<{ pid: number; won: boolean; name?: string; message?: string }[]> {
      const at = Date.now() + 1_500;
      const procs = Array.from({ length: 6 }, () =>
        spawn(process.execPath, ['-e', racer, modulePath, dir, String(at)], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      children.push(...procs);
      const reports = await Promise.all(
        procs.map(
          (p) =>
            new Promise<string>((resolve, reject) => {
              let out = '';
              p.stdout!.on('data', (chunk: Buffer) => {
                out += chunk.toString();
                if (out.includes('\n')) resolve(out.trim());
              });
              p.once('exit', (code) => reject(new Error(`racer exited with ${code}: ${out}`)));
            }),
        ),
      );
      const exits = procs.map((p) => new Promise((done) => p.once('exit', done)));
      for (const p of procs) p.stdin!.end();
      await Promise.all(exits);
      return reports.map((r) => JSON.parse(r));
    }

    it.each([
      ['a stale lock', (dir: string) => void writeLock(dir, { pid: deadPid(), serverPid: deadPid() })],
      ['no lock', () => undefined],
    ])('on %s: exactly one gets it, the others are told who', async (_what, prepare) => {
      const dir = tempDir();
      prepare(dir);
      const reports = await race(dir);
      const winners = reports.filter((r) => r.won);
      expect(winners).toHaveLength(1);
      for (const loser of reports.filter((r) => !r.won)) {
        expect(loser.name).toBe('DataDirectoryLockedError');
        expect(loser.message).toContain(`in use by process ${winners[0].pid} (`);
      }
    });
  });
});
