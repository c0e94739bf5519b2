import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// bin/bismarck.js (`npx bismarck`, `npm run bismarck`) in a project of its own, whose `npm run build`
// counts its runs, takes a while (so launchers overlap) and writes the main.js the launcher runs.
const LAUNCHER = join(__dirname, '..', 'bin', 'bismarck.js');
const BUILD = `
const fs = require('node:fs');
fs.appendFileSync('builds.log', process.pid + '\\n');
if (fs.existsSync('fail')) process.exit(2);
setTimeout(() => {
  fs.mkdirSync('dist/apps/cli/src', { recursive: true });
  fs.writeFileSync('dist/apps/cli/src/main.js', "console.log('ran ' + process.argv.slice(2).join(' '))");
}, 700);
`;

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bismarck-launcher-'));
  mkdirSync(join(root, 'bin'));
  copyFileSync(LAUNCHER, join(root, 'bin', 'bismarck.js'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'launcher-test', private: true, scripts: { build: 'node build.js' } }));
  writeFileSync(join(root, 'build.js'), BUILD);
  mkdirSync(join(root, 'apps', 'cli', 'src'), { recursive: true });
  writeFileSync(join(root, 'apps', 'cli', 'src', 'main.ts'), '// source');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function launch(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [join(root, 'bin', 'bismarck.js'), ...args], { cwd: root }, (error, out, err) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

const builds = (): number => (existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8').trim().split('\n').length : 0);
const main = (): string => join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
/** Marks a source as saved now, a little after the last build started. */
const edit = (file: string): void => {
  const later = new Date(statSync(main()).mtimeMs + 2_000);
  utimesSync(join(root, file), later, later);
};

describe('bin/bismarck.js', () => {
  it('builds a missing dist/ once, then runs the built command at once without building again', async () => {
    const first = await launch('play', '--bots', '3');
    expect(first).toMatchObject({ code: 0, out: 'ran play --bots 3\n' });
    expect(first.err).toMatch(/building \(dist\/ has no build\)/);
    expect(builds()).toBe(1);

    const second = await launch('verify', 'x.json');
    expect(second).toEqual({ code: 0, out: 'ran verify x.json\n', err: '' });
    expect(builds()).toBe(1);
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);
  }, 30_000);

  it('rebuilds when a source is newer than the build, not for a test file', async () => {
    await launch();
    writeFileSync(join(root, 'apps', 'cli', 'src', 'main.spec.ts'), '// a test');
    edit('apps/cli/src/main.spec.ts');
    expect((await launch()).err).toBe('');
    expect(builds()).toBe(1);

    // Build output under libs/ (libs/client/dist, written by `npm run client:pack`) is no source either.
    mkdirSync(join(root, 'libs', 'client', 'dist'), { recursive: true });
    writeFileSync(join(root, 'libs', 'client', 'dist', 'index.d.ts'), '// packed');
    edit('libs/client/dist/index.d.ts');
    expect((await launch()).err).toBe('');
    expect(builds()).toBe(1);

    edit('apps/cli/src/main.ts');
    const run = await launch('bot');
    expect(run).toMatchObject({ code: 0, out: 'ran bot\n' });
    expect(run.err).toMatch(/building \(apps\/cli\/src\/main\.ts changed since the last build\)/);
    expect(builds()).toBe(2);
  }, 30_000);

  it('three launchers started together on a stale dist/ run one build, and all three run', async () => {
    const runs = await Promise.all([launch('a'), launch('b'), launch('c')]);
    expect(runs.map((r) => r.out).sort()).toEqual(['ran a\n', 'ran b\n', 'ran c\n']);
    expect(runs.every((r) => r.code === 0)).toBe(true);
    expect(builds()).toBe(1);
    expect(runs.filter((r) => /waiting for the build of process \d+/.test(r.err)).length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('takes over the lock of a launcher that died while building', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', '.build.lock'), JSON.stringify({ pid: dead, nonce: 'x' }));
    expect(await launch('x')).toMatchObject({ code: 0, out: 'ran x\n' });
    expect(builds()).toBe(1);
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);
  }, 30_000);

  it('interrupted while building (Ctrl-C), it leaves no lock, and the next launch builds again', async () => {
    await launch();
    edit('apps/cli/src/main.ts');
    const child = spawn(process.execPath, [join(root, 'bin', 'bismarck.js')], { cwd: root });
    let err = '';
    await new Promise<void>((building) =>
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes('building')) building();
      }),
    );
    child.kill('SIGINT');
    expect(await new Promise((exited) => child.on('exit', exited))).toBe(130);
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);
    const next = await launch('x');
    expect(next).toMatchObject({ code: 0, out: 'ran x\n' });
    expect(next.err).toMatch(/building \(the last build failed or was interrupted\)/);
  }, 30_000);

  it('a failed build stops with its message and is not taken for a build the next time', async () => {
    await launch();
    edit('apps/cli/src/main.ts');
    writeFileSync(join(root, 'fail'), '');
    const failed = await launch('x');
    expect(failed.code).toBe(2);
    expect(failed.out).toBe('');
    expect(failed.err).toMatch(/the build failed/);
    expect(existsSync(join(root, 'dist', '.build.lock'))).toBe(false);

    rmSync(join(root, 'fail'));
    const next = await launch('x');
    expect(next).toMatchObject({ code: 0, out: 'ran x\n' });
    expect(next.err).toMatch(/building \(the last build failed or was interrupted\)/);
    expect(builds()).toBe(3);
  }, 30_000);
});

describe('`npx bismarck` in this project', () => {
  const repo = join(__dirname, '..');
  it('finds the launcher in node_modules/.bin, linked by npm from the file: dependency on bin/', () => {
    // A `bin` of the project's own package.json would send npx through a reinstall of the project
    // into its cache on every call (about a second of CPU); a linked dependency's bin runs at once.
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { bin?: unknown; dependencies: Record<string, string> };
    expect(manifest.bin).toBeUndefined();
    expect(manifest.dependencies['bismarck-cli']).toBe('file:bin');
    expect(JSON.parse(readFileSync(join(repo, 'bin', 'package.json'), 'utf8')).bin).toEqual({ bismarck: 'bismarck.js' });
    expect(realpathSync(join(repo, 'node_modules', '.bin', 'bismarck'))).toBe(realpathSync(LAUNCHER));
  });
});
