// npm run test:busy [-- <jest arguments>]: the whole suite (`npm test`: the build, then jest) beside
// two busy CPU loops, the way a shared two-core machine runs it. A test that passes here does not
// lean on a wall-clock margin. The loops end with the suite, whatever its outcome (and by themselves
// should this script be killed); the exit code is the suite's. BUSY_LOOPS sets how many loops (2).
import { spawn } from 'node:child_process';

const count = Number(process.env.BUSY_LOOPS ?? 2);
if (!Number.isInteger(count) || count < 0) {
  console.error(`BUSY_LOOPS must be a whole number, not ${JSON.stringify(process.env.BUSY_LOOPS)}`);
  process.exit(2);
}

// A loop spins without ever yielding to its event loop, so it looks for its parent itself, once a
// second: orphaned (this script killed with SIGKILL), it stops.
const SPIN = `
const parent = ${process.pid};
let next = 0;
for (;;) {
  const now = Date.now();
  if (now < next) continue;
  next = now + 1000;
  if (process.ppid !== parent) process.exit(0);
}`;
const loops = Array.from({ length: count }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);

// Through the npm that runs this script when there is one (npm run test:busy), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : [process.platform === 'win32' ? 'npm.cmd' : 'npm'];
const args = process.argv.slice(2);
console.error(`test:busy: npm test${args.length ? ` -- ${args.join(' ')}` : ''} beside ${count} busy loop${count === 1 ? '' : 's'} (pids ${loops.map((l) => l.pid).join(', ') || 'none'})`);
const started = Date.now();
const suite = spawn(npm[0], [...npm.slice(1), 'test', ...(args.length ? ['--', ...args] : [])], { stdio: 'inherit' });

// Ctrl-C or a kill reaches the suite (jest cleans up), and the loops end with it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => suite.kill(signal));

suite.on('error', (err) => {
  console.error(`test:busy: could not run npm: ${err.message}`);
  stopLoops();
  process.exit(1);
});
suite.on('exit', (code, signal) => {
  stopLoops();
  console.error(`test:busy: the suite ended after ${Math.round((Date.now() - started) / 1000)} s with ${signal ?? `exit code ${code}`}`);
  process.exit(code ?? 1);
});
