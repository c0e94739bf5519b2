// GET /api/matches/{id}/notation and `bismarck notation`: the match as plain text (docs/notation.md),
// as the caller may see it, and read back.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fromNotation } from '@bismarck/notation';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, playToEnd, seededPick, type CreatedMatch } from './support/player';

const t = useTestApp();

const notation = (m: { id: string }, token?: string) => {
  const req = t.http().get(`/api/matches/${m.id}/notation`);
  return token ? req.set(...bearer(token)) : req;
};
/** The log as `GET …/events` shows it to this caller, as the rules' events. */
async function eventsAs(m: CreatedMatch, token?: string): Promise<{ type: string; data: unknown }[]> {
  const req = t.http().get(`/api/matches/${m.id}/events?limit=1000`);
  const page = (await (token ? req.set(...bearer(token)) : req).expect(200)).body;
  return page.events.map((e: { type: string; data: unknown }) => ({ type: e.type, data: e.data }));
}
const state = async (m: CreatedMatch) => (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;

describe('GET /api/matches/{id}/notation', () => {
  it('a finished match: text/plain that parses back to its whole log, the same for everyone', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const pick = seededPick(3);
    for (let s = await state(m); s.status !== 'finished'; s = await state(m)) {
      if (s.phase === 'deal' && s.fairness.cut === null) {
        await t.http().post(`/api/matches/${m.id}/cut`).set(...bearer(m.seats[(s.dealer + 2) % 3].token)).send({ cut: `cut"${s.version}\\#` }).expect(200);
      }
      await playOneAction(t.http, m, pick);
    }
    const exported = (await t.http().get(`/api/matches/${m.id}/export`).expect(200)).body;
    const res = await notation(m).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const text = res.text;
    expect(text).toMatch(/^Result: totals -?\d+ -?\d+ -?\d+; winners( [012])+$/m);
    expect(text).not.toContain('??');
    expect(fromNotation(text)).toStrictEqual(exported.events.map((e: { type: string; data: unknown }) => ({ type: e.type, data: e.data })));
    // Nothing of a finished match is secret: a seat reads the same notation (but its first comment line).
    const seat = (await notation(m, m.seats[1].token).expect(200)).text;
    expect(seat.split('\n').slice(1)).toEqual(text.split('\n').slice(1));
  }, 60_000);

  describe('a match in progress', () => {
    let m: CreatedMatch;
    const hands: string[][] = [];
    let table: string[] = [];
    beforeAll(async () => {
      m = await createMatch(t.http, { options: { schedule: 'quick', contractChoice: 'informed' } });
      const pick = seededPick(9);
      // Into the second deal, a few tricks played, one of them half done.
      for (let s = await state(m); !(s.dealNumber === 2 && s.phase === 'play' && s.tricksTaken.reduce((a: number, b: number) => a + b, 0) >= 3 && s.trick.length === 1); s = await state(m)) {
        await playOneAction(t.http, m, pick);
      }
      for (const seat of [0, 1, 2]) hands[seat] = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[seat].token)).expect(200)).body.hand;
      const started = (await eventsAs(m)).filter((e) => e.type === 'DealStarted').at(-1) as { data: { tableCards: string[] } };
      table = started.data.tableCards;
    }, 60_000);

    /** The lines of the deal in play (the previous deal is scored: nothing of it is secret). */
    const dealInPlay = (text: string): string => text.slice(text.lastIndexOf('\nDeal 2:'));
    const cardsOf = (text: string): string[] => text.match(/\b[2-9TJQKA][SHDC]\b/g) ?? [];

    it('shows a spectator no hand, no deck and no lay-away of the deal in play, and parses back to what its event log shows', async () => {
      const text = (await notation(m).expect(200)).text;
      const current = dealInPlay(text);
      expect(current).toMatch(/^Deck: \?\?$/m);
      expect(current.match(/^Hand [012]: \?\?$/gm)).toHaveLength(3);
      expect(current).toMatch(/^Laid away by [012]: \?\?$/m);
      // No card still in a hand appears anywhere in the deal, but on the table (public) before forehand took it.
      for (const seat of [0, 1, 2]) for (const card of hands[seat]) if (!table.includes(card)) expect(cardsOf(current)).not.toContain(card);
      expect(fromNotation(text)).toStrictEqual(await eventsAs(m));
      // The deal before is scored: its hands are there for everyone.
      expect(text.slice(0, text.lastIndexOf('\nDeal 2:'))).not.toContain('??');
    });

    it.each([0, 1, 2])('shows seat %i its own hand only (checked against the true hands), and parses back to what its event log shows', async (seat) => {
      const token = m.seats[seat].token;
      const text = (await notation(m, token).expect(200)).text;
      const current = dealInPlay(text);
      const own = new RegExp(`^Hand ${seat}: (.*)$`, 'm').exec(current)![1].split(' ');
      expect(own).toHaveLength(16);
      // What it holds now was dealt to it, or (forehand) taken from the table.
      for (const card of hands[seat]) expect([...own, ...table]).toContain(card);
      for (const other of [0, 1, 2].filter((s) => s !== seat)) {
        expect(current).toMatch(new RegExp(`^Hand ${other}: \\?\\?$`, 'm'));
        for (const card of hands[other]) if (!table.includes(card)) expect(cardsOf(current)).not.toContain(card);
      }
      expect(fromNotation(text)).toStrictEqual(await eventsAs(m, token));
    });
  });

  it('an unknown match: 404 problem+json', async () => {
    const res = await t.http().get('/api/matches/0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a/notation').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'MATCH_NOT_FOUND' });
  });

  it("a token of another match: 403 problem+json", async () => {
    const [a, b] = [await createMatch(t.http, { options: { schedule: 'quick' } }), await createMatch(t.http, { options: { schedule: 'quick' } })];
    const res = await notation(a, b.seats[0].token).expect(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN' });
  });
});

