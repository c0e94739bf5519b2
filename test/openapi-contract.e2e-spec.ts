import type { ValidateFunction } from 'ajv/dist/2020';
import type { Response } from 'supertest';
import { join } from 'node:path';
import ts from 'typescript';
import {
  cutterOf,
  decide,
  evolve,
  EVENT_TYPES,
  forkableVersions,
  initialState,
  mulberry32,
  randomCommand,
  redactEvent,
  resolveOptions,
  seatToAct,
  sha256Hex,
  SHUFFLE_ALGORITHM,
  shuffleDeck,
  standInDue,
  type BismarckEvent,
  type Command,
  type MatchState,
  type Viewer,
} from '@bismarck/rules';
import { useTestApp } from './support/app';
import { bearer } from './support/player';

// The OpenAPI document tells the truth about what the service sends: every event type's `data`
// schema lists exactly the fields the rules put there, real events (redacted or not) and real
// answers conform to their schemas, and the generated client narrows `data` by `type`, no cast.

type Json = Record<string, any>;
// The analysis of a deal with a small node budget, answered pending at once: quick, and both answers are seen.
const t = useTestApp(
  () => Object.assign(process.env, { ANALYSIS_MAX_NODES: '100000', ANALYSIS_WAIT_MS: '0' }),
  () => {
    delete process.env.ANALYSIS_MAX_NODES;
    delete process.env.ANALYSIS_WAIT_MS;
  },
);
let doc: Json;
beforeAll(async () => {
  doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
});

// ---- events of every type, from the rules ------------------------------------------------------

/**
 * A lobby table abandoned, a table with bot seats, and a fair modern match from a lobby to its end with random legal moves:
 * commitments, cuts now and then, shuffle facts on some deals, leads before the lay-away (redeals),
 * revealed seeds. Every command brings the dealer's facts, as the service's do.
 */
// Match ids are UUIDs in the service (the document says `format: uuid`).
const ID = {
  abandoned: '00000000-0000-4000-8000-000000000001',
  bots: '00000000-0000-4000-8000-000000000002',
  played: '00000000-0000-4000-8000-000000000003',
  fork: '00000000-0000-4000-8000-000000000004',
  rematch: '00000000-0000-4000-8000-000000000005',
  clocked: '00000000-0000-4000-8000-000000000006',
  bound: '00000000-0000-4000-8000-000000000007',
};

