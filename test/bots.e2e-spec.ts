import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createBismarckClient, unwrap } from '@bismarck/client';
import { runBot } from '../apps/cli/src/bot/bot';
import { playSeat } from '../libs/client/examples/minimal-bot';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';

const run = promisify(execFile);
const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

const t = useTestApp();
let base: string;
beforeAll(async () => {
  base = await listenLocal(t.app);
});

describe('bots through the generated client', () => {
  it('three bots (greedy, random, greedy) join an open table and play a whole match', async () => {
    const api = createBismarckClient(base);
    const created = unwrap(await api.POST('/api/matches', { body: { players: [null, null, null], options: { schedule: 'quick' } } }));
    expect(created.status).toBe('waiting');
    const tokens: string[] = [];
    for (const seat of [0, 1, 2] as const) {
      const joined = unwrap(await api.POST('/api/matches/{id}/seats/{seat}/join', { params: { path: { id: created.id, seat } }, body: { name: `bot ${seat}` } }));
      tokens.push(joined.token);
    }
    const results = await Promise.all(
      (['greedy', 'random', 'greedy'] as const).map((strategy, seat) => runBot({ url: base, match: created.id, token: tokens[seat], strategy })),
    );
    expect(results.map((r) => r.seat)).toEqual([0, 1, 2]);
    for (const r of results) expect(r.view.status).toBe('finished');

    const card = unwrap(await api.GET('/api/matches/{id}/scorecard', { params: { path: { id: created.id } } }));
    expect(card.finished).toBe(true);
    expect(card.deals).toHaveLength(3);
    const log = unwrap(await api.GET('/api/matches/{id}/events', { params: { path: { id: created.id }, query: { limit: 1000 } } }));
    expect(log.events.map((e) => e.version)).toEqual(Array.from({ length: log.version }, (_, i) => i + 1));
    // Every action a bot took was one its view allowed: nothing was refused on the way.
    expect(results.reduce((n, r) => n + r.actions, 0)).toBeGreaterThan(3 * 16);
  }, 120_000);

  it('a strong bot plays a seat beside greedy and random, from its view and the events its seat may see', async () => {
    const api = createBismarckClient(base);
    const created = unwrap(await api.POST('/api/matches', { body: { players: ['strong', 'greedy', 'random'], options: { schedule: 'quick', mustTrump: true } } }));
    const [strong, greedy, random] = created.seats.map((s) => s.token!);
    const [result] = await Promise.all([
      runBot({ url: base, match: created.id, token: strong, strategy: 'strong', budgetMs: 50 }),
      runBot({ url: base, match: created.id, token: greedy, strategy: 'greedy' }),
      runBot({ url: base, match: created.id, token: random, strategy: 'random' }),
    ]);
    expect(result.view).toMatchObject({ status: 'finished', seat: 0, legal: null });
    // 16 cards in each of the 3 deals, plus its lay-away as forehand once: nothing was refused.
    expect(result.actions).toBeGreaterThanOrEqual(3 * 16 + 1);
  }, 120_000);

  it('the 50-line bot of docs/clients.md plays a seat beside two CLI bots', async () => {
    const api = createBismarckClient(base);
    const created = unwrap(await api.POST('/api/matches', { body: { players: ['doc bot', 'greedy', 'random'], options: { schedule: 'quick' } } }));
    const [doc, greedy, random] = created.seats.map((s) => s.token);
    const [view] = await Promise.all([
      playSeat(base, created.id, doc),
      runBot({ url: base, match: created.id, token: greedy, strategy: 'greedy' }),
      runBot({ url: base, match: created.id, token: random, strategy: 'random' }),
    ]);
    expect(view).toMatchObject({ status: 'finished', seat: 0, legal: null });
  }, 120_000);

  it('the client reports problems as typed errors (problem+json)', async () => {
    const api = createBismarckClient(base, { token: 'bsk_nobody' });
    const created = unwrap(await createBismarckClient(base).POST('/api/matches', { body: { players: ['a', 'b', 'c'] } }));
    const { error, response } = await api.GET('/api/matches/{id}/view', { params: { path: { id: created.id } } });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});

describe('npm run bismarck -- play --bots 3', () => {
  it('plays a match with three bots against a running service and prints the scorecard', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'play', '--bots', '3', '--url', base, '--schedule', 'quick', '--strategy', 'greedy,random,greedy']);
    expect(stdout).toMatch(/^match [0-9a-f-]{36}/m);
    expect(stdout.match(/^[123] +[012] +(trump|spades|notrump|pass)/gm)).toHaveLength(3);
    expect(stdout).toMatch(/winner/);
  }, 120_000);

  it('--seed: the three bots take their seats at creation, so a seeded match (which has no open seat) is played too', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'play', '--bots', '3', '--url', base, '--schedule', 'quick', '--seed', 'club-night-42']);
    expect(stdout.match(/^[123] +[012] +(trump|spades|notrump|pass)/gm)).toHaveLength(3);
    const id = stdout.match(/^match (\S+)/m)![1];
    const match = await (await fetch(`${base}/api/matches/${id}`)).json();
    expect({ seeded: match.seeded, status: match.status, names: match.seats.map((s: { name: string }) => s.name) }).toEqual({
      seeded: true,
      status: 'finished',
      names: ['Bot 0 (greedy)', 'Bot 1 (greedy)', 'Bot 2 (greedy)'],
    });
  }, 120_000);

  it('without --url starts the service in-process on the embedded database', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'play', '--bots', '3', '--schedule', 'quick'], { env: { ...process.env, DATABASE_URL: '' } });
    expect(stdout).toMatch(/^match .* \(http:\/\/127\.0\.0\.1:\d+\)$/m);
    expect(stdout).toMatch(/winner/);
  }, 120_000);
});
