import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { InputData, JSONSchemaInput, JSONSchemaStore, quicktype, type JSONSchema } from 'quicktype-core';
import { forkableVersions, type BismarckEvent } from '@bismarck/rules';
import { LobbySweeper } from '../apps/api/src/game/lobby/lobby-sweeper.service';
import { useTestApp } from './support/app';
import { bearer } from './support/player';
import { waitFor } from './support/wait';

// A client generated in another language reads every answer of a whole match (issue 29): quicktype
// makes a Python module of strict decoders from the OpenAPI document's schemas, a modern match is
// played over HTTP keeping every JSON answer, and test/python-client/decode.py decodes each one and
// encodes it back, which must give the answer again. The same answers, read by a module generated
// from the schemas as OpenAPI 3.0 said them, fail: that is what a generated client met before 3.1.

type Json = Record<string, any>;
// The analysis of a deal with a small node budget, answered pending at once: quick, and both answers
// are seen. A lobby table is abandoned 2 s after its last change, when the test sweeps.
const ENV = { ANALYSIS_MAX_NODES: '100000', ANALYSIS_WAIT_MS: '0', LOBBY_TTL_MS: '2000', LOBBY_SWEEP_MS: '3600000' };
const t = useTestApp(
  () => Object.assign(process.env, ENV),
  () => {
    for (const name of Object.keys(ENV)) delete process.env[name];
  },
);
const DECODE = join(__dirname, 'python-client', 'decode.py');
const dir = mkdtempSync(join(tmpdir(), 'bismarck-python-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answer {
  schema: string;
  what: string;
  body: unknown;
}
interface Summary {
  decoded: Record<string, number>;
  members: Record<string, number>;
  optionalNulls: Record<string, number>;
  total: number;
  failed: number;
  refused: Record<string, number>;
  errors: string[];
  failures: { line: number; schema: string; what: string; error: string }[];
  python: string;
  dateutil: string;
}

/** Every schema an operation answers a JSON body with (problems included), by name. */
function responseSchemas(doc: Json): string[] {
  const names = new Set<string>();
  for (const item of Object.values(doc.paths as Json))
    for (const op of Object.values(item as Json))
      for (const response of Object.values((op as Json).responses ?? {}))
        for (const [media, content] of Object.entries(((response as Json).content ?? {}) as Json))
          if (media.endsWith('json') && content.schema?.$ref) names.add(String(content.schema.$ref).split('/').pop()!);
  return [...names].sort();
}

/** The members of every discriminated union in the schemas: decode.py decodes each with its own class. */
function discriminatedMembers(schemas: Json): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const mapping = (node as Json).discriminator?.mapping as Json | undefined;
    for (const ref of Object.values(mapping ?? {})) found.add(String(ref).split('/').pop()!);
    for (const value of Object.values(node)) visit(value);
  };
  visit(schemas);
  return [...found].sort();
}

/**
 * quicktype's Python for every schema of the document (dataclasses, a strict `from_dict` and a
 * `to_dict` per class), into `into`, as docs/clients.md tells a developer to make it. OpenAPI 3.1's
 * schemas are plain JSON Schema 2020-12: quicktype reads them where they are, the fragment's trailing
 * slash making each one a class of its own name.
 */
async function generatePython(document: Json, into: string): Promise<void> {
  class OneDocument extends JSONSchemaStore {
    async fetch(address: string): Promise<JSONSchema | undefined> {
      return address === 'openapi.json' ? (document as JSONSchema) : undefined;
    }
  }
  const input = new JSONSchemaInput(new OneDocument());
  await input.addSource({ name: 'Bismarck', uris: ['openapi.json#/components/schemas/'] });
  const inputData = new InputData();
  inputData.addInput(input);
  // Not `just-types`, which leaves the decoders out; 3.7: dataclasses, for any Python 3 still in use.
  const { lines } = await quicktype({ inputData, lang: 'python', rendererOptions: { 'python-version': '3.7' } });
  mkdirSync(into);
  writeFileSync(join(into, 'bismarck_client.py'), lines.join('\n'));
  writeFileSync(join(into, 'openapi.json'), JSON.stringify(document));
}

