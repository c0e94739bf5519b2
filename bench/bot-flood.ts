// A person against two strong bots while matches of three strong bots play themselves on the same api
// (one request starts each): how long the person waits for the bots' moves. The last line is JSON.
//   npm run -s build && node dist/bench/bot-flood.js     (BENCH_FLOOD=40 BENCH_MOVES=40 to change;
//   BENCH_API_MAIN=<another build's dist/apps/api/src/main.js> measures that build)
// The api runs on the embedded database in memory, with the default BOT_THREADS (1).
import { chooseAction, requestOf, type BotView } from '@bismarck/bots';
import { benchSettings, Connection, round, startServer, type Reply } from './common';

const { num, setting } = benchSettings();
const flood = num('FLOOD', 40);
const moves = num('MOVES', 40);
const main = setting('API_MAIN') ?? 'dist/apps/api/src/main.js';

/** The answer's body, or the run stops with the request and its answer. */
function ok<T>(reply: Reply, what: string): T {
  if (reply.status >= 400) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as T;
}

async function main_(): Promise<void> {
  // One client creates all the flood's matches: no cap on them (the cap is drill:flood's subject).
  const server = await startServer(main, { ...process.env, DATABASE_URL: '', BISMARCK_DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'warn', STRONG_BOT_MATCHES_PER_CALLER: '0' });
  const api = new Connection(server.port);
  const call = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => ok<T>(await api.request(method, path, token, body), `${method} ${path}`);
  try {
    const quick = { schedule: 'quick' };
    const strong = { bot: 'strong' };
    const flooding: string[] = [];
    for (let i = 0; i < flood; i++) flooding.push((await call<{ id: string }>('POST', '/api/matches', undefined, { players: [strong, strong, strong], options: quick })).id);
    const m = await call<{ id: string; seats: { token: string }[] }>('POST', '/api/matches', undefined, { players: ['Ann', strong, strong], options: quick });
    const token = m.seats[0].token;
    const waits: number[] = [];
    let since = Date.now();
    const started = Date.now();
    while (waits.length < moves) {
      const view = await call<BotView & { status: string }>('GET', `/api/matches/${m.id}/view`, token);
      if (view.status === 'finished') break;
      // The person plays as the greedy bot would: what is measured is the bots' answer.
      const action = requestOf(chooseAction(view, 'greedy'));
      if (!action) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      waits.push(Date.now() - since);
      const reply = await api.request('POST', `/api/matches/${m.id}/${action.route}`, token, 'body' in action ? action.body : undefined);
      // 409: a bot moved first (its dealer deals before the person on its right cuts): look again.
      if (reply.status !== 409) ok(reply, action.route);
      since = Date.now();
    }
    const seconds = (Date.now() - started) / 1000;
    let floodFinished = 0;
    for (const id of flooding) if ((await call<{ status: string }>('GET', `/api/matches/${id}`)).status === 'finished') floodFinished++;
    waits.shift(); // the first: the match's start, not a bot's answer
    waits.sort((a, b) => a - b);
    const at = (p: number) => waits[Math.min(waits.length - 1, Math.floor(waits.length * p))];
    console.log(
      JSON.stringify({ api: main, flood, moves: waits.length + 1, waitP50Ms: at(0.5), waitP90Ms: at(0.9), waitMaxMs: waits[waits.length - 1], floodFinished, seconds: round(seconds, 1) }),
    );
  } finally {
    api.close();
    await server.stop();
  }
}

void main_().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
