#!/usr/bin/env node
'use strict';
// `npx bismarck …` and `npm run bismarck -- …`: runs the built command line (dist/) at once. It builds
// first only when dist/ is missing or older than a source under apps/ or libs/, and then only once:
// launchers started together (three bots) wait on one lock instead of each running tsc over dist/.
// Plain JavaScript, because it must run before anything is compiled.
const { spawn } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const MAIN = path.join(DIST, 'apps', 'cli', 'src', 'main.js');
const LOCK = path.join(DIST, '.build.lock');
const SOURCES = ['apps', 'libs', 'tsconfig.json', 'tsconfig.build.json'];
const POLL_MS = 200;
/** A lock file or break marker that cannot be read this long after it was written was left by a crash. */
const UNREADABLE_GRACE_MS = 5_000;

/** Why dist/ must be (re)built, or null when it is up to date. */
function staleness() {
  let built;
  try {
    built = fs.statSync(MAIN).mtimeMs;
  } catch {
    return 'dist/ has no build';
  }
  if (built === 0) return 'the last build failed or was interrupted';
  const newer = SOURCES.map((s) => newerThan(path.join(ROOT, s), built)).find(Boolean);
  return newer ? `${path.relative(ROOT, newer)} changed since the last build` : null;
}

/**
 * The first source file under `file` modified after `time` (tests, dotfiles and build output do not
 * count: `npm run client:pack` writes libs/client/dist, which the build neither reads nor writes).
 */
function newerThan(file, time) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return null; // an installation without sources (the docker image): dist/ is all there is
  }
  if (!stat.isDirectory()) return stat.mtimeMs > time ? file : null;
  for (const entry of fs.readdirSync(file, { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith('.') || name === 'node_modules' || name === 'test' || /\.(e2e-)?spec\.ts$/.test(name)) continue;
    if (name === 'dist' && entry.isDirectory()) continue;
    const found = newerThan(path.join(file, name), time);
    if (found) return found;
  }
  return null;
}

/** Runs `npm run build` under the lock; resolves once dist/ is fresh (built here or by another launcher). */
async function buildOnce() {
  fs.mkdirSync(DIST, { recursive: true });
  const text = JSON.stringify({ pid: process.pid, start: processStart(process.pid), nonce: randomBytes(8).toString('hex') });
  let said = false;
  while (!createExclusive(LOCK, text)) {
    const held = readText(LOCK);
    if (held === undefined) continue; // released meanwhile
    if (isStale(held, LOCK)) {
      breakStale(held);
      continue;
    }
    if (!said) console.error(`bismarck: waiting for the build of process ${holderOf(held)?.pid ?? '?'}…`);
    said = true;
    await sleep(POLL_MS);
  }
  const release = () => {
    if (readText(LOCK) === text) unlinkQuietly(LOCK);
  };
  try {
    // Another launcher may have built while this one waited.
    const reason = staleness();
    if (!reason) return;
    const started = Date.now();
    const code = await runBuild(reason, release);
    if (code !== 0) {
      // Whatever was half written must not pass for a build next time.
      if (fs.existsSync(MAIN)) fs.utimesSync(MAIN, 0, 0);
      console.error('bismarck: the build failed (above); fix it, or run `npm ci && npm run build`');
      release(); // process.exit skips the finally below
      process.exit(code ?? 1);
    }
    // The build read the sources after it started: a file saved while it ran is newer than this.
    fs.utimesSync(MAIN, new Date(), new Date(started));
  } finally {
    release();
  }
}

/** `npm run -s build`, its output on stderr (stdout is the command's); interrupted, it leaves no lock. */
function runBuild(reason, release) {
  return new Promise((resolve, reject) => {
    const stop = (signal) => {
      child.kill(signal);
      if (fs.existsSync(MAIN)) fs.utimesSync(MAIN, 0, 0);
      release();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
    console.error(`bismarck: building (${reason}), once…`);
    const child = spawn('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
    child.on('error', reject);
    child.on('exit', (code) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve(code);
    });
  });
}

/** A lock whose holder is gone (or unreadable for long: its writer died between create and write). */
function isStale(text, file) {
  const holder = holderOf(text);
  if (!holder) return ageMs(file) > UNREADABLE_GRACE_MS;
  return !isAlive(holder.pid, holder.start);
}

/**
 * Removes the stale lock whose text is `staleText`, unless another launcher is doing so. The marker
 * is named after that text, so a later lock (another nonce) is never removed by a slow breaker.
 */
function breakStale(staleText) {
  const marker = `${LOCK}.breaking-${createHash('sha256').update(staleText).digest('hex').slice(0, 16)}`;
  if (!createExclusive(marker, String(process.pid))) {
    if (ageMs(marker) > UNREADABLE_GRACE_MS) unlinkQuietly(marker); // its breaker died in its few milliseconds
    return;
  }
  try {
    if (readText(LOCK) === staleText) unlinkQuietly(LOCK);
  } finally {
    unlinkQuietly(marker);
  }
}

/** Creates `file` holding `text` unless it exists; written aside and linked, so no reader sees half of it. */
function createExclusive(file, text) {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, text, { flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if (err.code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkQuietly(tmp);
  }
}

function holderOf(text) {
  try {
    const holder = JSON.parse(text);
    return Number.isInteger(holder?.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** Alive by signal 0, unless (Linux) the pid now belongs to a process started later than the holder. */
function isAlive(pid, start) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err.code === 'ESRCH') return false;
  }
  const now = processStart(pid);
  return !start || !now || now === start;
}

/** Linux: the process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function processStart(pid) {
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function ageMs(file) {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(file) {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

(async () => {
  // A build under way (the lock) may have written a fresh-looking main.js already: wait for it.
  if (staleness() || fs.existsSync(LOCK)) await buildOnce();
  require(MAIN);
})().catch((error) => {
  console.error(`bismarck: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