function decode(moduleDir: string, answersFile: string): Summary {
  const run = spawnSync('python3', [DECODE, moduleDir, answersFile], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`decode.py failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as Summary;
}

/**
 * The schemas as the service's OpenAPI 3.0 document said them: `nullable: true` beside a type, an enum
 * without null, `allOf: [X]` for a reference that may be null. JSON Schema has no `nullable` (and
 * 3.0.3 says it adds null to no enum, allOf or oneOf), so a generator that reads the schemas as JSON
 * Schema takes every one of those fields as never null.
 */
function asOpenApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asOpenApi30);
  if (!node || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'example' ? v : asOpenApi30(v)]));
  if (Array.isArray(out.type) && out.type.includes('null')) {
    out.type = out.type.find((x: string) => x !== 'null');
    out.nullable = true;
    if (out.enum) out.enum = out.enum.filter((x: unknown) => x !== null);
  }
  const others = (out.anyOf ?? []).filter((s: Json) => s.type !== 'null');
  if (out.anyOf && others.length === 1 && others.length < out.anyOf.length) {
    delete out.anyOf;
    Object.assign(out, { allOf: others, nullable: true });
  }
  return out;
}

// ---- a match, every answer kept ------------------------------------------------------------------

const answers: Answer[] = [];

/** Keeps a JSON answer as the schema it must decode to, after checking its status. */
function keep(schema: string, what: string, res: Response, status = 200): Json {
  expect({ what, status: res.status }).toEqual({ what, status });
  answers.push({ schema, what, body: res.body });
  return res.body as Json;
}

/** The events as each viewer may see them, replays of the present moment, and the scorecard. */
async function readAll(base: string, tokens: string[], what: string, version: number): Promise<void> {
  const get = (path: string, token: string | null) => (token ? t.http().get(path).set(...bearer(token)) : t.http().get(path));
  for (const [viewer, token] of [['spectator', null], ...tokens.map((tk, seat) => [`seat ${seat}`, tk])] as [string, string | null][]) {
    keep('EventPageDto', `${what}: events as ${viewer}`, await get(`${base}/events?limit=1000`, token));
    keep('ReplayDto', `${what}: replay as ${viewer}`, await get(`${base}/replay?version=${version}`, token));
  }
  keep('ScorecardDto', `${what}: scorecard`, await get(`${base}/scorecard`, null));
}

/**
 * Plays a modern match to its end with the first legal choice: the cutter cuts every fifth deck, forehand
 * of the second deal leads before laying away (a void under `redeal`), every seat's view and the public
 * state are read at each deal's start, and everything a viewer may read mid-deal once. The seat to act
 * is guessed (the next one, or the same after a contract or a lay-away) and its view says if it is.
 */
async function playModern(base: string, tokens: string[]): Promise<void> {
  const http = t.http;
  let voided = false;
  let readMidDeal = false;
  let dealRead = -1;
  let seat = keep('PublicStateDto', 'public state at the start', await http().get(base)).turn as number;
  for (let step = 0; ; step++) {
    if (step > 2000) throw new Error('the match did not end');
    const view = keep('SeatViewDto', 'view of the seat to act, or of the next seat', await http().get(`${base}/view`).set(...bearer(tokens[seat])));
    if (view.status === 'finished') return;
    if (view.turn !== seat) {
      seat = view.turn;
      continue;
    }
    if (view.phase === 'deal' && dealRead !== view.dealNumber) {
      dealRead = view.dealNumber;
      keep('PublicStateDto', `deal ${view.dealNumber + 1}: public state before it`, await http().get(base));
      for (const token of tokens) keep('SeatViewDto', `deal ${view.dealNumber + 1}: a seat's view before it`, await http().get(`${base}/view`).set(...bearer(token)));
      keep('ScorecardDto', 'scorecard between deals', await http().get(`${base}/scorecard`));
    }
    if (!readMidDeal && view.dealNumber === 3 && view.phase === 'play' && view.trick.length === 1) {
      readMidDeal = true; // hands, the lay-away and the deck are secret: the pages hold nulls
      keep('PublicStateDto', 'public state mid-deal', await http().get(base));
      await readAll(base, tokens, 'mid-deal', view.version);
    }
    const auth = bearer(tokens[seat]);
    const legal = view.legal;
    if (legal.action === 'deal' && view.fairness.cut === null && view.dealNumber % 5 === 0) {
      const cutter = (seat + 2) % 3;
      keep('CommandResultDto', 'cut', await http().post(`${base}/cut`).set(...bearer(tokens[cutter])).send({ cut: `cut-${step}` }));
      continue;
    }
    if (legal.action === 'deal') keep('CommandResultDto', 'deal', await http().post(`${base}/deal`).set(...auth));
    else if (legal.action === 'chooseContract') {
      const contract = legal.contracts[0];
      keep('CommandResultDto', 'contract', await http().post(`${base}/contract`).set(...auth).send(contract === 'trump' ? { contract, trump: legal.trumps[0] } : { contract }));
    } else if (legal.action === 'discard' && !voided && view.dealNumber === 2) {
      voided = true;
      keep('CommandResultDto', 'a lead before the lay-away (void)', await http().post(`${base}/play`).set(...auth).send({ card: view.hand[0] }));
    } else if (legal.action === 'discard') keep('CommandResultDto', 'discard', await http().post(`${base}/discard`).set(...auth).send({ cards: view.hand.slice(0, legal.count) }));
    else keep('CommandResultDto', 'play', await http().post(`${base}/play`).set(...auth).send({ card: legal.cards[0] }));
    if (legal.action === 'deal' || legal.action === 'play') seat = (seat + 1) % 3;
  }
}