// The compiled command line, as `npm run bismarck` runs it (`npm test` builds it first).
const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const run = promisify(execFile);

describe('bismarck notation (offline, no server, no database)', () => {
  let dir: string;
  let exported: { events: { version: number; type: string; data: unknown }[] };
  let served: string;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
    dir = mkdtempSync(join(tmpdir(), 'bismarck-notation-'));
    const m = await createMatch(t.http, { players: ['Astrid', 'Bjørn "B"', 'Cecilia'], options: { schedule: 'quick', leadBeforeDiscard: 'redeal' } });
    await playToEnd(t.http, m, seededPick(5));
    exported = (await t.http().get(`/api/matches/${m.id}/export`).expect(200)).body;
    served = (await notation(m).expect(200)).text;
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const cli = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, 'notation', ...args]);
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('<export.json> prints the notation the service serves (without its comment line)', async () => {
    const out = await cli(file('export.json', JSON.stringify(exported)));
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(served.split('\n').slice(1).join('\n'));
    expect(out.stdout).toMatch(/^Players: "Astrid" "Bjørn \\"B\\"" "Cecilia"$/m);
  }, 30_000);

  it('--parse <file.txt> prints the events back: versions, types and data of the export', async () => {
    const out = await cli('--parse', file('match.txt', served));
    expect(out.code).toBe(0);
    const events = JSON.parse(out.stdout);
    expect(events).toStrictEqual(exported.events.map(({ version, type, data }) => ({ version, type, data })));
    // And what --parse prints is read again: the same text.
    const again = await cli(file('events.json', out.stdout));
    expect(again).toMatchObject({ code: 0, stdout: served.split('\n').slice(1).join('\n') });
  }, 30_000);

  it('a notation with a mistake: exit 1, with the file, the line and what was expected', async () => {
    const broken = served.replace(/^Table: (\S+ \S+ \S+) \S+$/m, 'Table: $1');
    const line = broken.split('\n').findIndex((l) => /^Table: \S+ \S+ \S+$/.test(l)) + 1;
    const out = await cli('--parse', file('broken.txt', broken));
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`broken.txt: line ${line}: Table: expected 4 cards, found 3`);
  }, 30_000);

  it('a file that is neither an export nor events, or no file at all: exit 1 with a reason', async () => {
    expect(await cli(file('hello.json', '{"hello":1}'))).toMatchObject({ code: 1, stderr: expect.stringMatching(/neither a bismarck-export-v1 document nor a JSON array of events/) });
    expect(await cli()).toMatchObject({ code: 1, stderr: expect.stringMatching(/give either an export/) });
  }, 30_000);
});
