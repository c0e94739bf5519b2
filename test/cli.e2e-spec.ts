import { execFile, spawn } from 'node:child_process';
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

  it('verifies a match cut with Unicode (sent decomposed, recorded NFC): exit 0, the deal provably fair', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const cutter = m.seats[(m.firstDealer + 2) % 3];
    await t.http().post(`/api/matches/${m.id}/cut`).set('Authorization', `Bearer ${cutter.token}`).send({ cut: 'Bjo\u0308rn "lykke til" 🍀' }).expect(200);
    await playToEnd(t.http, m);
    const doc = (await t.http().get(`/api/matches/${m.id}/export`).expect(200)).body;
    expect(doc.events.find((e: { type: string }) => e.type === 'DeckCut').data.cut).toBe('Bj\u00F6rn "lykke til" 🍀');
    const { code, out } = await verify(doc);
    expect(code).toBe(0);
    expect(out).toMatch(/provably fair deals: 1\b/);
    const { stdout } = await run(process.execPath, [CLI, 'replay', m.id, '--url', url]);
    expect(stdout).toContain('cuts "Bj\u00F6rn \\"lykke til\\" 🍀"');
  }, 120_000);
});

describe('bismarck replay <matchId>', () => {
  it('prints the match deal by deal and trick by trick', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'replay', matchId, '--url', url]);
    expect(stdout).toMatch(/Deal 1: .* deals, forehand/);
    expect(stdout.match(/trick +\d+:/g)).toHaveLength(48);
    expect(stdout).toMatch(/Finished: totals/);
    expect(stdout).not.toMatch(/a fork of/);
  });

  it('says where a fork comes from', async () => {
    const fork = (await t.http().post(`/api/matches/${matchId}/fork?version=0`).send({}).expect(201)).body;
    const { stdout } = await run(process.execPath, [CLI, 'replay', fork.id, '--url', url]);
    expect(stdout).toContain(`\n  a fork of match ${matchId} at version 0\n`);
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

describe('bismarck play --bots 2, a person in the third seat', () => {
  /** Runs the CLI, resolving at exit; `onLine` sees each stdout line as it comes. */
  const spawnCli = (args: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void = () => undefined) =>
    new Promise<{ code: number | null; out: string; err: string }>((done) => {
      const child = spawn(process.execPath, [CLI, ...args], { env });
      // A play left waiting for a seat nobody could take fails here rather than at jest's timeout.
      const timer = setTimeout(() => child.kill(), 90_000);
      let out = '';
      let err = '';
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop()!;
        lines.forEach(onLine);
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('exit', (code) => {
        clearTimeout(timer);
        done({ code, out, err });
      });
    });

  it('prints a join command with a real URL for the open seat; a bot with BISMARCK_TOKEN (no --token) plays it', async () => {
    const { BISMARCK_TOKEN: _, ...env } = process.env;
    let joined: Promise<{ code: number | null; out: string; err: string }> | undefined;
    const play = await spawnCli(['play', '--bots', '2', '--url', url, '--schedule', 'quick'], env, (line) => {
      const join = /POST (\S+\/join)\b/.exec(line);
      if (!join || joined) return;
      joined = (async () => {
        expect(join[1]).toMatch(new RegExp(`^${url}/api/matches/[0-9a-f-]{36}/seats/2/join$`));
        expect(line).toContain(`-H 'content-type: application/json' -d '{"name":"You"}'`);
        const res = await fetch(join[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"You"}' });
        expect(res.status).toBe(201);
        const { token, id } = (await res.json()) as { token: string; id: string };
        const args = ['bot', '--url', url, '--match', id, '--quiet'];
        expect(args.join(' ')).not.toContain(token);
        return spawnCli(args, { ...env, BISMARCK_TOKEN: token });
      })();
    });
    const bot = await joined!;
    expect(play.err).toBe('');
    expect(play.code).toBe(0);
    expect(play.out).toMatch(/seats\/2\/join/);
    expect(play.out).not.toMatch(/seats\/[01]\/join/);
    // A person may take the seat in a browser instead, and watch the match again afterwards.
    const id = /^match ([0-9a-f-]{36}) /m.exec(play.out)![1];
    expect(play.out).toContain(`take a seat in a browser (the table offers the open seats):\n  ${url}/play/${id}\n`);
    expect(play.out).toContain(`\nwatch it again: ${url}/viewer/${id}\n`);
    expect(bot).toMatchObject({ code: 0, err: '' });
    expect(bot.out).toMatch(/^seat 2: \d+ actions; totals /m);
    expect(play.out).toMatch(/seat 2 You +-?\d+/);
  }, 120_000);

  it('bot without a token (neither --token nor BISMARCK_TOKEN) says how to give one: exit 1', async () => {
    const { BISMARCK_TOKEN: _, ...env } = process.env;
    const res = await spawnCli(['bot', '--url', url, '--match', matchId], env);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/BISMARCK_TOKEN=<token> or --token <token>/);
  });
});