function eventsOfEveryType(): BismarckEvent[] {
  const out: BismarckEvent[] = [];
  let state: MatchState = initialState();
  const seeds = new Map<string, string>();
  const committed: { deal: number; commitment: string; seed: string }[] = [];
  const apply = (command: Command): void => {
    const seed = `seed-${seeds.size}`;
    seeds.set(sha256Hex(seed), seed);
    for (const e of decide({ ...command, dealer: { commitment: sha256Hex(seed), seeds: committed } }, state)) {
      state = evolve(state, e);
      out.push(e);
      if (e.type === 'DeckCommitted') committed.push({ ...e.data, seed: seeds.get(e.data.commitment)! });
    }
  };
  const create = (matchId: string): Command => ({ type: 'createMatch', matchId, players: ['Ann', null, null], options: { leadBeforeDiscard: 'redeal' }, firstDealer: 0, seeded: false });

  apply(create(ID.abandoned));
  apply({ type: 'abandonTable' });
  // Bot seats: at creation (MatchCreated's `bots`) and through the lobby (SeatJoined's `bot`).
  state = initialState();
  apply({ ...create(ID.bots), players: ['Ann', 'Greedy bot', null], bots: [null, 'greedy', null] } as Command);
  apply({ type: 'joinSeat', seat: 2, name: 'Random bot', bot: 'random' });
  // Seats bound to player accounts: at creation (MatchCreated's `accounts`) and through the lobby (SeatJoined's `account`).
  state = initialState();
  apply({ ...create(ID.bound), players: ['Ann', null, null], accounts: ['pl-00000000-0000-4000-8000-00000000000a', null, null] } as Command);
  apply({ type: 'joinSeat', seat: 1, name: 'Bo', account: 'pl-00000000-0000-4000-8000-00000000000b' });
  state = initialState();
  apply(create(ID.played));
  apply({ type: 'joinSeat', seat: 1, name: 'Bob' });
  apply({ type: 'joinSeat', seat: 2, name: 'Cyd' });
  const random = mulberry32(12);
  for (let deals = 0; ; ) {
    if (state.status === 'awaitingDeal' && state.cut === null && random() < 0.5) apply({ type: 'cut', seat: cutterOf(state.dealer), cut: `cut-${deals}` });
    const command = randomCommand(state, { random, deck: (n) => shuffleDeck('deck', n), leadBeforeDiscard: 0.2 }, deals);
    if (command === null) break;
    if (command.type === 'deal' && deals++ % 2 === 0) command.shuffle = { algorithm: SHUFFLE_ALGORITHM, index: out.length + 1, seeded: false, commitment: null, cut: null };
    apply(command);
  }
  // Its rematch offered (RematchOffered), then created (MatchCreated's `rematchOf`) below.
  apply({ type: 'offerRematch', seat: 1, matchId: ID.rematch });
  // A fork of that finished match (MatchCreated's `forkedFrom`, decks `copiedFrom` the original), played on a little.
  const played = out.slice(out.findIndex((e) => e.type === 'MatchCreated' && e.data.matchId === ID.played));
  const at = forkableVersions(played).find((v) => v > played.length / 2)!;
  state = initialState();
  apply({ type: 'forkMatch', matchId: ID.fork, from: { matchId: ID.played, version: at, events: played } });
  for (let deals = 0, steps = 0; steps < 40; steps++) {
    const command = randomCommand(state, { random, deck: (n) => shuffleDeck('fork', n) }, deals);
    if (command === null) break;
    if (command.type === 'deal') command.shuffle = { algorithm: SHUFFLE_ALGORITHM, index: out.length + 1, seeded: true, cut: null };
    apply(command);
  }
  // A turn clock: seat 0 times out twice in a row (TurnTimedOut; the stand-in moves for it), is away, and comes back (SeatReturned).
  state = initialState();
  apply({ ...create(ID.clocked), players: ['Ann', 'Bob', 'Cyd'], options: { clock: { turnSeconds: 30, onTimeout: 'standIn' } } } as Command);
  for (let timeouts = 0, deals = 0; timeouts < 2 || standInDue(state) !== null; ) {
    if (seatToAct(state) === 0 && standInDue(state) === null) {
      apply({ type: 'timeOut', now: '2026-01-01T13:00:00.000Z', since: '2026-01-01T12:00:00.000Z' });
      timeouts++;
      continue;
    }
    const command = randomCommand(state, { random, deck: (n) => shuffleDeck('clock', n) }, deals)!;
    if (command.type === 'deal') deals++;
    apply(standInDue(state) === null ? command : { ...command, standIn: true });
  }
  apply({ type: 'returnToSeat', seat: 0 });
  state = initialState();
  apply({ type: 'createMatch', matchId: ID.rematch, players: ['Ann', 'Bob', 'Cyd'], options: { leadBeforeDiscard: 'redeal' }, firstDealer: 1, seeded: false, rematchOf: ID.played });
  return out;
}

const events = eventsOfEveryType();
const VIEWERS: Viewer[] = [0, 1, 2, 'spectator'];

function dataSchemaOf(type: string): Json {
  const member = resolve(doc.components.schemas.EventDto.discriminator.mapping[type]);
  return resolve(member.properties.data.$ref ?? member.properties.data.allOf[0].$ref);
}
const resolve = (ref: string): Json => doc.components.schemas[ref.split('/').pop()!];
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

