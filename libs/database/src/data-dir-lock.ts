import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { hostname } from 'node:os';

/**
 * One process per embedded data directory. PGlite honours no lock of its own (its postmaster.pid is
 * never checked), and two processes on one directory each serve their own copy and lose each other's
 * writes, so `startEmbeddedPostgres` takes this lock before its PGlite child opens the directory.
 *
 * The lock is a file, `<dataDir>/bismarck.lock`, naming its holder. Node has no flock(), so "released
 * when the holder dies" means: a lock whose processes are all gone is stale and the next starter takes
 * it over. Both the holder and its PGlite child count, since the child may still be writing for a
 * moment after its parent was SIGKILLed. Only processes on this host can be checked; another host's
 * lock (a shared volume) is held until a person removes it.
 */
export const DATA_DIR_LOCK_FILE = 'bismarck.lock';

/** Who holds a data directory: the lock file's JSON. */
export interface DataDirLockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly startedAt: string;
  readonly command: string;
  /** The PGlite child's pid, once it has been spawned. */
  readonly serverPid: number | null;
  /** Linux: the kernel's start time of each process, so a pid reused by another process reads as dead. */
  readonly pidStart?: string;
  readonly serverPidStart?: string;
  /** Linux: this boot; after a reboot every recorded process is gone, whatever now has its pid. */
  readonly bootId?: string;
  /** Makes every lock's text unique, so "the stale lock I saw" can never be confused with a later one. */
  readonly nonce: string;
}

export class DataDirectoryLockedError extends Error {
  override readonly name = 'DataDirectoryLockedError';
  constructor(
    message: string,
    /** The absolute data directory. */
    readonly dataDir: string,
    readonly holder: DataDirLockHolder | undefined,
  ) {
    super(message);
  }
}

export interface DataDirLock {
  readonly dataDir: string;
  /** Records the PGlite child: the lock then stays held until both it and this process are gone. */
  setServerPid(pid: number): void;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

export interface DataDirLockOptions {
  /**
   * How long to wait when the holder is gone but its PGlite child is still exiting (or a lock file is
   * still being written). Default 8 s: a restart right after a SIGKILL waits rather than fails.
   */
  readonly waitMs?: number;
}

const UNREADABLE_GRACE_MS = 5_000;
const POLL_MS = 50;

/** Takes the lock on `dataDir` (created if missing), or throws DataDirectoryLockedError. */
export async function acquireDataDirLock(dataDir: string, options: DataDirLockOptions = {}): Promise<DataDirLock> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, DATA_DIR_LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 8_000);
  let mine = newHolder();
  let text = JSON.stringify(mine);
  for (;;) {
    if (createExclusive(path, text)) break;
    const current = readLock(path);
    const state = current ? assess(current) : 'gone';
    if (state === 'held' || state === 'foreign') throw lockedError(dir, current?.holder, state);
    // Gone (released meanwhile) or just broken: try to create it again at once.
    if (state === 'gone' || (state === 'stale' && breakStale(dir, path, current!.text))) continue;
    if (Date.now() > deadline) throw lockedError(dir, current?.holder, state);
    await sleep(POLL_MS);
  }
  removeLeftovers(dir);
  let released = false;
  return {
    dataDir: dir,
    setServerPid(pid: number) {
      if (released || readText(path) !== text) return; // removed by hand: do not recreate someone else's
      mine = { ...mine, serverPid: pid, serverPidStart: processStart(pid) };
      text = JSON.stringify(mine);
      // A rename, so a reader sees the old whole file or the new whole file.
      const tmp = tempName(path);
      writeFileSync(tmp, text, { flag: 'wx' });
      renameSync(tmp, path);
    },
    release() {
      if (released) return;
      released = true;
      if (readText(path) === text) unlinkQuietly(path);
    },
  };
}

type LockState = 'held' | 'foreign' | 'exiting' | 'writing' | 'stale' | 'gone';

interface LockFile {
  readonly text: string;
  readonly holder?: DataDirLockHolder;
  readonly ageMs: number;
}

function assess(lock: LockFile): LockState {
  const h = lock.holder;
  // Only a crash between create and write leaves an unreadable lock (link() writes it whole).
  if (!h || typeof h.hostname !== 'string') return lock.ageMs < UNREADABLE_GRACE_MS ? 'writing' : 'stale';
  if (h.hostname !== hostname()) return 'foreign';
  const boot = bootId();
  if (h.bootId && boot && h.bootId !== boot) return 'stale';
  if (isAlive(h.pid, h.pidStart)) return 'held';
  if (h.serverPid && isAlive(h.serverPid, h.serverPidStart)) return 'exiting';
  return 'stale';
}

/**
 * Removes the stale lock whose text is `staleText`, unless someone else is doing so; true when the
 * caller should simply try to create the lock again.
 *
 * Why not one `.breaking` mutex judged stale by its age: two starters could both decide that an old
 * mutex is stale, and the second would remove the first's fresh one; a slow (not dead) breaker would
 * lose it too. Instead the mutex is named after the stale text itself, so only one process can ever
 * remove that text, and a later lock (different text, thanks to the nonce) is never touched by it.
 * If that breaker dies half-way, the next attempt number takes over, only once its pid is dead.
 */
