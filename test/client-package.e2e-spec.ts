// @bismarck/client as a project outside this repository gets it: `npm run client:pack`, then
// `npm install <tarball>` in an empty project under the system's temp directory, the bot of
// docs/clients.md ("Install the client") type-checked there against the installed declarations
// alone, compiled, and run by node against this app on a local port.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';

const exec = promisify(execFile);
const ROOT = join(__dirname, '..');
const BOT = join(ROOT, 'libs', 'client', 'examples', 'match-bot.ts');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// The npm running this test (npm test), else the one on PATH.
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
// Every child gets a bound: a hung install or bot fails the test instead of holding CI.
const STEP_MS = 120_000;

function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return exec(NPM[0], [...NPM.slice(1), ...args], { cwd, timeout: STEP_MS, maxBuffer: 16 << 20 });
}

const t = useTestApp();
let base: string;
let tarball: string;
let project: string;

beforeAll(async () => {
  base = await listenLocal(t.app);
  const { stdout } = await npm(['run', '-s', 'client:pack'], ROOT);
  tarball = stdout.trimEnd().split('\n').at(-1)!;
  // realpath: on macOS the temp directory is a symlink, and tsc lists files by their real path.
  project = realpathSync(mkdtempSync(join(tmpdir(), 'bismarck-client-')));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bismarck-bot', private: true, type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'nodenext', strict: true, types: ['node'], outDir: 'out' }, files: ['bot.ts'] }),
  );
  cpSync(BOT, join(project, 'bot.ts'));
  // The Node types the bot's `process` needs, at the repository's version (so a warm npm cache will do).
  const nodeTypes = `@types/node@${JSON.parse(readFileSync(join(ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')).version}`;
  await npm(['install', tarball, nodeTypes, '--no-audit', '--no-fund', '--prefer-offline'], project);
}, 2 * STEP_MS + 60_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('npm run client:pack', () => {
  it('prints the absolute path of a tarball holding the compiled client, its declarations and one runtime dependency', async () => {
    expect(isAbsolute(tarball) && tarball.endsWith('.tgz') && existsSync(tarball)).toBe(true);
    expect(project.startsWith(realpathSync(ROOT) + sep)).toBe(false);
    const installed = join(project, 'node_modules', '@bismarck', 'client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@bismarck/client', main: './dist/index.js', types: './dist/index.d.ts' });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const { stdout } = await exec('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/schema.d.ts', 'package/package.json']));
    // Only what a consumer runs or reads: no sources, no tests, no examples, nothing of the apps.
    expect(files.filter((f) => !/^package\/(dist\/[\w-]+\.(js|d\.ts)|package\.json|README\.md)$/.test(f))).toEqual([]);
  });
});

describe('the bot of docs/clients.md, in a project of its own', () => {
  it('is the code docs/clients.md shows', () => {
    const shown = readFileSync(join(ROOT, 'docs', 'clients.md'), 'utf8').includes(readFileSync(BOT, 'utf8'));
    expect(shown ? 'the same' : 'docs/clients.md does not show libs/client/examples/match-bot.ts as it is').toBe('the same');
  });

  it('type-checks (tsc --noEmit) against the installed package alone', async () => {
    const { stdout } = await exec(process.execPath, [TSC, '-p', project, '--noEmit', '--listFiles'], { cwd: project, timeout: 2 * STEP_MS });
    const read = stdout.trim().split('\n');
    expect(read).toContain(join(project, 'node_modules', '@bismarck', 'client', 'dist', 'index.d.ts'));
    // Nothing but the project and TypeScript's own lib files: the repository's sources stay out of it.
    const compilerLibs = join(ROOT, 'node_modules', 'typescript', 'lib') + sep;
    expect(read.filter((f) => !f.startsWith(project + sep) && !f.startsWith(compilerLibs))).toEqual([]);
  }, 2 * STEP_MS + 10_000);

  it('lets a client made with a token ask for a rematch with no header of its own, and a per-type event keep its envelope (tsc)', async () => {
    // The bearer scheme covers the token: no operation declares `authorization` as a parameter, which
    // generators would make a required header beside it (TS2741 on `params`).
    writeFileSync(
      join(project, 'typed.ts'),
      [
        "import { createBismarckClient, unwrap, type components } from '@bismarck/client';",
        'export async function again(baseUrl: string, id: string, token: string): Promise<string> {',
        '  const seat = createBismarckClient(baseUrl, { token });',
        "  return unwrap(await seat.POST('/api/matches/{id}/rematch', { params: { path: { id } } })).id;",
        '}',
        "type CardPlayed = components['schemas']['CardPlayedEventDto'];",
        'export const envelope = (e: CardPlayed): [number, string, string | undefined, true | undefined, string] => [e.version, e.at, e.hash, e.standIn, e.data.card];',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.typed.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'nodenext', strict: true, types: ['node'], noEmit: true }, files: ['typed.ts'] }),
    );
    const checked = await exec(process.execPath, [TSC, '-p', 'tsconfig.typed.json'], { cwd: project, timeout: 2 * STEP_MS }).then(
      () => 'no error',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(checked).toBe('no error');
  }, 2 * STEP_MS + 10_000); // tsc over the whole generated schema: minutes on a busy machine

  it('creates a match, plays all three seats to the end and sees every version on the live stream, in order', async () => {
    // Checked above: emit only.
    await exec(process.execPath, [TSC, '-p', project, '--noCheck'], { cwd: project, timeout: STEP_MS });
    const { stdout } = await exec(process.execPath, [join(project, 'out', 'bot.js'), base], { cwd: project, timeout: STEP_MS });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      matchId: string;
      status: string;
      version: number;
      totals: number[];
      winners: number[];
      tricksWon: number[];
      versions: number[];
    };
    expect(result.status).toBe('finished');
    // Read from the narrowed event data: 16 tricks in each of the 3 deals, and the seats with the top total.
    expect(result.tricksWon.reduce((a, b) => a + b, 0)).toBe(48);
    const top = Math.max(...result.totals);
    expect(result.winners).toEqual([0, 1, 2].filter((s) => result.totals[s] === top));
    expect(result.versions).toEqual(Array.from({ length: result.version }, (_, i) => i + 1));

    // The service agrees: the same head, and MatchFinished is its last event.
    const state = (await t.http().get(`/api/matches/${result.matchId}`).expect(200)).body;
    expect(state).toMatchObject({ status: 'finished', version: result.version, totals: result.totals });
    const log = (await t.http().get(`/api/matches/${result.matchId}/events?after=${result.version - 1}`).expect(200)).body;
    expect(log.events.map((e: { type: string }) => e.type)).toEqual(['MatchFinished']);
  }, 2 * STEP_MS + 30_000);
});
