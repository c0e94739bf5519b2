import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

// `npm run check:boundaries` (scripts/check-boundaries.mjs) on a copy of the sources: it passes on them
// as they are, and fails, naming each one, on breaches planted in the copy: an import up between the
// api's contexts, a cycle between two folders of a context (no file cycle), the rules importing
// another library, a page's script importing the server's code, and a service writing a match
// around the game's command API.
const ROOT = join(__dirname, '..');
const CHECK = join(ROOT, 'scripts', 'check-boundaries.mjs');
const run = promisify(execFile);

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'bismarck-boundaries-'));
  for (const part of ['apps', 'libs', 'test', 'tsconfig.json']) {
    cpSync(join(ROOT, part), join(copy, part), { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
  }
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

async function check(): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [CHECK, '--root', copy], { cwd: ROOT });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

function plant(path: string, text: string): void {
  mkdirSync(dirname(join(copy, path)), { recursive: true });
  writeFileSync(join(copy, path), text);
}

function append(path: string, text: string): void {
  writeFileSync(join(copy, path), readFileSync(join(copy, path), 'utf8') + text);
}

it('passes on the sources as they are, and fails on every kind of planted breach', async () => {
  const clean = await check();
  expect(clean).toEqual({ code: 0, out: expect.stringContaining('boundaries hold') });

  // The platform reaching up into the game.
  append('apps/api/src/platform/metrics/metrics.service.ts', "\nimport '../../game/bots/fair-queue';\n");
  // Two folders of the game importing each other through different files: no file cycle, a folder cycle.
  plant('apps/api/src/game/planted-a/one.ts', "import { two } from '../planted-b/two';\nexport const one = two;\n");
  plant('apps/api/src/game/planted-b/two.ts', 'export const two = 2;\n');
  plant('apps/api/src/game/planted-b/three.ts', "import { four } from '../planted-a/four';\nexport const three = four;\n");
  plant('apps/api/src/game/planted-a/four.ts', 'export const four = 4;\n');
  // The rules importing a library.
  append('libs/rules/src/index.ts', "\nimport '@bismarck/database';\n");
  // A page's script importing the server's code.
  append('apps/api/src/web/play/assets/keys.js', "\nimport '../../../platform/config/env.ts';\n");
  // The lobby writing a match itself, around MatchCommands.
  append('apps/api/src/game/lobby/lobby.service.ts', "\nimport '../matches/match-writer.service';\n");

  const broken = await check();
  expect(broken.code).toBe(1);
  expect(broken.out).toContain('platform may import only platform: apps/api/src/platform/metrics/metrics.service.ts → apps/api/src/game/bots/fair-queue.ts');
  expect(broken.out).toContain('a cycle between folders of apps/api/src: game/planted-a, game/planted-b');
  expect(broken.out).not.toContain('an import cycle');
  expect(broken.out).toContain('libs/rules may import no other library: libs/rules/src/index.ts → libs/database/src/index.ts');
  expect(broken.out).toContain("a page's script imports past the pages: apps/api/src/web/play/assets/keys.js → apps/api/src/platform/config/env.ts");
  expect(broken.out).toContain('a match is written only through MatchCommands: apps/api/src/game/lobby/lobby.service.ts → apps/api/src/game/matches/match-writer.service.ts');
}, 120_000);
