import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';
import { createMatch, playToEnd } from './support/player';

// The compiled command line, as `npm run bismarck` runs it (`npm test` builds it first).
const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const run = promisify(execFile);

const t = useTestApp();
let dir: string;
let url: string;
let exported: { events: { type: string; data: any }[] };
let matchId: string;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
  url = await listenLocal(t.app);
  dir = mkdtempSync(join(tmpdir(), 'bismarck-cli-'));
  const m = await createMatch(t.http, { options: { schedule: 'quick' } });
  await playToEnd(t.http, m);
  matchId = m.id;
  exported = (await t.http().get(`/api/matches/${m.id}/export`).expect(200)).body;
}, 120_000);

afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function verify(doc: unknown): Promise<{ code: number; out: string }> {
  const file = join(dir, `m-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  try {
    const { stdout } = await run(process.execPath, [CLI, 'verify', file]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('bismarck verify <file> (offline, no server, no database)', () => {
  it('verifies an exported match: exit 0', async () => {
    const { code, out } = await verify(exported);
    expect(code).toBe(0);
    expect(out).toMatch(/verified/);
  });

  it('one changed byte fails with exit 1 and names the event', async () => {
    const text = JSON.stringify(exported);
    const at = text.indexOf('"tricks":[') + '"tricks":['.length;
    const digit = text[at] === '9' ? '8' : String(Number(text[at]) + 1);
    const { code, out } = await verify(text.slice(0, at) + digit + text.slice(at + 1));
    expect(code).toBe(1);
    expect(out).toMatch(/NOT verified: the first failing event is version \d+/);
  });

  it('a file that is not an export fails with exit 1', async () => {
    const { code, out } = await verify('{"hello":1}');
    expect(code).toBe(1);
    expect(out).toMatch(/is not a bismarck-export-v1 document/);
  });
});

describe('bismarck replay <matchId>', () => {
  it('prints the match deal by deal and trick by trick', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'replay', matchId, '--url', url]);
    expect(stdout).toMatch(/Deal 1: .* deals, forehand/);
    expect(stdout.match(/trick +\d+:/g)).toHaveLength(48);
    expect(stdout).toMatch(/Finished: totals/);
  });
});