describe('the event schemas', () => {
  it('are one per event type of the rules, told apart by `type`, in events, command answers and the export', () => {
    for (const name of ['EventDto', 'ExportedEventDto']) {
      const schema = doc.components.schemas[name];
      expect(schema.discriminator.propertyName).toBe('type');
      expect(Object.keys(schema.discriminator.mapping)).toEqual([...EVENT_TYPES]);
      expect(schema.oneOf.map((m: Json) => m.$ref)).toEqual(Object.values(schema.discriminator.mapping));
      expect(schema.properties.type.enum).toEqual([...EVENT_TYPES]);
      for (const [type, ref] of Object.entries(schema.discriminator.mapping)) expect(resolve(ref as string).properties.type.enum).toEqual([type]);
    }
    expect(doc.components.schemas.EventPageDto.properties.events.items.$ref).toBe('#/components/schemas/EventDto');
    expect(doc.components.schemas.CommandResultDto.properties.events.items.$ref).toBe('#/components/schemas/EventDto');
    expect(doc.components.schemas.ExportDto.properties.events.items.$ref).toBe('#/components/schemas/ExportedEventDto');
  });

  it('list exactly the data fields of the rules\' events of each type, required where every event has them', () => {
    for (const type of EVENT_TYPES) {
      const seen = events.filter((e) => e.type === type).map((e) => e.data as Json);
      expect({ type, seen: seen.length > 0 }).toEqual({ type, seen: true });
      const keys = new Set(seen.flatMap((d) => Object.keys(d)));
      const always = [...keys].filter((k) => seen.every((d) => k in d));
      const schema = dataSchemaOf(type);
      expect({ type, properties: sorted(Object.keys(schema.properties)), required: sorted(schema.required ?? []) }).toEqual({
        type,
        properties: sorted(keys),
        required: sorted(always),
      });
    }
  });

  it('fit every event as each viewer sees it, secret or revealed, in the log and in the export', () => {
    const validEvent = validator('EventDto');
    const validExported = validator('ExportedEventDto');
    let redacted = 0;
    events.forEach((event, i) => {
      const version = i + 1;
      for (const viewer of VIEWERS) {
        for (const revealed of [false, true]) {
          const { data } = redactEvent(event, viewer, revealed);
          if (JSON.stringify(data) !== JSON.stringify(event.data)) redacted++;
          expectValid(validEvent, { version, type: event.type, at: '2026-01-01T12:00:00.000Z', data });
        }
      }
      const hash = sha256Hex(String(version));
      expectValid(validExported, { version, type: event.type, data: event.data, metadata: {}, recordedAt: '2026-01-01T12:00:00.000Z', recordedAtMicros: '1767268800000000', hash });
    });
    expect(redacted).toBeGreaterThan(0); // the nulls of redaction were among them
    // A wrong field is refused: the schemas are not open-ended.
    expect(validEvent({ version: 1, type: 'CardPlayed', at: '2026-01-01T12:00:00.000Z', data: { deal: 1, trick: 1, seat: 0, card: 'QH', extra: 1 } })).toBe(false);
    expect(validEvent({ version: 1, type: 'CardPlayed', at: '2026-01-01T12:00:00.000Z', data: { deal: 1, trick: 1, seat: 0, card: null } })).toBe(false);
  });

  it("each carry the whole event, so that decoding with one type's schema alone keeps version, at, hash and standIn", () => {
    for (const union of ['EventDto', 'ExportedEventDto']) {
      const envelope = doc.components.schemas[union];
      for (const [type, ref] of Object.entries(envelope.discriminator.mapping)) {
        const member = resolve(ref as string);
        expect({ union, type, properties: sorted(Object.keys(member.properties)), required: sorted(member.required) }).toEqual({
          union,
          type,
          properties: sorted(new Set([...Object.keys(envelope.properties), 'data'])),
          required: sorted(new Set([...envelope.required, 'data'])),
        });
      }
    }
    // A real event against its type's schema alone, every field of it declared.
    const cardPlayed = { version: 7, type: 'CardPlayed', at: '2026-01-01T12:00:00.000Z', hash: sha256Hex('7'), standIn: true, data: { deal: 1, trick: 1, seat: 0, card: 'QH' } };
    expectValid(validator('CardPlayedEventDto'), cardPlayed);
    expect(Object.keys(cardPlayed).every((k) => k in resolve('#/components/schemas/CardPlayedEventDto').properties)).toBe(true);
  });

  it('let a client generated from the document narrow `data` by `type` with no cast (the TypeScript compiler says so)', () => {
    const narrowed = `
      import type { MatchEvent } from '@bismarck/client';
      export function show(e: MatchEvent): string {
        switch (e.type) {
          case 'MatchCreated': return e.data.players.join() + e.data.options.schedule;
          case 'SeatJoined': return e.data.name;
          case 'TableAbandoned': return e.data.openSeats.join();
          case 'DeckCommitted': return e.data.commitment;
          case 'DeckCut': return e.data.cut;
          case 'DealStarted': return e.data.tableCards.join() + (e.data.deck?.length ?? 0) + (e.data.shuffle?.cut ?? '');
          case 'ContractChosen': return e.data.contract + (e.data.trump ?? '');
          case 'HandsDealt': return e.data.hands.map((h) => h?.join() ?? 'hidden').join();
          case 'CardsLaidAway': return (e.data.cards ?? []).join();
          case 'CardPlayed': return e.data.card;
          case 'TrickTaken': return e.data.cards.map((c) => c.card).join() + e.data.winner;
          case 'DealVoided': return e.data.reason;
          case 'DealScored': return e.data.quotas.join();
          case 'SeedRevealed': return e.data.seed;
          case 'MatchFinished': return e.data.winners.join();
          case 'TurnTimedOut': return e.data.deadline + e.data.seat;
          case 'SeatReturned': return String(e.data.seat);
          case 'RematchOffered': return e.data.matchId + e.data.seat;
        }
      }`;
    expect(typeErrors(narrowed)).toEqual([]);
    const oneType = `import type { MatchEventOf } from '@bismarck/client';\nexport const winner = (e: MatchEventOf<'TrickTaken'>): number => e.data.winner;`;
    expect(typeErrors(oneType)).toEqual([]);
    // Without narrowing, `data` is a union: the same access does not compile.
    expect(typeErrors(`import type { MatchEvent } from '@bismarck/client';\nexport const card = (e: MatchEvent): string => e.data.card;`)).toEqual([
      expect.stringMatching(/Property 'card' does not exist/),
    ]);
  }, 60_000);
});

