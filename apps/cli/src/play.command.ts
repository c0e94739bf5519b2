import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { createBismarckClient, unwrap, type Scorecard } from '@bismarck/client';
import { runBot } from './bot/bot';
import { apiMigrations } from './migrations';
import { parseStrategy } from './bot.command';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';

interface PlayOptions {
  bots: string;
  url?: string;
  strategy: string;
  schedule?: string;
  seed?: string;
  verbose?: boolean;
}

/**
 * `bismarck play --bots 3 [--url URL]`: opens a lobby table, lets the bots join and play it, prints
 * the scorecard. Without --url the service runs in this process on a throw-away embedded database.
 * With fewer than 3 bots the other seats stay open for people to join.
 */
export function registerPlayCommand(program: Command): void {
  program
    .command('play')
    .description('create a match and play it with bots, then print the scorecard')
    .option('--bots <n>', 'how many seats the bots take (1 to 3)', '3')
    .option('--url <url>', 'an api to play on (default: start one in this process on a throw-away database)')
    .option('--strategy <name>', `${STRATEGIES.join(', ')}, or one per bot: greedy,random,strong`, 'greedy')
    .option('--schedule <name>', 'modern, traditional or quick')
    .option('--seed <seed>', 'reproducible deals (a seeded match)')
    .option('--verbose', 'print every action')
    .action(async (o: PlayOptions) => {
      const bots = Number(o.bots);
      if (!Number.isInteger(bots) || bots < 1 || bots > 3) throw new Error('--bots must be 1, 2 or 3');
      const strategies = o.strategy.split(',').map(parseStrategy);
      const server = o.url ? null : await startLocal();
      try {
        const url = o.url ?? server!.url;
        const { id, card } = await playMatch(url, bots, (i) => strategies[i] ?? strategies[0], o);
        console.log(formatScorecard(card));
        // On a service that stays up, the match can be watched again (an in-process one stops now).
        if (o.url) console.log(`\nwatch it again: ${url.replace(/\/$/, '')}/viewer/${id}`);
      } finally {
        await server?.stop();
      }
    });
}

async function playMatch(url: string, bots: number, strategyOf: (i: number) => StrategyName, o: PlayOptions): Promise<{ id: string; card: Scorecard }> {
  const api = createBismarckClient(url);
  const name = (seat: number) => `Bot ${seat} (${strategyOf(seat)})`;
  // Three bots take their seats as the match is created (and a seeded match needs them to: it has no
  // open seat); fewer leave a lobby table whose other seats people join.
  const created = unwrap(
    await api.POST('/api/matches', {
      body: {
        players: bots === 3 ? [name(0), name(1), name(2)] : [null, null, null],
        ...(o.schedule ? { options: { schedule: o.schedule as 'modern' | 'traditional' | 'quick' } } : {}),
        ...(o.seed ? { seed: o.seed } : {}),
      },
    }),
  );
  console.log(`match ${created.id} (${url})`);
  const tokens: string[] = created.seats.flatMap((s) => (s.token ? [s.token] : []));
  for (let seat = 0 as 0 | 1 | 2; tokens.length < bots; seat++) {
    tokens.push(unwrap(await api.POST('/api/matches/{id}/seats/{seat}/join', { params: { path: { id: created.id, seat } }, body: { name: name(seat) } })).token);
  }
  for (const line of openSeatLines(url, created.id, bots)) console.log(line);
  const log = o.verbose ? (line: string) => console.log(line) : undefined;
  await Promise.all(tokens.map((token, i) => runBot({ url, match: created.id, token, strategy: strategyOf(i), log })));
  return { id: created.id, card: unwrap(await api.GET('/api/matches/{id}/scorecard', { params: { path: { id: created.id } } })) };
}

/** How a person takes each seat the bots leave open: the table's page in a browser, or one command per seat, ready to paste. */
export function openSeatLines(url: string, matchId: string, bots: number): string[] {
  if (bots >= 3) return [];
  const base = url.replace(/\/$/, '');
  return [
    'waiting for players; take a seat in a browser (the table offers the open seats):',
    `  ${base}/play/${matchId}`,
    'or with curl (the answer holds its token, shown only once):',
    ...[0, 1, 2]
      .slice(bots)
      .map((seat) => `  curl -s -X POST ${base}/api/matches/${matchId}/seats/${seat}/join -H 'content-type: application/json' -d '{"name":"You"}'`),
    `then play it yourself, or: BISMARCK_TOKEN=<token> npx bismarck bot --url ${base} --match ${matchId}`,
  ];
}

export function formatScorecard(card: Scorecard): string {
  const names = card.seats.map((s) => s.name ?? `seat ${s.seat}`);
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  const lines = [
    `${'deal'.padEnd(5)}${'forehand'.padEnd(10)}${'contract'.padEnd(12)}${'tricks'.padEnd(12)}${'points'.padEnd(14)}totals`,
    ...card.deals.map(
      (d) =>
        `${String(d.number).padEnd(5)}${String(d.forehand).padEnd(10)}${`${d.contract}${d.trump && d.contract === 'trump' ? ` ${d.trump}` : ''}`.padEnd(12)}` +
        `${d.tricks.map((t) => pad(t, 3)).join('').padEnd(12)}${d.points.map((p) => pad(p, 4)).join('').padEnd(14)}${d.totals.map((t) => pad(t, 4)).join('')}`,
    ),
    '',
    ...names.map((n, s) => `seat ${s} ${n.padEnd(22)} ${pad(card.totals[s], 4)}${card.winners?.includes(s) ? '  winner' : ''}`),
  ];
  return lines.join('\n');
}

/**
 * `bismarck prepare` (run by `npm run build`): saves the migrated database that `play`
 * starts from, so that even the first `play` after an install skips initdb (about 3 s).
 */
export function registerPrepareCommand(program: Command): void {
  program
    .command('prepare', { hidden: true })
    .description('save the database snapshot `play` starts from')
    .action(async () => {
      try {
        const { savedSnapshots } = await import('@bismarck/database');
        const saved = savedSnapshots('directory', await apiMigrations())?.migrated;
        if (saved && existsSync(saved)) return;
        const { ready } = await startScratchDatabase();
        await (await ready).stop();
      } catch (err) {
        // Only a slower first `play` is at stake; never a failed build.
        console.warn(`bismarck prepare: no snapshot saved (${err instanceof Error ? err.message : String(err)})`);
      }
    });
}

/**
 * A throw-away embedded database with the api's schema, copied from its snapshot after the first time.
 * Resolves once its process is started; `ready` once it serves.
 */
async function startScratchDatabase() {
  const [{ startEmbeddedPostgres }, migrations] = await Promise.all([import('@bismarck/database'), apiMigrations()]);
  return { ready: startEmbeddedPostgres({ dataDir: 'scratch', migrations }) };
}

async function startLocal(): Promise<{ url: string; stop(): Promise<void> }> {
  // The database's process first (its start, ~1 s, is the longest step), then the api loads while it
  // starts (a require holds this thread for a second, which `play --url` and the other commands need
  // not pay): about 2 s in all instead of 4 to 6.
  const starting = await startScratchDatabase();
  starting.ready.catch(() => undefined); // awaited below, once the api is loaded
  const { createApp } = await import('@bismarck/api');
  const db = await starting.ready;
  const app = await createApp({ databaseUrl: db.url, embedded: true, quiet: true });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await app.close();
      await db.stop();
    },
  };
}