function breakStale(dir: string, path: string, staleText: string): boolean {
  for (let attempt = 0; attempt < 16; attempt++) {
    const marker = join(dir, breakMarkerName(staleText, attempt));
    if (createExclusive(marker, JSON.stringify({ pid: process.pid, pidStart: processStart(process.pid) }))) {
      try {
        if (readText(path) === staleText) unlinkIfPresent(path);
      } finally {
        unlinkQuietly(marker);
      }
      return true;
    }
    const breaker = readBreaker(marker);
    if (breaker === 'gone') return true; // that breaker has just finished: look again
    if (breaker === 'busy' || isAlive(breaker.pid, breaker.pidStart)) return false; // wait and look again
  }
  return false;
}

/** @internal The mutex file for removing one stale lock text (exported for tests). */
export function breakMarkerName(staleText: string, attempt: number): string {
  const id = createHash('sha256').update(staleText).digest('hex').slice(0, 16);
  return `${DATA_DIR_LOCK_FILE}.breaking-${id}.${attempt}`;
}

/** Break markers and temp files left by processes that died in the middle of their few milliseconds. */
function removeLeftovers(dir: string): void {
  const prefix = `${DATA_DIR_LOCK_FILE}.`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const file = join(dir, name);
    if (name.startsWith(`${prefix}breaking-`)) {
      const breaker = readBreaker(file);
      if (typeof breaker === 'object' && !isAlive(breaker.pid, breaker.pidStart)) unlinkQuietly(file);
    } else {
      const tmp = /^bismarck\.lock\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
      if (tmp && !isAlive(Number(tmp[1]))) unlinkQuietly(file);
    }
  }
}

/** Creates `path` with `text` unless it exists. The text is written first and then linked, so a reader never sees half of it. */
function createExclusive(path: string, text: string): boolean {
  const tmp = tempName(path);
  writeFileSync(tmp, text, { flag: 'wx' });
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
  } finally {
    unlinkQuietly(tmp);
  }
  // A file system without hard links: an exclusive create, whose reader may briefly see it empty ('writing').
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function readLock(path: string): LockFile | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const ageMs = Date.now() - statSync(path).mtimeMs;
    return { text, ageMs, holder: parseHolder(text) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseHolder(text: string): DataDirLockHolder | undefined {
  try {
    const h = JSON.parse(text) as DataDirLockHolder;
    return Number.isInteger(h?.pid) ? h : undefined;
  } catch {
    return undefined;
  }
}

/** A break marker's holder, 'gone' when the file is, 'busy' when it is still being written. */
function readBreaker(path: string): { pid: number; pidStart?: string } | 'gone' | 'busy' {
  const lock = readLock(path);
  if (!lock) return 'gone';
  if (lock.holder) return lock.holder;
  return lock.ageMs < UNREADABLE_GRACE_MS ? 'busy' : { pid: 0 }; // written by a process that died at once
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Unlinks `path`; a file already gone is fine, any other failure (permissions) is the caller's to see. */
function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function tempName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

function newHolder(): DataDirLockHolder {
  return {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: shortCommand(),
    serverPid: null,
    pidStart: processStart(process.pid),
    bootId: bootId(),
    nonce: randomBytes(8).toString('hex'),
  };
}

/** `node dist/apps/api/src/main.js`, not two absolute paths. */
function shortCommand(): string {
  const [exe, script, ...rest] = process.argv;
  const parts = [basename(exe ?? 'node')];
  if (script) {
    const rel = relative(process.cwd(), script);
    parts.push(rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : script);
  }
  const command = [...parts, ...rest].join(' ');
  return command.length > 120 ? `${command.slice(0, 119)}…` : command;
}

/** Alive by signal 0 (EPERM: alive, someone else's), unless it is a zombie or the pid now belongs to a younger process. */
function isAlive(pid: number, recordedStart?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true; // no /proc: signal 0 is all we can know
  if (stat.state === 'Z' || stat.state === 'X') return false; // exited, not yet reaped (an orphan under a lax init)
  return !recordedStart || stat.start === recordedStart;
}

function processStart(pid: number): string | undefined {
  return procStat(pid)?.start;
}

/** Linux /proc/<pid>/stat: the state (field 3) and start time in clock ticks since boot (field 22). */
function procStat(pid: number): { state: string; start: string } | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the name may hold spaces and ')'
  return fields.length > 19 ? { state: fields[0], start: fields[19] } : undefined;
}

function bootId(): string | undefined {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

function lockedError(dir: string, holder: DataDirLockHolder | undefined, state: LockState): DataDirectoryLockedError {
  const lockFile = join(dir, DATA_DIR_LOCK_FILE);
  const elsewhere = 'stop it first, or set BISMARCK_DATA_DIR to another directory';
  const who = holder ? `process ${holder.pid} (${holder.command}, started ${holder.startedAt})` : 'another process';
  let message: string;
  switch (state) {
    case 'foreign':
      message =
        `embedded database directory ${dir} is in use by ${who} on host ${holder?.hostname}, which this host cannot check; ` +
        `${elsewhere} (if you are sure that process is gone, delete ${lockFile})`;
      break;
    case 'exiting':
      message =
        `embedded database directory ${dir} is still in use by its database process ${holder?.serverPid}, ` +
        `left by ${who}, which is gone; wait for it to exit or end it (kill ${holder?.serverPid}), then start again`;
      break;
    case 'held':
      message = `embedded database directory ${dir} is in use by ${who}; ${elsewhere}`;
      break;
    default:
      // A lock still being written or broken after the whole wait: no holder worth naming.
      message = `embedded database directory ${dir} is being locked by another process; try again, or set BISMARCK_DATA_DIR to another directory`;
  }
  return new DataDirectoryLockedError(message, dir, holder);
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
