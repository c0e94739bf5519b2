import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';
import { createMatch, playToEnd } from './support/player';

// The compiled command line, as `npm run bismarck` runs it (`npm test` builds it first).
const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const run = promisify(execFile);
// Each test starts the command line once or more: seconds each on a loaded machine.
jest.setTimeout(60_000);

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

async function verify(doc: unknown, ...flags: string[]): Promise<{ code: number; out: string }> {
  const file = join(dir, `m-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  try {
    const { stdout } = await run(process.execPath, [CLI, 'verify', file, ...flags]);
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

  it('a truncated export (MatchFinished dropped) and a flipped seeded flag fail with exit 1', async () => {
    const cut = JSON.parse(JSON.stringify(exported));
    cut.events.splice(cut.events.length - 1);
    const truncated = await verify(cut);
    expect(truncated.code).toBe(1);
    expect(truncated.out).toMatch(/without MatchFinished/);
    const flipped = await verify({ ...exported, seeded: true });
    expect(flipped.code).toBe(1);
    expect(flipped.out).toMatch(/hashed MatchCreated says seeded=false/);
  });

  it('--pin checks a hash kept during play: exit 0 when the export holds it, 1 when not or when malformed', async () => {
    const events = exported.events as unknown as { version: number; hash: string }[];
    const kept = events[4];
    expect(await verify(exported, '--pin', `${kept.version}:${kept.hash}`)).toMatchObject({ code: 0, out: expect.stringMatching(/ok {3}pin/) });
    const other = await verify(exported, '--pin', `${kept.version}:${events[5].hash}`);
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/FAIL pin/);
    expect((await verify(exported, '--pin', `${events.length + 1}:${kept.hash}`)).out).toMatch(/cut short/);
    expect(await verify(exported, '--pin', 'five')).toMatchObject({ code: 1, out: expect.stringMatching(/--pin must be/) });
  }, 60_000);

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

describe('bismarck replay <matchId>, a lobby match', () => {
  it('names the players who joined, not the open seats of creation', async () => {
    const created = (await t.http().post('/api/matches').send({ players: ['Host', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    await t.http().post(`/api/matches/${created.id}/seats/1/join`).send({ name: 'Bjørn' }).expect(201);
    await t.http().post(`/api/matches/${created.id}/seats/2/join`).send({ name: 'Cecilia' }).expect(201);
    const { stdout } = await run(process.execPath, [CLI, 'replay', created.id, '--url', url]);
    expect(stdout).toMatch(/Bjørn takes seat 1/);
    expect(stdout).toMatch(/Cecilia takes seat 2/);
    expect(stdout).not.toMatch(/null \(\d\)/);
  });
});

describe('bismarck rebuild --compare-only', () => {
  const rebuild = async (): Promise<{ code: number; out: string }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, 'rebuild', '--compare-only'], { env: { ...process.env, DATABASE_URL: t.db.url } });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };

  it('exits 0 when the live tables equal the replay, and 1 when a row differs (leaving it as it is)', async () => {
    const clean = await rebuild();
    expect(clean).toMatchObject({ code: 0 });
    expect(clean.out).toMatch(/compared only/);
    const db = t.app.get(DataSource);
    await db.query(`UPDATE match_list SET totals = '[1,2,3]' WHERE id = $1`, [matchId]);
    const drifted = await rebuild();
    expect(drifted.code).toBe(1);
    expect(drifted.out).toMatch(/1 projection rows differ|2 projection rows differ/);
    const [row] = await db.query(`SELECT totals FROM match_list WHERE id = $1`, [matchId]);
    expect(row.totals).toEqual([1, 2, 3]);
  }, 60_000);
});
