// A person against two strong bots while matches of three strong bots play themselves on the same api
// (one request starts each): how long the person waits for the bots' moves. The last line is JSON.
//   npm run -s build && node dist/bench/bot-flood.js     (BENCH_FLOOD=40 BENCH_MOVES=40 to change;
//   BENCH_API_MAIN=<another build's dist/apps/api/src/main.js> measures that build)
// The api runs on the embedded database in memory, with the default BOT_THREADS (1).
import { benchSettings, round, startServer } from './common';

interface Legal {
  action: 'deal' | 'cut' | 'chooseContract' | 'discard' | 'play';
  cards?: string[];
  contracts?: string[];
  trumps?: string[];
  count?: number;
}
interface View {
  status: string;
  legal: Legal | null;
  hand: string[];
}

const { num, setting } = benchSettings();
const flood = num('FLOOD', 40);
const moves = num('MOVES', 40);
const main = setting('API_MAIN') ?? 'dist/apps/api/src/main.js';

async function call<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The person's move: the first legal one. */
function move(view: View): [string, unknown] {
  const legal = view.legal!;
  switch (legal.action) {
    case 'play':
      return ['play', { card: legal.cards![0] }];
    case 'deal':
      return ['deal', undefined];
    case 'cut':
      return ['cut', { cut: 'bench' }];
    case 'discard':
      return ['discard', { cards: view.hand.slice(0, legal.count) }];
    case 'chooseContract': {
      const contract = legal.contracts![0];
      return ['contract', contract === 'trump' ? { contract, trump: legal.trumps![0] } : { contract }];
    }
  }
}

async function main_(): Promise<void> {
  const server = await startServer(main, { ...process.env, DATABASE_URL: '', BISMARCK_DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'warn' });
  try {
    const base = `http://localhost:${server.port}`;
    const quick = { schedule: 'quick' };
    const strong = { bot: 'strong' };
    const flooding: string[] = [];
    for (let i = 0; i < flood; i++) flooding.push((await call<{ id: string }>(base, 'POST', '/api/matches', { players: [strong, strong, strong], options: quick })).id);
    const m = await call<{ id: string; seats: { token: string }[] }>(base, 'POST', '/api/matches', { players: ['Ann', strong, strong], options: quick });
    const token = m.seats[0].token;
    const waits: number[] = [];
    let since = Date.now();
    const started = Date.now();
    while (waits.length < moves) {
      const view = await call<View>(base, 'GET', `/api/matches/${m.id}/view`, undefined, token);
      if (view.status === 'finished') break;
      if (!view.legal) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      waits.push(Date.now() - since);
      const [route, body] = move(view);
      await call(base, 'POST', `/api/matches/${m.id}/${route}`, body, token);
      since = Date.now();
    }
    const seconds = (Date.now() - started) / 1000;
    let floodFinished = 0;
    for (const id of flooding) if ((await call<{ status: string }>(base, 'GET', `/api/matches/${id}`)).status === 'finished') floodFinished++;
    waits.shift(); // the first: the match's start, not a bot's answer
    waits.sort((a, b) => a - b);
    const at = (p: number) => waits[Math.min(waits.length - 1, Math.floor(waits.length * p))];
    console.log(
      JSON.stringify({ api: main, flood, moves: waits.length + 1, waitP50Ms: at(0.5), waitP90Ms: at(0.9), waitMaxMs: waits[waits.length - 1], floodFinished, seconds: round(seconds, 1) }),
    );
  } finally {
    await server.stop();
  }
}

void main_().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