describe('a Python client generated by quicktype from the OpenAPI document', () => {
  let doc: Json;
  let expected: string[]; // every schema an operation answers with
  const answersFile = join(dir, 'answers.jsonl');
  let started = 0;
  let generatedIn = 0;
  let playedIn = 0;

  beforeAll(async () => {
    started = Date.now();
    doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expected = responseSchemas(doc);
    await generatePython(doc, join(dir, '3.1'));
    await generatePython({ ...doc, components: { ...doc.components, schemas: asOpenApi30(doc.components.schemas) } }, join(dir, '3.0'));
    generatedIn = Date.now() - started;
    await playAndKeep();
    playedIn = Date.now() - started - generatedIn;
    writeFileSync(answersFile, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  }, 300_000); // two generations and a whole match with clocks: well over a minute on a busy machine

  it('decodes every answer of a whole modern match, and encodes each back to the same JSON', () => {
    const summary = decode(join(dir, '3.1'), answersFile);
    expect(summary.failures).toEqual([]);
    // Every schema an operation answers with, and every member of a discriminated union, was met.
    expect(Object.keys(summary.decoded).sort()).toEqual(expected);
    // (The export's members: those of the event types its match had; the log's members meet every type.)
    const exportedTypes = new Set(answers.filter((a) => a.schema === 'ExportDto').flatMap((a) => (a.body as Json).events.map((e: Json) => `${e.type}ExportedEventDto`)));
    expect(exportedTypes.size).toBeGreaterThanOrEqual(12);
    const members = discriminatedMembers(doc.components.schemas).filter((name) => !name.endsWith('ExportedEventDto') || exportedTypes.has(name));
    expect(Object.keys(summary.members).sort()).toEqual(members);
    expect(summary.total).toBe(answers.length);
    expect(summary.total).toBeGreaterThan(1000);
    // The nulls a client generated from the 3.0 document refused, among the answers decoded.
    const views = answers.filter((a) => a.schema === 'SeatViewDto').map((a) => a.body as Json);
    for (const field of ['turn', 'legal', 'trump', 'lastTrick', 'contract', 'winners', 'laidAway', 'forkedFrom']) {
      expect({ field, null: views.some((v) => v[field] === null) }).toEqual({ field, null: true });
    }
    // Where an answer holds null in a property the schema lets be absent too, which quicktype's Python
    // cannot tell apart (decode.py puts the null back): a shuffle's `cut` (absent in logs older than the
    // cut), a seat's replay `laidAway` and `legal` (absent in a spectator's). A new one is worth a look.
    expect(Object.keys(summary.optionalNulls).sort()).toEqual(['cut', 'laidAway', 'legal']);
    const decodedMembers = Object.values(summary.members).reduce((a, b) => a + b, 0);
    console.log(
      `Python ${summary.python} (${summary.dateutil}): ${summary.total} answers of ${expected.length} schemas decoded and encoded back, ` +
        `${decodedMembers} union members by their own class; generated in ${generatedIn} ms, played in ${playedIn} ms, decoded in ${Date.now() - started - generatedIn - playedIn} ms`,
    );
  });

  it('would have refused them as OpenAPI 3.0 said them: not one seat view or public state decodes', () => {
    const summary = decode(join(dir, '3.0'), answersFile);
    const count = (schema: string): number => answers.filter((a) => a.schema === schema).length;
    expect(summary.refused).toMatchObject({ SeatViewDto: count('SeatViewDto'), PublicStateDto: count('PublicStateDto') });
    // Refused by the decoders (a null where they want a value), not for want of a class.
    expect(summary.errors).toEqual(['AssertionError', 'ValueError']);
    // The same module decodes answers without such nulls: it is the nulls it refuses.
    expect(summary.decoded).toMatchObject({ MatchCreatedDto: count('MatchCreatedDto'), SeatJoinedDto: count('SeatJoinedDto') });
  });
});

/** A lobby table played to its end, then everything read about it, a fork, a table with bots. */
async function playAndKeep(): Promise<void> {
  const http = t.http;
  const idle = keep('MatchCreatedDto', 'create a lobby table nobody joins', await http().post('/api/matches').send({ players: ['Ida', null, null] }), 201);
  const idleSince = Date.now();
  // A person against two bots with a 5-second clock, left alone: timed out twice (TurnTimedOut), away, played for by the stand-in.
  const clocked = keep('MatchCreatedDto', 'create a match with a turn clock', await http().post('/api/matches').send({ players: ['Ola', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick', clock: { turnSeconds: 5 } } }), 201);
  const clockedBase = `/api/matches/${clocked.id}`;
  keep('PublicStateDto', 'a clock running', await waitFor('the person\'s clock', async () => ((await http().get(clockedBase)).body.clock ? http().get(clockedBase) : null)));
  // A lobby table, provably fair (no seed), where a lead before the lay-away voids the deal.
  const created = keep('MatchCreatedDto', 'create a lobby table', await http().post('/api/matches').send({ players: ['Astrid', null, null], options: { leadBeforeDiscard: 'redeal' } }), 201);
  const base = `/api/matches/${created.id}`;
  keep('MatchListDto', 'open tables', await http().get('/api/matches?status=waiting'));
  const tokens: string[] = [created.seats[0].token];
  for (const seat of [1, 2]) tokens[seat] = keep('SeatJoinedDto', 'join', await http().post(`${base}/seats/${seat}/join`).send({ name: `P${seat}` }), 201).token;
  // Refusals are answers too: a wrong turn, a body with a field too many.
  const state = await http().get(base);
  const notDealer = tokens[(state.body.dealer + 1) % 3];
  keep('ProblemDto', 'deal out of turn', await http().post(`${base}/deal`).set(...bearer(notDealer)), 409);
  keep('ProblemDto', 'a field too many', await http().post(`${base}/cut`).set(...bearer(notDealer)).send({ cut: 'x', colour: 'red' }), 400);

  await playModern(base, tokens);
  const final = keep('PublicStateDto', 'finished', await http().get(base));
  expect({ dealNumber: final.dealNumber, status: final.status }).toEqual({ dealNumber: 12, status: 'finished' });
  for (const token of tokens) keep('SeatViewDto', 'a seat at the end', await http().get(`${base}/view`).set(...bearer(token)));
  await readAll(base, tokens, 'the end', final.version);
  keep('ReplayDto', 'replay at version 40', await http().get(`${base}/replay?version=40`));
  keep('AuditDto', 'audit', await http().get(`${base}/audit`));
  const exported = keep('ExportDto', 'export', await http().get(`${base}/export`));
  const types = new Set(exported.events.map((e: Json) => e.type));
  expect(['DeckCut', 'DealVoided', 'ContractChosen', 'SeedRevealed', 'MatchFinished'].filter((type) => !types.has(type))).toEqual([]);

  // The analysis of a scored deal: pending (202) while it is computed, then done (200).
  for (let done = false; !done; await new Promise((r) => setTimeout(r, 100))) {
    const res = await http().get(`${base}/analysis?deal=1`);
    done = res.status === 200;
    keep(done ? 'DealAnalysisDto' : 'AnalysisPendingDto', 'analysis of deal 1', res, done ? 200 : 202);
  }
  // A fork at the start of the third deal's play, and what its seats and spectators read.
  const forkAt = forkableVersions(exported.events.map((e: Json) => ({ type: e.type, data: e.data }) as BismarckEvent)).find(
    (v) => exported.events[v - 1]?.type === 'CardsLaidAway' && exported.events[v - 1].data.deal === 3,
  )!;
  const fork = keep('ForkCreatedDto', 'fork', await http().post(`${base}/fork?version=${forkAt}`), 201);
  const forkBase = `/api/matches/${fork.id}`;
  keep('PublicStateDto', 'the fork', await http().get(forkBase));
  for (const { token } of fork.seats) keep('SeatViewDto', 'a seat of the fork', await http().get(`${forkBase}/view`).set(...bearer(token)));
  keep('EventPageDto', 'the fork: events', await http().get(`${forkBase}/events?limit=1000`));
  keep('AuditDto', 'the fork: audit', await http().get(`${forkBase}/audit`));
  // Its rematch (RematchOffered in the finished match's log, `rematch` in its state) and the rematch's seat view.
  const rematch = keep('RematchCreatedDto', 'rematch', await http().post(`${base}/rematch`).set(...bearer(tokens[1])), 201);
  keep('PublicStateDto', 'finished, with its rematch', await http().get(base));
  keep('EventPageDto', 'finished, with its rematch: events', await http().get(`${base}/events?after=${final.version - 1}`));
  keep('SeatViewDto', 'a seat of the rematch', await http().get(`/api/matches/${rematch.id}/view`).set(...bearer(tokens[1])));
  // The clocked match: its person away after two timeouts, then back (SeatReturned).
  await waitFor('the person away', async () => ((await http().get(clockedBase)).body.away[0] ? true : null), 30_000);
  keep('PublicStateDto', 'a seat away', await http().get(clockedBase));
  keep('EventPageDto', 'timeouts and a stand-in: events', await http().get(`${clockedBase}/events?limit=1000`));
  keep('CommandResultDto', 'back to the table', await http().post(`${clockedBase}/seats/0/back`).set(...bearer(clocked.seats[0].token)));
  // The idle table, abandoned.
  await new Promise((r) => setTimeout(r, Math.max(0, idleSince + 2500 - Date.now())));
  expect(await t.app.get(LobbySweeper).sweep()).toBe(1);
  keep('PublicStateDto', 'an abandoned table', await http().get(`/api/matches/${idle.id}`));
  keep('EventPageDto', 'an abandoned table: events', await http().get(`/api/matches/${idle.id}/events`));
  // Bots at lobby tables that keep an open seat (so that no bot starts playing): one from the start, one that joins.
  keep('MatchCreatedDto', 'create a table with a bot', await http().post('/api/matches').send({ players: ['Ann', { bot: 'greedy' }, null] }), 201);
  const lobby = keep('MatchCreatedDto', 'create another lobby table', await http().post('/api/matches').send({ players: ['Bo', null, null] }), 201);
  keep('BotSeatJoinedDto', 'a bot takes an open seat', await http().post(`/api/matches/${lobby.id}/seats/1/bot`).send({ bot: 'random' }), 201);
  keep('MatchListDto', 'every match', await http().get('/api/matches'));
  // A player account: created, a second token, renamed, read back by its token and by anyone.
  const player = keep('PlayerCreatedDto', 'register a player', await http().post('/api/players').send({ name: 'Åsa' }), 201);
  keep('PlayerTokenDto', 'a second token', await http().post('/api/players/me/tokens').set(...bearer(player.token)), 201);
  keep('PlayerProfileDto', 'renamed', await http().patch('/api/players/me').set(...bearer(player.token)).send({ name: 'Åsa K.' }));
  keep('PlayerProfileDto', 'my profile', await http().get('/api/players/me').set(...bearer(player.token)));
  keep('PlayerProfileDto', 'a public profile', await http().get(`/api/players/${player.id}`));
  // A seat bound to the account (a lobby table, waiting): my matches, and the public list of finished ones (empty).
  keep('MatchCreatedDto', 'create a table with a bound seat', await http().post('/api/matches').set(...bearer(player.token)).send({ players: [{ player: player.id }, null, null] }), 201);
  keep('PlayerMatchListDto', 'my matches', await http().get('/api/players/me/matches').set(...bearer(player.token)));
  keep('PlayerMatchListDto', "a player's finished matches", await http().get(`/api/players/${player.id}/matches`));
  // The ratings list (every match here has an anonymous seat: none is rated, the list is empty).
  keep('RatingListDto', 'the ratings list', await http().get('/api/ratings?limit=5'));
}
