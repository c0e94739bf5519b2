import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Every environment variable the service and its libraries read is in README.md's tables (or
// docs/operations.md), so an operator or a client developer can find it.
const ROOT = join(__dirname, '..', '..', '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const READ = [/process\.env\.([A-Z][A-Z0-9_]*)/g, /process\.env\[['"]([A-Z][A-Z0-9_]*)['"]\]/g, /env[A-Z]\w*\(\s*'([A-Z][A-Z0-9_]*)'/g];

describe('environment variables', () => {
  it('each one read under apps/*/src and libs/*/src is named in README.md or docs/operations.md', () => {
    const dirs = ['apps', 'libs'].flatMap((top) => readdirSync(join(ROOT, top)).map((name) => join(ROOT, top, name, 'src')));
    const names = new Set<string>();
    for (const file of dirs.filter((dir) => existsSync(dir)).flatMap(sources)) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of READ) for (const m of text.matchAll(pattern)) names.add(m[1]);
    }
    expect(names.size).toBeGreaterThan(20);
    const docs = readFileSync(join(ROOT, 'README.md'), 'utf8') + readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect([...names].filter((name) => !docs.includes(`\`${name}\``)).sort()).toEqual([]);
  });
});
