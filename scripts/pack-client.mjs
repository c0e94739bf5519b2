// `npm run client:pack`: builds @bismarck/client (libs/client, its own tsconfig.build.json) and packs
// it with `npm pack` into dist/packages. The tarball's absolute path is the last line printed, so a
// script can take it with `tail -n 1` (docs/clients.md, "Install the client").
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT = join(ROOT, 'libs', 'client');
const DEST = join(ROOT, 'dist', 'packages');

// A fresh build: nothing left over from an older source (a removed file) goes into the tarball.
rmSync(join(CLIENT, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(CLIENT, 'tsconfig.build.json')], { stdio: 'inherit' });

mkdirSync(DEST, { recursive: true });
// The npm that runs this script when there is one (npm run), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const out = execFileSync(npm[0], [...npm.slice(1), 'pack', CLIENT, '--json', '--pack-destination', DEST], {
  cwd: ROOT,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [{ filename }] = JSON.parse(out);
console.log(join(DEST, filename));
