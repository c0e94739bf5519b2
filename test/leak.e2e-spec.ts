import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { fold, forkableVersions, publicView, seatView, type BismarckEvent, type MatchState, type Seat, type Viewer } from '@bismarck/rules';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';
import { actionRequest, bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

// The leak test: over many random matches, lobby tables among them, everything each seat and a
// spectator can receive (views, public state, match list, events, replays, the analysis, the live
// stream, command answers and errors) is searched for any card that is secret from that caller at that moment.
const t = useTestApp();
let base: string;
beforeAll(async () => {
  base = await listenLocal(t.app);
});

const VIEWERS: Viewer[] = [0, 1, 2, 'spectator'];

/** The true log, straight from the database (no redaction). */
async function trueLog(id: string): Promise<BismarckEvent[]> {
  const rows: { type: string; data: unknown }[] = await t.app
    .get(DataSource)
    .query('SELECT type, data FROM events WHERE stream_id = $1 ORDER BY version', [id]);
  return rows.map((r) => ({ type: r.type, data: r.data }) as BismarckEvent);
}

/** The cards secret from `viewer` now: other seats' hands, the lay-away (unless forehand), the undealt deck. */
function secretCards(state: MatchState, log: BismarckEvent[], viewer: Viewer): Set<string> {
  const secret = new Set<string>();
  const pub = publicView(state);
  if (pub.phase !== 'contract' && pub.phase !== 'discard' && pub.phase !== 'play') return secret;
  for (const s of [0, 1, 2] as Seat[]) {
    const v = seatView(state, s);
    if (s !== viewer) v.hand.forEach((c) => secret.add(c));
    if (s !== viewer && v.laidAway) v.laidAway.forEach((c) => secret.add(c));
  }
  // Before the hands are dealt (blind choice) every card but the table cards is undealt and secret.
  const started = [...log].reverse().find((e) => e.type === 'DealStarted') as Extract<BismarckEvent, { type: 'DealStarted' }>;
  if (pub.handSizes.every((n) => n === 0)) started.data.deck!.forEach((c) => secret.add(c));
  // The four table cards were shown to everyone: their codes are public wherever forehand put them.
  started.data.tableCards.forEach((c) => secret.delete(c));
  return secret;
}

/** Reads the live stream until it has delivered `version`, then hangs up. */
async function streamUntil(id: string, viewer: Viewer, token: string | undefined, version: number): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/matches/${id}/events/stream?after=0`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  let text = '';
  const deadline = Date.now() + 10_000;
  while (!text.includes(`id: ${version}\n`) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  controller.abort();
  expect({ viewer, streamed: text.includes(`id: ${version}\n`) }).toEqual({ viewer, streamed: true });
  return text;
}

type Logged = { version: number; data: { deal?: number } };

/**
 * Earlier deals are scored, so all their cards are public and their codes recur in the current deal:
 * from a list of events keep only those of the deal in play (and those of no deal).
 */
const ofDeal = (events: Logged[], deal: number): string => JSON.stringify(events.filter((e) => e.data.deal === undefined || e.data.deal === deal));

function sseEvents(text: string): Logged[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {"version"'))
    .map((line) => JSON.parse(line.slice(6)) as Logged);
}

async function everythingSeenBy(m: CreatedMatch, viewer: Viewer, version: number, deal: number): Promise<string[]> {
  const token = viewer === 'spectator' ? undefined : m.seats[viewer].token;
  const get = (path: string) => (token ? t.http().get(path).set(...bearer(token)) : t.http().get(path));
  const seen: string[] = [];
  const keep = async (req: PromiseLike<{ text: string }>) => seen.push((await req).text);
  await keep(get(`/api/matches/${m.id}`));
  if (token) await keep(get(`/api/matches/${m.id}/view`));
  await keep(get(`/api/matches/${m.id}/scorecard`));
  await keep(get('/api/matches?limit=100'));
  seen.push(ofDeal((await get(`/api/matches/${m.id}/events?limit=1000`)).body.events, deal));
  // Replays of moments in the deal in play (a moment of a scored deal is rightly all public).
  for (const v of [version, Math.max(1, version - 1), Math.max(1, version - 5)]) {
    const res = await get(`/api/matches/${m.id}/replay?version=${v}`);
    if (res.body.view.dealNumber === deal) seen.push(res.text);
  }
  await keep(get(`/api/matches/${m.id}/audit`));
  // The analysis of the deal in play is refused, and says nothing but that.
  const analysis = await get(`/api/matches/${m.id}/analysis?deal=${deal}`);
  expect({ status: analysis.status, code: analysis.body.code }).toEqual({ status: 409, code: 'DEAL_NOT_SCORED' });
  seen.push(analysis.text);
  // So is a fork of the match in play (a fork would show every hand): the refusal says nothing but that.
  const fork = await (token ? t.http().post(`/api/matches/${m.id}/fork?version=${version}`).set(...bearer(token)) : t.http().post(`/api/matches/${m.id}/fork?version=${version}`));
  expect({ status: fork.status, code: fork.body.code }).toEqual({ status: 409, code: 'MATCH_NOT_FINISHED' });
  seen.push(fork.text);
  // Errors, from commands that can never go through: a stale If-Match, a discard of one card four times.
  const post = (path: string, body: object) => {
    const req = t.http().post(`/api/matches/${m.id}/${path}`);
    return token ? req.set(...bearer(token)).send(body) : req.send(body);
  };
  for (const res of [
    await post('play', { card: '2C' }).set('If-Match', '"1"'),
    await post('discard', { cards: ['2C', '2C', '2C', '2C'] }),
    await post('contract', { contract: 'pass' }).set('If-Match', '"1"'),
  ]) {
    expect(res.status).toBeGreaterThanOrEqual(400);
    // The card a caller sends may come back in the error: its own words, masked.
    seen.push(res.text.replace(/"2C"/g, '"probe"'));
  }
  seen.push(ofDeal(sseEvents(await streamUntil(m.id, viewer, token, version)), deal));
  return seen;
}

type Players = (string | null)[] | 'fork';
const NAMED: Players = ['Astrid', 'Bjørn', 'Cecilia'];

/**
 * A fork (POST …/fork) of a finished match, in the middle of its first deal's lay-away: from there on
 * it is a match like any other, whose own views must follow the usual rules.
 */
async function forkOfFinished(options: object, pick: (xs: any[]) => any): Promise<CreatedMatch> {
  const finished = await createMatch(t.http, { options });
  while (await playOneAction(t.http, finished, pick));
  const log = await trueLog(finished.id);
  const version = forkableVersions(log).find((v) => log[v]?.type === 'CardsLaidAway')!;
  return (await t.http().post(`/api/matches/${finished.id}/fork?version=${version}`).expect(201)).body;
}

/**
 * A lobby table: created with open seats (null), which strangers then join in a random order. The
 * seats are listed by seat number, as for a match created with three names.
 */
async function openTable(players: Players, options: object, pick: (xs: any[]) => any): Promise<CreatedMatch> {
  const created = (await t.http().post('/api/matches').send({ players, options }).expect(201)).body;
  const seats: CreatedMatch['seats'] = [...created.seats];
  const open = [0, 1, 2].filter((s) => players[s] === null);
  while (open.length > 0) {
    const seat = open.splice(open.indexOf(pick(open)), 1)[0];
    const joined = (await t.http().post(`/api/matches/${created.id}/seats/${seat}/join`).send({ name: `Stranger ${seat}` }).expect(201)).body;
    seats.push({ seat, name: joined.name, token: joined.token });
  }
  return { ...created, seats: seats.sort((a, b) => a.seat - b.seat) };
}

describe('no card ever reaches a caller who may not see it', () => {
  it.each<[string, object, Players]>([
    ['quick, blind', { schedule: 'quick' }, NAMED],
    ['modern, informed', { contractChoice: 'informed' }, NAMED],
    ['traditional, blind fourth round', { schedule: 'traditional', fourthRound: 'freeTrumpBlind' }, NAMED],
    ['modern, redeal on an early lead', { leadBeforeDiscard: 'redeal' }, NAMED],
    ['quick lobby table, two seats open', { schedule: 'quick' }, ['Astrid', null, null]],
    ['modern informed lobby table, every seat open', { contractChoice: 'informed' }, [null, null, null]],
    ['a fork of a finished quick match, before its first lay-away', { schedule: 'quick' }, 'fork'],
  ])('%s', async (_name, options, players) => {
    const pick = seededPick(11);
    const m =
      players === 'fork'
        ? await forkOfFinished(options, pick)
        : players.includes(null)
          ? await openTable(players, options, pick)
          : await createMatch(t.http, { options });
    let checks = 0;
    let commandAnswers = 0;
    for (let step = 0; step < 90; step++) {
      const log = await trueLog(m.id);
      const state = fold(log);
      if (step % 6 === 0 || publicView(state).phase === 'contract' || publicView(state).phase === 'discard') {
        for (const viewer of VIEWERS) {
          const secret = secretCards(state, log, viewer);
          if (secret.size === 0) continue;
          const texts = await everythingSeenBy(m, viewer, log.length, publicView(state).dealNumber);
          for (const [i, text] of texts.entries()) {
            for (const card of secret) {
              const at = text.indexOf(`"${card}"`);
              expect({ viewer, leaked: at >= 0 ? `${card} in response ${i}: …${text.slice(Math.max(0, at - 300), at + 20)}` : null }).toEqual({ viewer, leaked: null });
            }
          }
          checks++;
        }
      }
      // The acting seat's own command answer may hold only what that seat may see after it.
      const pub = publicView(state);
      if (pub.status === 'finished') break;
      const seat = pub.turn!;
      const before = log.length;
      if (!(await playOneAction(t.http, m, pick))) break;
      const after = await trueLog(m.id);
      const answer = ofDeal((await t.http().get(`/api/matches/${m.id}/events?after=${before}`).set(...bearer(m.seats[seat].token))).body.events, publicView(fold(after)).dealNumber);
      const secret = secretCards(fold(after), after, seat);
      for (const card of secret) expect({ seat, leaked: answer.includes(`"${card}"`) ? card : null }).toEqual({ seat, leaked: null });
      commandAnswers++;
    }
    expect(checks).toBeGreaterThan(20);
    expect(commandAnswers).toBeGreaterThan(50);
  }, 240_000);
});

describe('bot seats leak nothing', () => {
  /** The person's view once the person may act (not the optional cut) or the match is over: then the bots wait. */
  async function personsTurn(m: CreatedMatch): Promise<{ version: number; status: string; legal: any; hand: string[] }> {
    const until = Date.now() + 30_000;
    for (;;) {
      const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[0].token)).expect(200)).body;
      if (view.status === 'finished' || (view.legal && view.legal.action !== 'cut')) return view;
      if (Date.now() > until) throw new Error('the bots did not answer');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it.each<[string, object]>([
    ['quick, blind', { schedule: 'quick' }],
    ['quick, informed', { schedule: 'quick', contractChoice: 'informed' }],
  ])('a person against two bots (%s): no bot hand or lay-away reaches the person or a spectator', async (_name, options) => {
    const created = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'random' }], options }).expect(201)).body;
    const m: CreatedMatch = created;
    const pub = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    // The public state marks the bots, and says nothing else about them.
    expect(pub.seats).toEqual([
      { seat: 0, name: 'Astrid', bot: null },
      { seat: 1, name: 'Greedy bot', bot: 'greedy' },
      { seat: 2, name: 'Random bot', bot: 'random' },
    ]);
    const pick = seededPick(5);
    let checks = 0;
    let moves = 0;
    for (let step = 0; step < 200; step++) {
      const view = await personsTurn(m);
      if (view.status === 'finished') break;
      const log = await trueLog(m.id);
      if (log.length !== view.version) continue; // a bot moved meanwhile: look again
      const state = fold(log);
      const phase = publicView(state).phase;
      if (step % 4 === 0 || phase === 'contract' || phase === 'discard') {
        for (const viewer of [0, 'spectator'] as Viewer[]) {
          const secret = secretCards(state, log, viewer);
          if (secret.size === 0) continue;
          const texts = await everythingSeenBy(m, viewer, log.length, publicView(state).dealNumber);
          for (const [i, text] of texts.entries()) {
            for (const card of secret) {
              const at = text.indexOf(`"${card}"`);
              expect({ viewer, leaked: at >= 0 ? `${card} in response ${i}: …${text.slice(Math.max(0, at - 300), at + 20)}` : null }).toEqual({ viewer, leaked: null });
            }
          }
          checks++;
        }
      }
      const res = await actionRequest(t.http, m, 0, view.legal, view.hand, pick).set('If-Match', `"${view.version}"`);
      // 412: a bot moved first (its optional cut before the person's deal): look again.
      expect([200, 412]).toContain(res.status);
      if (res.status === 200) moves++;
    }
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.status).toBe('finished');
    expect(checks).toBeGreaterThan(10);
    expect(moves).toBeGreaterThan(16);
  }, 240_000);
});

describe('player accounts leak nothing', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const register = async (name: string) => (await t.http().post('/api/players').send({ name }).expect(201)).body as { id: string; token: string; tokenId: string; name: string };

  it("a lobby match of three players, each acting with its player token only: no secret card reaches a caller, no credential (token, hash or token id) reaches anyone or the log, and a revoked token is refused on every route", async () => {
    const [pia, per, paal] = await Promise.all(['Pia', 'Per', 'Pål'].map(register));
    const created = (await t.http().post('/api/matches').set(...bearer(pia.token)).send({ players: [{ player: pia.id }, null, null], options: { schedule: 'quick' } }).expect(201)).body;
    const seatTokens: string[] = [created.seats[0].token];
    for (const [seat, player] of [[2, paal], [1, per]] as const) {
      seatTokens.push((await t.http().post(`/api/matches/${created.id}/seats/${seat}/join`).set(...bearer(player.token)).send({}).expect(201)).body.token);
    }
    const players = [pia, per, paal];
    // Every seat is acted for with its player's token, from here on.
    const m: CreatedMatch = { ...created, seats: players.map((p, seat) => ({ seat, name: p.name, token: p.token })) };
    const credentials = [...players.flatMap((p) => [p.token, sha256(p.token), p.tokenId]), ...seatTokens.flatMap((s) => [s, sha256(s)])];
    const noCredential = (where: string, text: string, secrets = credentials) => {
      for (const secret of secrets) expect({ where, leaked: text.includes(secret) ? secret.slice(0, 8) : null }).toEqual({ where, leaked: null });
    };
    const pick = seededPick(17);
    let checks = 0;
    for (let step = 0; step < 200; step++) {
      const log = await trueLog(m.id);
      const state = fold(log);
      const pub = publicView(state);
      if (pub.status === 'finished') break;
      if (step % 8 === 0 || pub.phase === 'discard') {
        for (const viewer of VIEWERS) {
          if (secretCards(state, log, viewer).size === 0) continue; // between deals: nothing is secret
          const texts = await everythingSeenBy(m, viewer, log.length, pub.dealNumber);
          texts.forEach((text, i) => noCredential(`${viewer}, answer ${i}`, text));
          for (const card of secretCards(state, log, viewer)) {
            for (const [i, text] of texts.entries()) expect({ viewer, i, leaked: text.includes(`"${card}"`) ? card : null }).toEqual({ viewer, i, leaked: null });
          }
          checks++;
        }
      }
      expect(await playOneAction(t.http, m, pick)).toBe(true);
    }
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.status).toBe('finished');
    expect(checks).toBeGreaterThan(12);
    // The public pages about players, and the whole match afterwards.
    for (const path of [
      ...players.flatMap((p) => [`/api/players/${p.id}`, `/api/players/${p.id}/matches`]),
      '/api/ratings',
      `/api/matches/${m.id}/export`,
      `/api/matches/${m.id}/notation`,
      `/api/matches/${m.id}/audit`,
      `/viewer/${m.id}`,
    ]) {
      noCredential(path, (await t.http().get(path).expect(200)).text);
    }
    // A player's own pages show its own id and name, never a token or another's credential.
    noCredential('me', (await t.http().get('/api/players/me').set(...bearer(per.token)).expect(200)).text);
    noCredential('my matches', (await t.http().get('/api/players/me/matches').set(...bearer(per.token)).expect(200)).text);
    // The log: neither tokens nor their hashes, in the data or the metadata of any stream (matches and accounts;
    // a token's id is in its player's own stream, to be revoked by: it names a token, it opens nothing).
    const rows: { data: string; metadata: string }[] = await t.app.get(DataSource).query(`SELECT data::text AS data, metadata::text AS metadata FROM events`);
    const tokenIds = players.map((p) => p.tokenId);
    noCredential('the log', rows.map((r) => r.data + r.metadata).join('\n'), credentials.filter((c) => !tokenIds.includes(c)));

    // Revocation: Pål's first token is refused at once on every route that took it; a second token acts.
    const spare = (await t.http().post('/api/players/me/tokens').set(...bearer(paal.token)).expect(201)).body.token as string;
    await t.http().delete(`/api/players/me/tokens/${paal.tokenId}`).set(...bearer(paal.token)).expect(204);
    for (const [url, res] of [
      ['view', await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(paal.token))],
      ['public state', await t.http().get(`/api/matches/${m.id}`).set(...bearer(paal.token))],
      ['stream', await t.http().get(`/api/matches/${m.id}/events/stream?after=0`).set(...bearer(paal.token))],
      ['rematch', await t.http().post(`/api/matches/${m.id}/rematch`).set(...bearer(paal.token)).send({})],
      ['me', await t.http().get('/api/players/me').set(...bearer(paal.token))],
    ] as const) {
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 401, code: 'UNAUTHORIZED' });
      noCredential('refusal', res.text);
    }
    const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(spare)).expect(200)).body;
    expect(view.seat).toBe(2);
  }, 240_000);
});