describe('headers', () => {
  const operations = (): [string, Json][] =>
    Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((m) => (item as Json)[m]).map((m) => [`${m} ${path}`, (item as Json)[m]] as [string, Json]),
    );
  const problemAnswers = (op: Json): [string, Json][] =>
    Object.entries((op.responses ?? {}) as Json).filter(([, r]) => (r as Json).content?.['application/problem+json']) as [string, Json][];

  it('take the token from the bearer schemes alone: no operation declares an `authorization` header, which generators would make required', () => {
    const declared = operations().filter(([, op]) => (op.parameters ?? []).some((p: Json) => p.in === 'header' && String(p.name).toLowerCase() === 'authorization'));
    expect(declared.map(([name]) => name)).toEqual([]);
    expect(doc.paths['/api/matches/{id}/rematch'].post.security).toEqual(expect.arrayContaining([{ seat: [] }]));
  });

  it('say the language: Accept-Language on every operation that may answer problem+json, Content-Language and Vary on each such answer', () => {
    const missing: string[] = [];
    for (const [name, op] of operations()) {
      const answers = problemAnswers(op);
      if (answers.length === 0) continue;
      const param = (op.parameters ?? []).find((p: Json) => p.in === 'header' && p.name === 'Accept-Language');
      if (!param || param.required) missing.push(`${name}: Accept-Language`);
      for (const [status, r] of answers) {
        const headers = (r as Json).headers ?? {};
        if (headers['Content-Language']?.$ref !== '#/components/headers/Content-Language' || headers.Vary?.$ref !== '#/components/headers/Vary-Accept-Language') missing.push(`${name} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(doc.components.headers['Content-Language'].schema.enum).toEqual(['en', 'fi', 'nb', 'sv']);
  });

  it('are the ones the service sends with a problem, in the language asked for', async () => {
    for (const [asked, lang] of [['sv-SE,sv;q=0.9', 'sv'], ['nn', 'nb'], ['de', 'en'], [undefined, 'en']] as const) {
      const req = t.http().get('/api/matches/00000000-0000-4000-8000-000000000000');
      const res = await (asked ? req.set('Accept-Language', asked) : req).expect(404);
      expect({ asked, lang: res.headers['content-language'], vary: /(^|,\s*)Accept-Language(\s*,|$)/i.test(res.headers.vary ?? '') }).toEqual({ asked, lang, vary: true });
    }
  });
});

// ---- real answers ------------------------------------------------------------------------------

describe('the options of a match', () => {
  it('are all required where the service answers with them (defaults filled in), and optional only in a request', () => {
    const every = Object.keys(resolveOptions()).sort();
    expect([...doc.components.schemas.MatchOptionsViewDto.required].sort()).toEqual(every);
    // The clock is the one option without a default: answers carry it only for a match that has one.
    expect(Object.keys(doc.components.schemas.MatchOptionsDto.properties).sort()).toEqual([...every, 'clock'].sort());
    expect(Object.keys(doc.components.schemas.MatchOptionsViewDto.properties).sort()).toEqual([...every, 'clock'].sort());
    expect(doc.components.schemas.MatchOptionsDto.required).toBeUndefined();
    // Only the request that creates a match takes the optional form.
    const usersOf = (name: string) =>
      Object.entries(doc.components.schemas as Json)
        .filter(([, schema]) => JSON.stringify(schema).includes(`"#/components/schemas/${name}"`))
        .map(([user]) => user);
    expect(usersOf('MatchOptionsDto')).toEqual(['CreateMatchDto']);
    expect(usersOf('MatchOptionsViewDto').length).toBeGreaterThanOrEqual(4);
  });
});

describe('the answers of real matches', () => {
  // The app's contract watch checks every answer when the app stops; these are checked at once, to fail where they are sent.
  const answer = async (operationId: string, res: Response): Promise<Json> => {
    const { method, path } = (res as unknown as { req: { method: string; path: string } }).req;
    expect({ operationId, reasons: t.contract.judge(method, path, res.status, res.headers['content-type'], Buffer.from(res.text ?? '')) }).toEqual({ operationId, reasons: [] });
    return res.body as Json;
  };

  /** Plays with the first legal choice until `done(state)`, checking every answer; cuts each deck, and voids one deal. */
  async function playUntil(base: string, tokens: string[], done: (state: Json) => boolean, snapshotAt?: number): Promise<void> {
    const http = t.http;
    let voided = false;
    for (let step = 0; ; step++) {
      if (step > 5000) throw new Error('the match did not get there');
      const state = await answer('getMatch', await http().get(base));
      if (done(state)) return;
      const view = await answer('getSeatView', await http().get(`${base}/view`).set(...bearer(tokens[state.turn])));
      const auth = bearer(tokens[view.seat]);
      const legal = view.legal;
      if (legal.action === 'deal' && state.fairness.cut === null) {
        await answer('cut', await http().post(`${base}/cut`).set(...bearer(tokens[(state.dealer + 2) % 3])).send({ cut: `c-${step}` }));
      } else if (legal.action === 'deal') await answer('deal', await http().post(`${base}/deal`).set(...auth));
      else if (legal.action === 'chooseContract') {
        const contract = legal.contracts[0];
        await answer('chooseContract', await http().post(`${base}/contract`).set(...auth).send(contract === 'trump' ? { contract, trump: legal.trumps[0] } : { contract }));
      } else if (legal.action === 'discard' && !voided && state.options.leadBeforeDiscard === 'redeal') {
        voided = true; // forehand leads before laying away: the deal is void and dealt again
        await answer('playCard', await http().post(`${base}/play`).set(...auth).send({ card: view.hand[0] }));
      } else if (legal.action === 'discard') await answer('discard', await http().post(`${base}/discard`).set(...auth).send({ cards: view.hand.slice(0, legal.count) }));
      else await answer('playCard', await http().post(`${base}/play`).set(...auth).send({ card: legal.cards[0] }));
      if (step === snapshotAt) {
        // Mid-deal: hands and the lay-away are secret, so the pages hold nulls.
        await answer('listEvents', await http().get(`${base}/events?limit=1000`));
        await answer('listEvents', await http().get(`${base}/events?limit=1000`).set(...auth));
        await answer('replay', await http().get(`${base}/replay?version=${state.version}`).set(...auth));
        await answer('replay', await http().get(`${base}/replay?version=${state.version}`));
      }
    }
  }

  it('fit the schemas of their operations, with nothing undocumented in them', async () => {
    const http = t.http;
    // A quick match from a lobby table to its export.
    const lobby = await answer('createMatch', await http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick', leadBeforeDiscard: 'redeal' } }));
    const base = `/api/matches/${lobby.id}`;
    await answer('listMatches', await http().get('/api/matches?status=waiting'));
    const tokens: string[] = [lobby.seats[0].token];
    for (const seat of [1, 2]) tokens[seat] = (await answer('joinSeat', await http().post(`${base}/seats/${seat}/join`).send({ name: `P${seat}` }))).token;
    await playUntil(base, tokens, (state) => state.status === 'finished', 60);
    const page = await answer('listEvents', await http().get(`${base}/events?limit=1000`));
    // Quick deals have fixed contracts (no ContractChosen), a filled table is never abandoned, a match without a clock times nobody out, and no rematch was asked for yet.
    const absent = ['TableAbandoned', 'ContractChosen', 'TurnTimedOut', 'SeatReturned', 'RematchOffered'];
    expect(new Set(page.events.map((e: Json) => e.type))).toEqual(new Set(EVENT_TYPES.filter((type) => !absent.includes(type))));
    await answer('getScorecard', await http().get(`${base}/scorecard`));
    await answer('replay', await http().get(`${base}/replay?version=20`));
    await answer('audit', await http().get(`${base}/audit`));
    await answer('exportMatch', await http().get(`${base}/export`));
    // A fork of the finished match, at the start of its second deal's play, and its audit.
    const exportedEvents = (await http().get(`${base}/export`)).body.events as Json[];
    const forkAt = forkableVersions(exportedEvents.map((e) => ({ type: e.type, data: e.data }) as BismarckEvent)).find(
      (v) => exportedEvents[v - 1]?.type === 'CardsLaidAway' && exportedEvents[v - 1].data.deal === 2,
    )!;
    const forked = await answer('forkMatch', await http().post(`${base}/fork?version=${forkAt}`));
    await answer('getMatch', await http().get(`/api/matches/${forked.id}`));
    await answer('listEvents', await http().get(`/api/matches/${forked.id}/events?limit=1000`));
    await answer('audit', await http().get(`/api/matches/${forked.id}/audit`));
    // The analysis of a scored deal: pending (202) while it is computed, then done (200).
    for (let done = false; !done; await new Promise((r) => setTimeout(r, 200))) {
      const res = await http().get(`${base}/analysis?deal=1`);
      await answer('analyseDeal', res);
      done = res.status === 200;
    }
    await answer('listMatches', await http().get('/api/matches'));
    // Its rematch, asked for twice (the second answer is the first match), and the finished match then.
    const next = await answer('rematch', await http().post(`${base}/rematch`).set(...bearer(tokens[1])));
    expect((await answer('rematch', await http().post(`${base}/rematch`).set(...bearer(tokens[2])))).id).toBe(next.id);
    expect((await answer('getMatch', await http().get(base))).rematch).toBe(next.id);
    await answer('listEvents', await http().get(`${base}/events?limit=1000`).set(...bearer(tokens[0])));
    await answer('getSeatView', await http().get(`/api/matches/${next.id}/view`).set(...bearer(tokens[0])));

    // The first deal of a modern match: forehand chooses the contract.
    const modern = await answer('createMatch', await http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', 'Cecilia'] }));
    const modernBase = `/api/matches/${modern.id}`;
    await playUntil(modernBase, modern.seats.map((s: Json) => s.token), (state) => state.dealNumber === 2);
    const contracts = (await answer('listEvents', await http().get(`${modernBase}/events`))).events.filter((e: Json) => e.type === 'ContractChosen');
    expect(contracts).toHaveLength(1);
    await answer('getScorecard', await http().get(`${modernBase}/scorecard`));
  }, 300_000); // a whole quick match and a modern deal, every read of them, one request at a time: minutes on a busy machine
});

// ---- validating against the document -------------------------------------------------------------

// The watch of test/support/contract.ts: the document's own schemas, Ajv in strict mode, objects closed.
const validator = (schemaName: string): ValidateFunction => t.contract.schema(schemaName);

function expectValid(validate: ValidateFunction, value: unknown, what = ''): void {
  expect({ what, errors: t.contract.errorsOf(validate, value).slice(0, 5) }).toEqual({ what, errors: [] });
}

// ---- compiling a client snippet ----------------------------------------------------------------

const ROOT = join(__dirname, '..');

/** The type errors of a module placed in libs/client/src, compiled with the repository's settings. */
function typeErrors(source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const file = join(ROOT, 'libs/client/src/narrowing-check.ts');
  const host = ts.createCompilerHost(config!.options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === file ? source : read(f));
  host.fileExists = (f) => f === file || exists(f);
  host.getSourceFile = (f, lang, ...rest) => (f === file ? ts.createSourceFile(f, source, lang) : getSource(f, lang, ...rest));
  const program = ts.createProgram({ rootNames: [file], options: { ...config!.options, noEmit: true }, host });
  const sourceFile = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
