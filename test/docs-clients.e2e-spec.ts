import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';

// docs/clients.md as a reader meets it: every ```bash block runs as written, against a started service,
// and must exit 0. The page's source says what a block needs (HTML comments right above its fence):
//   <!-- not run: reason -->   the block is not run (it starts a service, needs a registry, never ends…)
//   <!-- preamble: name -->    its variables and files are what later blocks of that context start from
//   <!-- context: name -->     it starts from that preamble's variables and files
//   <!-- answers: 4xx -->      it shows a refusal: curl does not fail on a 4xx answer there
// Each block runs in a directory of its own (after its preamble; blocks that need nothing of each other
// at once) with `set -euo pipefail`, curl failing on an HTTP error (--fail-with-body), `localhost:3000`
// being the test's server, and `npx` taken from this repository (`npx bismarck` is the built command
// line, dist/, as the launcher runs it once built: no build starts here; nothing comes from a registry).
const ROOT = join(__dirname, '..');
const PAGE = join(ROOT, 'docs', 'clients.md');
const t = useTestApp();
let listening: Promise<string> | undefined;
/** The test app's base URL on a real port (it listens once, for every test of the file). */
const baseUrl = (): Promise<string> => (listening ??= listenLocal(t.app));

interface Block {
  line: number;
  text: string;
  notRun?: string;
  preamble?: string;
  context?: string;
  answers4xx: boolean;
}

/** The ```bash blocks of a Markdown page, each with the markers of the comment lines right above its fence. */
function bashBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```/.test(lines[i])) continue;
    const start = i;
    const end = lines.findIndex((l, j) => j > start && /^```\s*$/.test(l));
    i = end;
    if (lines[start].trim() !== '```bash') continue;
    const block: Block = { line: start + 1, text: lines.slice(start + 1, end).join('\n'), answers4xx: false };
    for (let k = start - 1; k >= 0 && /^<!--.*-->\s*$/.test(lines[k]); k--) {
      const [, key, value] = /^<!--\s*([\w ]+?):\s*(.*?)\s*-->/.exec(lines[k]) ?? [];
      if (key === 'not run') block.notRun = value;
      else if (key === 'preamble') block.preamble = value;
      else if (key === 'context') block.context = value;
      else if (key === 'answers' && value === '4xx') block.answers4xx = true;
      else throw new Error(`${PAGE}:${k + 1}: an unknown marker: ${lines[k]}`);
    }
    blocks.push(block);
  }
  return blocks;
}

function prologue(answers4xx: boolean): string {
  return [
    'set -euo pipefail',
    `curl() { command curl ${answers4xx ? '' : '--fail-with-body '}"$@"; }`,
    'npx() {',
    `  if [ "$1" = bismarck ]; then shift; node ${JSON.stringify(join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'))} "$@"; return; fi`,
    `  local bin=${JSON.stringify(join(ROOT, 'node_modules', '.bin'))}/"$1"`,
    '  if [ -x "$bin" ]; then shift; "$bin" "$@"; else echo "npx $1: not in this repository (no registry in the test)" >&2; return 127; fi',
    '}',
  ].join('\n');
}

/** Writes the variables the block made (its context's included) and the functions, for the blocks of its preamble's context. */
const SAVE_CONTEXT = `
comm -13 <(printf '%s\\n' "$__before") <(compgen -v | sort) | grep -vE '^(BASH|_|PIPESTATUS$|COLUMNS$|LINES$|OLDPWD$|PWD$)' |
  while read -r name; do declare -p "$name"; done > .context.sh
for name in $(compgen -A function); do case "$name" in curl | npx) ;; *) declare -f "$name" >> .context.sh ;; esac; done`;

function runBash(script: string, cwd: string, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, NO_COLOR: '1' }, detached: true });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      out += `\n[killed after ${timeoutMs} ms]`;
      process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('the harness', () => {
  it('fails a block on an HTTP error, an unset variable or a failing command in a pipe', async () => {
    const base = await baseUrl();
    for (const line of [`curl -s ${base}/api/matches/00000000-0000-4000-8000-000000000000`, 'echo "$NOT_SET"', 'false | cat']) {
      expect({ line, code: (await runBash(`${prologue(false)}\n${line}`, tmpdir(), 30_000)).code }).not.toEqual({ line, code: 0 });
    }
    expect((await runBash(`${prologue(true)}\ncurl -s ${base}/api/matches/00000000-0000-4000-8000-000000000000`, tmpdir(), 30_000)).code).toBe(0);
  }, 60_000);
});

describe('docs/clients.md, every runnable block', () => {
  const blocks = bashBlocks(readFileSync(PAGE, 'utf8'));

  it('is marked: each block runs, or says why not; a context names an earlier preamble', () => {
    const preambles = new Set<string>();
    for (const b of blocks) {
      if (b.notRun !== undefined) expect({ line: b.line, reason: b.notRun.length > 0 }).toEqual({ line: b.line, reason: true });
      if (b.context) expect({ line: b.line, context: preambles.has(b.context) }).toEqual({ line: b.line, context: true });
      if (b.preamble && b.notRun === undefined) preambles.add(b.preamble);
    }
    expect(blocks.filter((b) => b.notRun === undefined).length).toBeGreaterThanOrEqual(10);
  });

  it('exits 0, run as written against a started service', async () => {
    const base = await baseUrl();
    const hostPort = base.replace(/^http:\/\//, '');
    const work = mkdtempSync(join(tmpdir(), 'bismarck-docs-clients-'));
    // A block starts once the preamble it needs is done; blocks that need nothing of each other run at once,
    // as several readers would (the whole page stays well under a minute on a busy machine).
    const contexts = new Map<string, Promise<string>>();
    const failures: string[] = [];
    const took: string[] = [];
    const run = async (b: Block, i: number): Promise<string> => {
      const dir = join(work, `block-${i}-line-${b.line}`);
      if (b.context) cpSync(await contexts.get(b.context)!, dir, { recursive: true });
      else mkdirSync(dir);
      const text = b.text.replaceAll('http://localhost:3000', base).replaceAll('localhost:3000', hostPort);
      const script = [prologue(b.answers4xx), '__before=$(compgen -v | sort)', b.context ? 'source .context.sh' : '', text, b.preamble ? SAVE_CONTEXT : ''].join('\n');
      writeFileSync(join(dir, '.block.sh'), script);
      const started = Date.now();
      const { code, out } = await runBash(script, dir, 120_000);
      took.push(`:${b.line} ${Date.now() - started} ms`);
      if (code !== 0) failures.push(`docs/clients.md:${b.line} exited ${code}:\n${b.text}\n--- output ---\n${out.slice(-3000)}`);
      return dir;
    };
    try {
      const runs = blocks.flatMap((b, i) => {
        if (b.notRun !== undefined) return [];
        const done = run(b, i);
        if (b.preamble) contexts.set(b.preamble, done);
        return [done];
      });
      await Promise.all(runs);
      if (process.env.DOCS_TIMINGS) console.log(took.join('\n'));
      expect(failures).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
