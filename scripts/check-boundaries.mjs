// `npm run -s check:boundaries`: the import rules of docs/architecture.md ("Boundaries"), checked on
// the sources (apps/, libs/, type-only imports included), with the TypeScript already installed:
//   - no library imports an app;
//   - the CLI imports nothing of the api but its public entry (apps/api/src/index.ts, @bismarck/api);
//   - a library listed in LIBRARY_IMPORTS imports no other library than those listed (libs/solver and libs/notation: rules only; libs/bots: rules and solver; libs/players and libs/ratings: none);
//   - no import cycle.
// Exit status 1 and one line per breach otherwise.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const API_ENTRY = 'apps/api/src/index.ts';
/** The only other libraries these libraries may import (pure libraries stay pure: no database, no Nest). */
const LIBRARY_IMPORTS = { solver: ['rules'], bots: ['rules', 'solver'], notation: ['rules'], players: [], ratings: [] };
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
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repository file an import names, or null for a package. */
function resolveImport(from, specifier) {
  if (aliases[specifier]) return aliases[specifier];
  if (!specifier.startsWith('.')) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(join(ROOT, candidate))) return candidate;
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
for (const [file, imports] of graph) {
  for (const target of imports) {
    if (file.startsWith('libs/') && target.startsWith('apps/')) breaches.push(`a library imports an app: ${file} → ${target}`);
    const [, fromLib] = file.match(/^libs\/([^/]+)\//) ?? [];
    const [, toLib] = target.match(/^libs\/([^/]+)\//) ?? [];
    if (LIBRARY_IMPORTS[fromLib] && toLib && toLib !== fromLib && !LIBRARY_IMPORTS[fromLib].includes(toLib)) {
      breaches.push(`libs/${fromLib} may import only ${LIBRARY_IMPORTS[fromLib].join(', ')}: ${file} → ${target}`);
    }
    if (file.startsWith('apps/cli/') && target.startsWith('apps/api/') && target !== API_ENTRY) {
      breaches.push(`the CLI imports the api past its public entry: ${file} → ${target}`);
    }
  }
}

// Cycles: strongly connected components (Tarjan) of more than one file, or a file importing itself.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function visit(file) {
  index.set(file, counter);
  low.set(file, counter++);
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (!index.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), index.get(next)));
    }
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || graph.get(file).includes(file)) breaches.push(`an import cycle: ${component.sort().join(', ')}`);
}
for (const file of graph.keys()) if (!index.has(file)) visit(file);

if (breaches.length > 0) {
  for (const breach of breaches) console.error(breach);
  process.exit(1);
}
console.log(`boundaries hold: ${files.length} files, no library imports an app, the CLI uses the api's public entry, libs/solver and libs/notation import only libs/rules (libs/bots: rules and solver; libs/players and libs/ratings: no other library), no import cycle`);
