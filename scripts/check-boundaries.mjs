// `npm run -s check:boundaries`: the import rules of docs/architecture.md ("The house" and
// "Boundaries"), checked on the sources (apps/, libs/, type-only imports included), with the
// TypeScript already installed:
//   - no library imports an app;
//   - the CLI imports nothing of the api but its public entry (apps/api/src/index.ts, @bismarck/api);
//   - a library listed in LIBRARY_IMPORTS imports no other library than those listed;
//   - inside apps/api/src, a context imports only itself and the contexts below it (CONTEXTS, bottom
//     first), and no folder of a context is in an import cycle with another folder;
//   - the pages' browser scripts (apps/api/src/web/*/assets) import only each other;
//   - a match is written only through the game's command API: outside game/matches nothing imports
//     the writer, the dealer or the decider (GAME_INSIDE);
//   - no import cycle between files.
// Exit status 1 and one line per breach otherwise. `--root DIR` checks another tree (the test plants
// breaches in a copy).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const rootAt = process.argv.indexOf('--root');
const ROOT = rootAt > 0 ? resolve(process.argv[rootAt + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const API_ENTRY = 'apps/api/src/index.ts';
/** The only other libraries these libraries may import (pure libraries stay pure: no database, no Nest). */
const LIBRARY_IMPORTS = {
  rules: [],
  solver: ['rules'],
  bots: ['rules', 'solver'],
  notation: ['rules'],
  audit: ['rules'],
  players: [],
  ratings: [],
  client: [],
  database: [],
  'event-store': ['database'],
  match: ['rules', 'event-store'],
  projections: ['rules', 'match', 'database', 'event-store', 'players', 'ratings'],
};
/** The api's contexts, bottom first: each may import itself and those before it (docs/architecture.md, "The house"). */
const API = 'apps/api/src/';
const CONTEXTS = ['platform', 'accounts', 'game', 'web'];
const PAGES = /^apps\/api\/src\/web\/[^/]+\/assets\//;
/** What only game/matches uses: the lobby, forks, clocks, bots and the rest write through MatchCommands. */
const GAME_INSIDE = ['match-writer.service.ts', 'dealing.service.ts', 'decider.ts'].map((f) => `${API}game/matches/${f}`);
const aliases = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths).map(([name, [target]]) => [
    name,
    relative(ROOT, resolve(ROOT, target)),
  ]),
);

function sources(dir) {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    if (PAGES.test(path)) return path.endsWith('.js') ? [path] : [];
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repository file an import names, or null for a package. */
function resolveImport(from, specifier) {
  if (aliases[specifier]) return aliases[specifier];
  if (!specifier.startsWith('.')) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), specifier));
  // A page's script may import a module the api serves from a package (pages/assets/fluent): its types stand for it.
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.d.ts')]) {
    if (/\.(ts|js)$/.test(candidate) && existsSync(join(ROOT, candidate))) return candidate;
  }
  throw new Error(`${from}: cannot resolve '${specifier}'`);
}

const files = [...sources('apps'), ...sources('libs')];
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  graph.set(file, [...new Set(importedFiles.map((i) => resolveImport(file, i.fileName)).filter((f) => f !== null))]);
}

const breaches = [];
/** A unit test may reach across the rules to set up what it tests; the rules are the production code's. */
const isTest = (file) => file.endsWith('.spec.ts');

for (const [file, imports] of graph) {
  for (const target of imports) {
    if (file.startsWith('libs/') && target.startsWith('apps/')) breaches.push(`a library imports an app: ${file} → ${target}`);
    if (file.startsWith('apps/cli/') && target.startsWith('apps/api/') && target !== API_ENTRY) {
      breaches.push(`the CLI imports the api past its public entry: ${file} → ${target}`);
    }
    if (isTest(file)) continue;
    const [, fromLib] = file.match(/^libs\/([^/]+)\//) ?? [];
    const [, toLib] = target.match(/^libs\/([^/]+)\//) ?? [];
    if (LIBRARY_IMPORTS[fromLib] && toLib && toLib !== fromLib && !LIBRARY_IMPORTS[fromLib].includes(toLib)) {
      const allowed = LIBRARY_IMPORTS[fromLib].length > 0 ? `only ${LIBRARY_IMPORTS[fromLib].join(', ')}` : 'no other library';
      breaches.push(`libs/${fromLib} may import ${allowed}: ${file} → ${target}`);
    }
    const from = contextOf(file);
    const to = contextOf(target);
    if (from !== null && to !== null && CONTEXTS.indexOf(to) > CONTEXTS.indexOf(from)) {
      breaches.push(`${from} may import only ${CONTEXTS.slice(0, CONTEXTS.indexOf(from) + 1).join(', ')}: ${file} → ${target}`);
    }
    if (PAGES.test(file) && !PAGES.test(target)) breaches.push(`a page's script imports past the pages: ${file} → ${target}`);
    if (GAME_INSIDE.includes(target) && !file.startsWith(`${API}game/matches/`)) breaches.push(`a match is written only through MatchCommands: ${file} → ${target}`);
  }
}

/** The api context a file belongs to, or null (outside apps/api/src, or one of its root files). */
function contextOf(file) {
  if (!file.startsWith(API)) return null;
  const [first, second] = file.slice(API.length).split('/');
  if (second === undefined) return null;
  if (!CONTEXTS.includes(first)) breaches.push(`a folder of apps/api/src outside the contexts (${CONTEXTS.join(', ')}): ${file}`);
  return first;
}

/** The folder of a context a file is in (apps/api/src/<context>/<folder>), or null. */
function folderOf(file) {
  if (!file.startsWith(API)) return null;
  const parts = file.slice(API.length).split('/');
  return parts.length >= 3 ? parts.slice(0, 2).join('/') : null;
}

/** The strongly connected components (Tarjan) of `edges` that are cycles: more than one node, or a node naming itself. */
function cycles(edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  function visit(node) {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || [...edges.get(node)].includes(node)) found.push(component.sort());
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

for (const component of cycles(graph)) breaches.push(`an import cycle: ${component.join(', ')}`);

// The same at the level of the api's folders: a file importing its own folder is no cycle.
const folders = new Map();
for (const [file, imports] of graph) {
  const from = folderOf(file);
  if (from === null || isTest(file)) continue;
  if (!folders.has(from)) folders.set(from, new Set());
  for (const target of imports) {
    const to = folderOf(target);
    if (to !== null && to !== from) folders.get(from).add(to);
  }
}
for (const component of cycles(folders)) breaches.push(`a cycle between folders of apps/api/src: ${component.join(', ')}`);

if (breaches.length > 0) {
  for (const breach of new Set(breaches)) console.error(breach);
  process.exit(1);
}
console.log(
  `boundaries hold: ${files.length} files, no library imports an app, the CLI uses the api's public entry, each library imports only those it may, the api's contexts import only downwards (${CONTEXTS.join(' < ')}) with no cycle between its ${folders.size} folders, the pages' scripts import only each other, matches are written only through MatchCommands, no import cycle`,
);
