// Property-based journeys through the HTTP API, where features meet: lobby tables and seeds, every
// option, cuts, retries with and without an Idempotency-Key, stale If-Match, a restart of the api and
// a second api instance on the same database, matches left unfinished, bot seats (named at creation or
// given through the lobby, played by whichever instance is up), forks of finished matches played on,
// turn clocks (a person absent once or twice in a row, its stand-in playing, the seat away and coming
// back with POST …/back or a move of its own), each match followed live by a spectator's and a seat's
// event stream throughout. fast-check
// generates a whole journey (one to three
// matches); after it, every promise is checked for every match at once: the audit, the export, the
// list, gapless versions, the scorecard, the streams, every caller's notation read back to its events
// page, the analysis of a scored deal, no leak in anything any caller received (a stand-in's events
// too), the turn clocks' timeouts, stand-in moves and away seats against the log, the rebuild.
//
// No jest in here: `test/journey.e2e-spec.ts` and `test/chaos/chaos.ts` both run `runJourneys`, and
// a broken promise is an Error whose message names it. The spec asserts on the report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import type { Test } from 'supertest';
import type { DataSource } from 'typeorm';
import { auditMatch, EXPORT_FORMAT, type ExportedMatch } from '@bismarck/audit';
import { parseSse } from '@bismarck/client';
import { EventStore } from '@bismarck/event-store';
import { PROJECTION_TABLES, ProjectionRebuilder, type TableDifference } from '@bismarck/projections';
import { fromNotation } from '@bismarck/notation';
import {
  evolve,
  initialState,
  isDealRevealed,
  legalActions,
  nothingSecret,
  publicView,
  redactEvent,
  seatToAct,
  seatView,
  standInDue,
  type BismarckEvent,
  type MatchOptions,
  type MatchState,
  type Seat,
  type Viewer,
} from '@bismarck/rules';
import { startTestApp, type TestApp } from './app';
import { createTestDatabase, openDataSource, type TestDatabase } from './database';
import { seededPick } from './player';
import { listenLocal } from './server';

// ---- the plan of a journey (what fast-check generates and shrinks) ---------------------------------

const SEATS: Seat[] = [0, 1, 2];
const VIEWERS: Viewer[] = [0, 1, 2, 'spectator'];
const PEEKS = ['view', 'state', 'events', 'replay', 'scorecard', 'list', 'audit', 'notation'] as const;
/** The strategies a journey seats (the strong bot thinks too long for a journey's pace). */
const BOTS = ['random', 'greedy'] as const;
type Bot = (typeof BOTS)[number];
type Peek = (typeof PEEKS)[number];

/** One match of a journey, its fields in the order they shrink. */
export interface MatchPlan {
  /** Play to the end, or leave the match after `stopAfter` actions. */
  finish: boolean;
  stopAfter: number;
  /** Seats created open (`null`): a lobby table, the open seats joined in `joinOrder`. */
  open: [boolean, boolean, boolean];
  /** Seats the service plays: named at creation (`{ bot }`), or an open seat given to a bot through the lobby. */
  bots: [Bot | null, Bot | null, Bot | null];
  /**
   * A turn clock (`options.clock.turnSeconds`), or none. A clocked match is a quick one played to the
   * end: left unfinished, its stand-ins would play it on after the journey.
   */
  clock: number | null;
  seed: string | null;
  joinOrder: Seat[];
  options: Partial<MatchOptions>;
  /** Whether the cutter cuts before the n-th deal command (redeals count). */
  cuts: boolean[];
  /** Before the table is full, a seated player tries to deal (MATCH_NOT_STARTED). */
  commandWhileWaiting: boolean;
  /** After the joins, a stranger tries to take a taken seat (SEAT_TAKEN). */
  joinTakenSeat: boolean;
  /**
   * Person seats played by the journey's registered player of that seat (docs/players.md): the first
   * named one bound at creation (`{ player }`, with its token: one account per request), open ones
   * joined with the player token; such a seat then acts with the player token only.
   */
  bound: [boolean, boolean, boolean];
}

/** Something that happens around one action of one match. */
export type Twist =
  | { kind: 'sameKey' } // the action is resent with its Idempotency-Key: the first answer again
  | { kind: 'plainResend' } // the accepted action is resent with no key: refused
  | { kind: 'staleIfMatch' } // the accepted action is resent with If-Match of the version before: 412
  | { kind: 'freshIfMatch' } // the action carries If-Match of the version its view showed: accepted
  | { kind: 'outOfTurn'; seat: Seat } // another seat acts first: refused
  | { kind: 'leadBeforeDiscard' } // forehand leads before laying away: refused, or the deal is void
  // Turn clocks: the person to act does not act; the journey waits for TurnTimedOut and the stand-in's
  // move (`times` 2: that seat's next turn too, so it is away). `late`: it sends its move the moment the
  // timeout is in the log, racing the stand-in (the stand-in decides: the move must be refused).
  | { kind: 'absent'; times: 1 | 2; late: boolean }
  // Every away seat comes back: `post` with POST …/seats/{seat}/back (nobody away: 409 SEAT_NOT_AWAY),
  // `move` with a move of its own (its cut, or its turn raced against the stand-in), answered with SeatReturned first.
  | { kind: 'back'; via: 'post' | 'move' }
  | { kind: 'peek'; viewer: Viewer; what: Peek; back: number }; // someone looks

export interface JourneyPlan {
  matches: MatchPlan[];
  /** Seeds the legal choices and the order in which the matches move. */
  pickSeed: number;
  /** `match` is taken modulo the number of matches; `action` counts that match's actions from 0. */
  twists: { match: number; action: number; twist: Twist }[];
  /** Before this step (all matches counted), the api is closed and a new one started on the database. */
  restartAt: number | null;
  /** From step `from`, a second api instance on the same database takes every other request, for `steps` steps. */
  secondInstance: { from: number; steps: number } | null;
  /**
   * Once the matches are played: a match (modulo their number), if it finished, forked at `at`
   * thousandths of its log (the nearest version before, if that one is inside a move); the fork is
   * played on (to the end, or for `stopAfter` actions) and kept to every promise like any match.
   */
  forks: { match: number; at: number; finish: boolean; stopAfter: number }[];
}

export interface JourneyArbitraryOptions {
  /** Weight of the traditional and modern schedules against quick's 10 (0: quick only). */
  longSchedules?: number;
  /** A long match stops after this many actions (keeps journeys short); null: plays them out. */
  longMatchActions?: number | null;
}

const weighted = <T>(...choices: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> =>
  fc.oneof(...choices.filter(([w]) => w > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

const withoutUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Any option set; quick mostly, and a fourth round only where the rules allow it (traditional). */
const optionsArbitrary = (longSchedules: number): fc.Arbitrary<Partial<MatchOptions>> => {
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  return fc
    .record({
      schedule: weighted<MatchOptions['schedule']>([10, fc.constant('quick')], [longSchedules, fc.constantFrom('traditional', 'modern')]),
      scoring: maybe(fc.constantFrom('zeroSum', 'overOnly')),
      contractChoice: maybe(fc.constantFrom('blind', 'informed')),
      spadesInFreeTrump: maybe(fc.boolean()),
      mustTrump: maybe(fc.boolean()),
      leadBeforeDiscard: maybe(fc.constantFrom('reject', 'redeal')),
      fourthRound: maybe(fc.constantFrom('none', 'freeTrump', 'freeTrumpBlind')),
    })
    .map((o) => withoutUndefined({ ...o, fourthRound: o.schedule === 'traditional' ? o.fourthRound : undefined }) as Partial<MatchOptions>);
};

const PERMUTATIONS: Seat[][] = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/** The turn clock of a journey's clocked matches: the shortest there is (every absence costs that long). */
export const JOURNEY_TURN_SECONDS = 5;

const botOrNobody: fc.Arbitrary<Bot | null> = weighted<Bot | null>([2, fc.constant(null)], [1, fc.constantFrom(...BOTS)]);

const matchArbitrary = (o: Required<JourneyArbitraryOptions>): fc.Arbitrary<MatchPlan> =>
  fc
    .record({
      // Fields shrink in this order: a short unfinished match first (the quickest journeys to replay).
      // Four in five play to the end.
      finish: fc.nat(9).map((n) => n >= 2),
      stopAfter: fc.nat(170),
      // Then three named seats, and no seed.
      open: weighted<[boolean, boolean, boolean]>(
        [3, fc.constant([false, false, false] as [boolean, boolean, boolean])],
        [2, fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).filter((seats) => seats.some(Boolean))],
      ),
      // Then no bot seats.
      bots: weighted<[Bot | null, Bot | null, Bot | null]>([3, fc.constant([null, null, null] as [null, null, null])], [2, fc.tuple(botOrNobody, botOrNobody, botOrNobody)]),
      // Then no clock: one match in four has one.
      clock: weighted<number | null>([3, fc.constant(null)], [1, fc.constant(JOURNEY_TURN_SECONDS)]),
      seed: weighted<string | null>([7, fc.constant(null)], [3, fc.stringMatching(/^[a-z0-9-]{1,12}$/)]),
      joinOrder: fc.constantFrom(...PERMUTATIONS),
      options: optionsArbitrary(o.longSchedules),
      cuts: fc.array(fc.boolean(), { maxLength: 14 }),
      commandWhileWaiting: fc.boolean(),
      joinTakenSeat: fc.boolean(),
      // No registered player, mostly.
      bound: weighted<[boolean, boolean, boolean]>([3, fc.constant([false, false, false] as [boolean, boolean, boolean])], [2, fc.tuple(fc.boolean(), fc.boolean(), fc.boolean())]),
    })
    .map((m) =>
      m.options.schedule !== 'quick' && o.longMatchActions !== null
        ? { ...m, finish: false, stopAfter: Math.min(m.finish ? o.longMatchActions : m.stopAfter, o.longMatchActions) }
        : m,
    )
    // A clock only on a quick match, and a clocked match plays to the end (nobody stops its stand-ins).
    .map((m) => (m.clock === null ? m : m.options.schedule !== 'quick' ? { ...m, clock: null } : { ...m, finish: true }));

const twistArbitrary: fc.Arbitrary<Twist> = weighted<Twist>(
  [3, fc.constant({ kind: 'sameKey' as const })],
  [3, fc.constant({ kind: 'plainResend' as const })],
  [2, fc.constant({ kind: 'staleIfMatch' as const })],
  [2, fc.constant({ kind: 'freshIfMatch' as const })],
  [2, fc.record({ kind: fc.constant('outOfTurn' as const), seat: fc.constantFrom(...SEATS) })],
  [2, fc.constant({ kind: 'leadBeforeDiscard' as const })],
  [6, fc.record({ kind: fc.constant('peek' as const), viewer: fc.constantFrom(...VIEWERS), what: fc.constantFrom(...PEEKS), back: fc.nat(8) })],
  // Nobody is away, mostly: refused, and nothing appended (clocked or not).
  [1, fc.constant({ kind: 'back' as const, via: 'post' as const })],
);

/**
 * Absences (each costs a turn clock, 5 s, or two): at most two a journey, on clocked matches only (the
 * `match` of one is the n-th clocked match), an away seat sometimes coming back `after` more actions.
 */
const absenceArbitrary = fc.record({
  match: fc.nat(2),
  action: fc.nat(120),
  times: fc.constantFrom<1 | 2>(1, 2),
  late: fc.boolean(),
  back: fc.option(fc.record({ via: fc.constantFrom<'post' | 'move'>('post', 'move'), after: fc.nat(30) }), { nil: null, freq: 3 }),
});
type Absence = typeof absenceArbitrary extends fc.Arbitrary<infer A> ? A : never;

/** The absences as twists of the clocked matches (none without one). */
const absenceTwists = (matches: MatchPlan[], absences: Absence[]): JourneyPlan['twists'] => {
  const clocked = matches.flatMap((m, i) => (m.clock === null ? [] : [i]));
  if (clocked.length === 0) return [];
  return absences.flatMap((a) => {
    const match = clocked[a.match % clocked.length];
    const absent = { match, action: a.action, twist: { kind: 'absent' as const, times: a.times, late: a.late } };
    return a.back && a.times === 2 ? [absent, { match, action: a.action + 1 + a.back.after, twist: { kind: 'back' as const, via: a.back.via } }] : [absent];
  });
};

export function journeyArbitrary(options: JourneyArbitraryOptions = {}): fc.Arbitrary<JourneyPlan> {
  const o = { longSchedules: options.longSchedules ?? 0, longMatchActions: options.longMatchActions ?? 120 };
  return fc
    .record<JourneyPlan & { absences: Absence[] }>({
      matches: fc.array(matchArbitrary(o), { minLength: 1, maxLength: 3 }),
      // Quick deals have about 55 actions: most twists land in the first two deals of a match. Unbiased:
      // fast-check's bias towards small values would leave most journeys with a twist or two at action 0.
      twists: fc.noBias(fc.array(fc.record({ match: fc.nat(2), action: fc.nat(120), twist: twistArbitrary }), { maxLength: 24 })),
      // Absences cost 5 s each (10 s to make a seat away): about half the journeys with a clocked match
      // have one, a few two.
      absences: fc.noBias(
        weighted<Absence[]>(
          [3, fc.constant([])],
          [2, fc.array(absenceArbitrary, { minLength: 1, maxLength: 1 })],
          [1, fc.array(absenceArbitrary, { minLength: 2, maxLength: 2 })],
        ),
      ),
      restartAt: fc.option(fc.nat(300), { nil: null, freq: 2 }),
      secondInstance: fc.option(fc.record({ from: fc.nat(200), steps: fc.integer({ min: 1, max: 150 }) }), { nil: null, freq: 2 }),
      forks: weighted<JourneyPlan['forks']>([2, fc.constant([])], [1, fc.array(fc.record({ match: fc.nat(2), at: fc.nat(1000), finish: fc.boolean(), stopAfter: fc.nat(60) }), { minLength: 1, maxLength: 2 })]),
      // Not shrunk: a smaller seed is not a simpler game, only another one.
      pickSeed: fc.noShrink(fc.nat()),
    })
    .map(({ absences, ...plan }): JourneyPlan => ({ ...plan, twists: [...plan.twists, ...absenceTwists(plan.matches, absences)] }));
}

/** One line per match, for reports: what the journey did. */
export function describePlan(plan: JourneyPlan): string {
  const matches = plan.matches.map((m, i) => {
    const seats = m.open.map((open, s) => (open ? '_' : 'named') + (m.bots[s] ? `:${m.bots[s]}` : m.bound[s] ? '@player' : '')).join(',');
    const lobby = m.open.some(Boolean) ? `lobby [${seats}] joined ${m.joinOrder.filter((s) => m.open[s]).join('→')}` : `seats [${seats}]`;
    const cuts = m.cuts.map((c) => (c ? 'c' : '-')).join('');
    const clock = m.clock === null ? '' : `, clock ${m.clock} s`;
    return `#${i}: ${lobby}${m.seed === null ? '' : `, seed ${JSON.stringify(m.seed)}`}, options ${JSON.stringify(m.options)}${clock}, cuts [${cuts}], ${m.finish ? 'to the end' : `stop after ${m.stopAfter} actions`}`;
  });
  const detail = (t: Twist): string => {
    switch (t.kind) {
      case 'peek':
        return `(${t.viewer},${t.what},${t.back})`;
      case 'outOfTurn':
        return `(${t.seat})`;
      case 'absent':
        return `(${t.times === 2 ? 'twice: away' : 'once'}${t.late ? ', late' : ''})`;
      case 'back':
        return `(${t.via})`;
      default:
        return '';
    }
  };
  const twists = plan.twists.map((t) => `#${t.match % plan.matches.length}@${t.action}:${t.twist.kind}${detail(t.twist)}`);
  const absences = plan.twists.filter((t) => t.twist.kind === 'absent').length;
  return [
    ...matches,
    `twists: ${twists.join(' ') || 'none'}${absences ? ` (${absences} absence(s), ≥ ${absences * JOURNEY_TURN_SECONDS} s)` : ''}`,
    `forks: ${(plan.forks ?? []).map((f) => `#${f.match % plan.matches.length} at ${f.at / 10}% ${f.finish ? 'to the end' : `then ${f.stopAfter} actions`}`).join(', ') || 'none'}`,
    `restart before step ${plan.restartAt ?? '-'}; second instance ${plan.secondInstance ? `steps ${plan.secondInstance.from}..${plan.secondInstance.from + plan.secondInstance.steps - 1}` : '-'}; pickSeed ${plan.pickSeed}`,
  ].join('\n');
}

// ---- the lab: a database, the api on it, a second api sometimes -------------------------------------

type Http = () => ReturnType<typeof request>;

interface Instance {
  app: TestApp;
  http: Http;
  url: string;
}

async function startInstance(db: TestDatabase): Promise<Instance> {
  const app = await startTestApp(db);
  const url = await listenLocal(app.app);
  return { app, http: () => request(url), url };
}

/** A journey's registered player: its current token and that token's id (to revoke it by). */
interface Account {
  id: string;
  name: string;
  token: string;
  tokenId: string;
}

/** The database the journeys share and the api instances on it, with a pool of our own for reading the true log. */
class Lab {
  second: Instance | null = null;
  private constructor(
    readonly db: TestDatabase,
    readonly pool: DataSource,
    readonly store: EventStore,
    public primary: Instance,
    private readonly ownsDb: boolean,
  ) {}

  static async open(existing?: TestDatabase): Promise<Lab> {
    const db = existing ?? (await createTestDatabase({ migrations: [] }));
    const primary = await startInstance(db); // migrates
    const pool = await openDataSource(db, { poolSize: 2 });
    return new Lab(db, pool, new EventStore(pool, { notifications: 'none' }), primary, existing === undefined);
  }

  /** The number of events in the log of a match, now. */
  async logLength(id: string): Promise<number> {
    const [row] = await this.pool.query('SELECT coalesce(max(version), 0)::int AS n FROM events WHERE stream_id = $1', [id]);
    return row.n;
  }

  /** The true log, straight from the database (nothing redacted). */
  async trueLog(id: string): Promise<LogEvent[]> {
    const rows = await this.pool.query('SELECT version, type, data, metadata, recorded_at FROM events WHERE stream_id = $1 ORDER BY version', [id]);
    return rows.map((r: any) => ({ version: r.version, type: r.type, data: r.data, metadata: r.metadata ?? {}, at: new Date(r.recorded_at).toISOString() }));
  }

  async restart(): Promise<void> {
    // A new api even when the old one's answers broke its contract (stopApp throws that): else every later journey would meet a closed one.
    try {
      await this.primary.app.stopApp();
    } finally {
      this.primary = await startInstance(this.db);
    }
  }

  async startSecond(): Promise<void> {
    if (!this.second) this.second = await startInstance(this.db);
  }

  async stopSecond(): Promise<void> {
    const second = this.second;
    this.second = null;
    await second?.app.stopApp();
  }

  async close(): Promise<void> {
    await this.stopSecond();
    await this.primary.app.stopApp();
    await this.store.close();
    await this.pool.destroy();
    if (this.ownsDb) await this.db.drop();
  }
}

// ---- one journey ------------------------------------------------------------------------------------

/** An event as the log holds it: nothing redacted, its metadata (`standIn`) and the time it was recorded. */
interface LogEvent {
  version: number;
  type: string;
  data: any;
  metadata: Record<string, unknown>;
  at: string;
}

interface Answer {
  status: number;
  body: any;
  text: string;
  /** The match's log length right after the answer arrived. */
  version: number;
}

/** A body some caller received, and the moment (log length) it was received at. */
interface Seen {
  viewer: Viewer;
  version: number;
  what: string;
  text: string;
}

interface LiveMatch {
  index: number;
  plan: MatchPlan;
  id: string;
  tokens: (string | undefined)[];
  /** The bot seats (no token: the service plays them). */
  bots: (Bot | null)[];
  actions: number;
  /** Deal commands accepted so far (a redeal counts), to find the plan's cut. */
  deals: number;
  /** Leads before the lay-away planned up to this action have been tried. */
  leadsTriedUpTo: number;
  done: boolean;
  seen: Seen[];
  /** Every checkpoint the public state showed: version → hash, as a client pins the chain. */
  pins: Map<number, string>;
  pick: (xs: any[]) => any;
  /** Clients following the match's live stream from its creation (a spectator) or its start (seat 0). */
  watchers: Watcher[];
  /** A seat absent once of two: it stays absent at its next turn (and does not cut meanwhile). */
  absentAgain: Seat | null;
  /** Away seats that come back with a move of their own (their cut, or a turn raced against the stand-in). */
  returnByMove: Set<Seat>;
  /** The player account each seat is bound to (its token is then the seat's token here), else null. */
  boundTo: (string | null)[];
}

interface Action {
  path: 'cut' | 'deal' | 'contract' | 'discard' | 'play';
  body?: Record<string, unknown>;
  /** The seat is away and comes back with this move: the answer starts with SeatReturned. */
  returning?: boolean;
}

export interface JourneyCounts {
  journeys: number;
  failedJourneys: number;
  matches: number;
  lobbies: number;
  seededLobbies: number;
  finished: number;
  unfinished: number;
  actions: number;
  cuts: number;
  sameKeyRetries: number;
  plainResends: number;
  staleIfMatch: number;
  outOfTurn: number;
  leadsBeforeDiscard: number;
  voidedDeals: number;
  peeks: number;
  restarts: number;
  secondInstances: number;
  bodiesScanned: number;
  botSeats: number;
  /** Moves the service made for bot seats while the journey waited for them. */
  botMoves: number;
  /** Notations read and parsed back (peeks and the final check). */
  notations: number;
  /** Analyses of scored deals answered (200). */
  analyses: number;
  forks: number;
  /** Matches with a turn clock, and what their logs hold at the end. */
  clockedMatches: number;
  timeouts: number;
  standInMoves: number;
  /** Absences planned and waited out (each a TurnTimedOut and the stand-in's move). */
  absences: number;
  /** Seats that became away through two absences in a row. */
  aways: number;
  returnsByPost: number;
  returnsByMove: number;
  /** POST …/back by a seat that was not away: 409 SEAT_NOT_AWAY. */
  notAwayRefused: number;
  /** A person's move sent the moment its turn timed out: refused (the stand-in decides), or accepted. */
  lateMovesRefused: number;
  lateMovesAccepted: number;
  /** A person's command that met a stand-in's move made meanwhile (409/412: a race lost, no broken promise). */
  lostRaces: number;
  /** Bodies with a stand-in's event in them that the leak check scanned. */
  standInBodiesScanned: number;
  boundSeats: number;
  playerMatchLists: number;
  /** Player tokens replaced by a new one and revoked, each then refused. */
  tokensRevoked: number;
}

const zeroCounts = (): JourneyCounts => ({
  journeys: 0,
  failedJourneys: 0,
  matches: 0,
  lobbies: 0,
  seededLobbies: 0,
  finished: 0,
  unfinished: 0,
  actions: 0,
  cuts: 0,
  sameKeyRetries: 0,
  plainResends: 0,
  staleIfMatch: 0,
  outOfTurn: 0,
  leadsBeforeDiscard: 0,
  voidedDeals: 0,
  peeks: 0,
  restarts: 0,
  secondInstances: 0,
  bodiesScanned: 0,
  botSeats: 0,
  botMoves: 0,
  notations: 0,
  analyses: 0,
  forks: 0,
  clockedMatches: 0,
  timeouts: 0,
  standInMoves: 0,
  absences: 0,
  aways: 0,
  returnsByPost: 0,
  returnsByMove: 0,
  notAwayRefused: 0,
  lateMovesRefused: 0,
  lateMovesAccepted: 0,
  lostRaces: 0,
  standInBodiesScanned: 0,
  boundSeats: 0,
  playerMatchLists: 0,
  tokensRevoked: 0,
});

const JOINER_NAMES = ['Dagny', 'Eirik', 'Åse'];
const CREATOR_NAMES = ['Astrid', 'Bjørn', 'Cecilia'];
/** The journey's registered players, by seat. */
const PLAYER_NAMES = ['Pia', 'Per', 'Pål'];
/**
 * How long a bot seat may take to move. A move lost with an instance that stopped is taken by the
 * other's sweep (BOT_SWEEP_MS, shortened for the journeys, plus the 2 s a turn must sit idle).
 */
const BOT_WAIT_MS = 15_000;
/**
 * How long after a deadline the journey waits for the timeout and the stand-in's move: the sweep
 * (CLOCK_SWEEP_MS, 100 ms) and one greedy decision, with room for a busy machine.
 */
const ABSENCE_GRACE_MS = 4_000;
/** A turn the service plays: a bot seat's, or a stand-in's for a person who timed out or is away. */
interface ServiceTurn {
  seat: Seat;
  version: number;
  standIn: boolean;
}
/** Events the service appends on its own in a clocked match: a timeout, and the stand-in's moves. */
const isClockEvent = (e: LogEvent): boolean => e.type === 'TurnTimedOut' || e.metadata.standIn === true;
/** Whether the service plays `seat` (a bot seat). */
const botAt = (state: MatchState, seat: Seat): boolean => 'bots' in state && state.bots[seat] !== null;
/** The seat whose decision an event records (as the rules count presence), else null. */
function actorOf(e: { type: string; data: any }): Seat | null {
  switch (e.type) {
    case 'DealStarted':
      return e.data.dealer;
    case 'DeckCut':
    case 'ContractChosen':
    case 'CardsLaidAway':
    case 'CardPlayed':
    case 'DealVoided':
      return e.data.seat;
    default:
      return null;
  }
}
/** Safety net: no journey plays more steps than this (three modern matches take about 2000). */
const MAX_STEPS = 2500;
const short = (v: unknown, n = 400): string => {
  const s = typeof v === 'string' ? v : String(JSON.stringify(v));
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

/** A journey that broke promises: every broken one, each on a line `[promise] match: detail`. */
export class BrokenPromises extends Error {
  constructor(readonly broken: string[]) {
    super(`${broken.length} broken promise(s):\n${broken.join('\n')}`);
    this.name = 'BrokenPromises';
  }
}

interface AskedLanguage { header: string | null; lang: string }
const ASKED_LANGUAGES: AskedLanguage[] = [
  { header: null, lang: 'en' },
  { header: 'fi-FI,fi;q=0.9,en;q=0.5', lang: 'fi' },
  { header: 'nb-NO', lang: 'nb' },
  { header: 'sv', lang: 'sv' },
  { header: 'de-DE,de;q=0.9', lang: 'en' },
];

const titles = new Map<string, Map<string, string>>();
/** A problem code's title in `lang`, read from the catalog the service ships (apps/api/src/web/pages/assets/locales). */
function problemTitle(lang: string, code: string): string | undefined {
  if (!titles.has(lang)) {
    const text = readFileSync(join(__dirname, '..', '..', 'apps', 'api', 'src', 'web', 'pages', 'assets', 'locales', lang, 'problems.ftl'), 'utf8');
    titles.set(lang, new Map([...text.matchAll(/^problem-([a-z-]+) = (.+)$/gm)].map(([, id, title]) => [id.toUpperCase().replace(/-/g, '_'), title])));
  }
  return titles.get(lang)!.get(code);
}

/** Messages kept per promise and match: a broken promise tends to break at every step after. */
const MESSAGES_PER_PROMISE = 3;

class Journey {
  readonly broken: string[] = [];
  private readonly matches: LiveMatch[] = [];
  private requests = 0;
  /** Steps played so far, forks' included (restarts and the second instance are planned by step). */
  private steps = 0;
  /** How often each promise broke, per match: the messages beyond the first few are only counted. */
  private readonly times = new Map<string, number>();
  /** The journey's registered players, one per seat number, made when first needed. */
  private readonly accounts: (Account | undefined)[] = [undefined, undefined, undefined];

  /** The language this journey's person asks for (Accept-Language), the same on every request so that retries compare word for word. */
  private readonly language: AskedLanguage;

  constructor(
    private readonly lab: Lab,
    private readonly plan: JourneyPlan,
    private readonly counts: JourneyCounts,
  ) {
    this.language = ASKED_LANGUAGES[plan.pickSeed % ASKED_LANGUAGES.length];
  }

  private fail(promise: string, m: LiveMatch | null, detail: string): void {
    const where = m ? `match #${m.index} ${m.id}` : 'journey';
    const key = `[${promise}] ${where}`;
    const times = (this.times.get(key) ?? 0) + 1;
    this.times.set(key, times);
    if (times <= MESSAGES_PER_PROMISE) this.broken.push(`${key}: ${detail}`);
  }

  /** One line for the messages left out. */
  private countLeftOut(): void {
    for (const [key, times] of this.times) if (times > MESSAGES_PER_PROMISE) this.broken.push(`${key}: and ${times - MESSAGES_PER_PROMISE} more like these`);
  }

  /** Every other request goes to the second instance while it is up. */
  private http(): Http {
    const second = this.lab.second;
    return second && this.requests++ % 2 === 1 ? second.http : this.lab.primary.http;
  }

  /** Sends a request for a match (through `via`, else the next instance) and keeps what `viewer` received, with the moment it was received. */
  private async call(m: LiveMatch, viewer: Viewer, what: string, build: (http: Http) => Test, via?: Http): Promise<Answer> {
    const req = build(via ?? this.http());
    const res = await (this.language.header ? req.set('Accept-Language', this.language.header) : req);
    const version = await this.lab.logLength(m.id);
    this.checkLanguage(m, what, res);
    // The moment a body shows is its own version when it names one: a bot seat may have moved since.
    const own = res.body?.version;
    m.seen.push({ viewer, version: Number.isInteger(own) && own <= version ? own : version, what, text: res.text });
    return { status: res.status, body: res.body, text: res.text, version };
  }

  /** A refusal speaks the asked language: the catalog's title for its code, and says so in Content-Language. */
  private checkLanguage(m: LiveMatch, what: string, res: { headers: Record<string, string>; body: any; status: number }): void {
    if (!/application\/problem\+json/.test(res.headers['content-type'] ?? '')) return;
    const lang = this.language.lang;
    const title = problemTitle(lang, String(res.body?.code));
    if (res.headers['content-language'] !== lang || res.body?.title !== title) {
      this.fail('language', m, `${what} asked ${JSON.stringify(this.language.header)}: ${res.status} ${res.body?.code} in ${res.headers['content-language']} titled ${JSON.stringify(res.body?.title)}, not ${lang} ${JSON.stringify(title)}`);
    }
  }

  private get(m: LiveMatch, viewer: Viewer, path: string, via?: Http): Promise<Answer> {
    const token = viewer === 'spectator' ? undefined : m.tokens[viewer];
    if (viewer !== 'spectator' && token === undefined) return this.get(m, 'spectator', path.endsWith('/view') ? path.slice(0, -5) : path, via);
    const build = (http: Http) => {
      const req = http().get(path);
      return token ? req.set('Authorization', `Bearer ${token}`) : req;
    };
    return this.call(m, viewer, `GET ${path}`, build, via);
  }

  private command(m: LiveMatch, seat: Seat, action: Action, headers: Record<string, string> = {}): Promise<Answer> {
    return this.call(m, seat, `POST ${action.path} ${JSON.stringify(headers)}`, (http) => {
      let req = http().post(`/api/matches/${m.id}/${action.path}`).set('Authorization', `Bearer ${m.tokens[seat]}`);
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      return action.body ? req.send(action.body) : req;
    });
  }

  /** The journey's player of seat `seat`, registered on first use. */
  private async account(seat: Seat): Promise<Account | null> {
    const known = this.accounts[seat];
    if (known) return known;
    const name = PLAYER_NAMES[seat];
    const res = await this.http()().post('/api/players').send({ name });
    if (res.status !== 201 || !/^bskp_/.test(res.body?.token ?? '')) {
      this.fail('players', null, `registering ${name} answered ${res.status} ${short(res.body)}`);
      return null;
    }
    return (this.accounts[seat] = { id: res.body.id, name, token: res.body.token, tokenId: res.body.tokenId });
  }

  async run(): Promise<void> {
    try {
      for (const [index, plan] of this.plan.matches.entries()) await this.create(index, plan);
      await this.play();
      for (const fork of this.plan.forks ?? []) await this.fork(fork);
      await this.play();
      // A second instance still up when play ends serves its share of the checks' reads too.
      for (const m of this.matches) await this.checkMatch(m);
      await this.checkPlayers();
    } finally {
      for (const m of this.matches) for (const w of m.watchers) await w.stop();
      if (this.lab.second) await this.lab.stopSecond();
    }
    await this.checkRebuild();
    this.countLeftOut();
  }

  // ---- creating and joining ----

  private async create(index: number, plan: MatchPlan): Promise<void> {
    // One account per request: the first named person seat the plan binds is bound to its player, the caller.
    const creator = SEATS.find((s) => plan.bound[s] && !plan.open[s] && !plan.bots[s]);
    const owner = creator === undefined ? null : await this.account(creator);
    const players = SEATS.map((s) => (plan.open[s] ? null : plan.bots[s] ? { bot: plan.bots[s] } : s === creator && owner ? { player: owner.id } : CREATOR_NAMES[s]));
    const options = plan.clock === null ? plan.options : { ...plan.options, clock: { turnSeconds: plan.clock } };
    const body: Record<string, unknown> = { players, options, ...(plan.seed === null ? {} : { seed: plan.seed }) };
    const lobby = plan.open.some(Boolean);
    const strangersAtASeededTable = lobby && plan.seed !== null;
    const matchesBefore = strangersAtASeededTable ? await this.streamCount() : 0;
    const http = this.http();
    const res = owner ? await http().post('/api/matches').set('Authorization', `Bearer ${owner.token}`).send(body) : await http().post('/api/matches').send(body);
    if (strangersAtASeededTable) {
      // Its creator could compute a stranger's hand: refused, and nothing appended.
      this.counts.seededLobbies++;
      const appended = (await this.streamCount()) - matchesBefore;
      if (res.status !== 400 || res.body?.code !== 'SEED_WITH_OPEN_SEATS' || appended !== 0) {
        this.broken.push(`[seedWithOpenSeats] match #${index}: ${JSON.stringify(body)} answered ${res.status} ${short(res.body, 200)} and appended ${appended} match(es), not 400 SEED_WITH_OPEN_SEATS and nothing`);
      }
      if (res.status !== 201) return;
    } else if (res.status !== 201) {
      this.broken.push(`[create] match #${index}: ${JSON.stringify(body)} answered ${res.status} ${short(res.body)}`);
      return;
    }
    const m: LiveMatch = {
      index,
      plan,
      id: res.body.id,
      tokens: [undefined, undefined, undefined],
      bots: plan.bots.slice(),
      actions: 0,
      deals: 0,
      leadsTriedUpTo: -1,
      done: false,
      seen: [],
      pins: new Map(),
      pick: seededPick(this.plan.pickSeed + index * 7919),
      watchers: [],
      absentAgain: null,
      returnByMove: new Set(),
      boundTo: [null, null, null],
    };
    for (const s of res.body.seats as { seat: Seat; token?: string }[]) m.tokens[s.seat] = s.token;
    if (creator !== undefined && owner) {
      // The bound seat has its own seat token too; here it acts with the player's token only.
      if (res.body.seats.find((s: { seat: Seat; name: string }) => s.seat === creator)?.name !== owner.name) this.fail('players', m, `the seat bound at creation is not named after its player: ${short(res.body.seats)}`);
      m.tokens[creator] = owner.token;
      m.boundTo[creator] = owner.id;
      this.counts.boundSeats++;
    }
    const botTokens = SEATS.filter((s) => plan.bots[s] && !plan.open[s] && m.tokens[s] !== undefined);
    if (botTokens.length) this.fail('bots', m, `the creation answered a token for bot seat(s) ${botTokens.join(', ')}`);
    this.matches.push(m);
    this.counts.matches++;
    this.counts.botSeats += plan.bots.filter(Boolean).length;
    if (plan.clock !== null) this.counts.clockedMatches++;
    m.watchers.push(new Watcher(this.lab, m, 'spectator'));
    if (lobby) {
      this.counts.lobbies++;
      await this.join(m);
    }
    if (m.tokens[0] !== undefined) m.watchers.push(new Watcher(this.lab, m, 0));
  }

  private async join(m: LiveMatch): Promise<void> {
    const order = m.plan.joinOrder.filter((s) => m.plan.open[s]);
    for (const [i, seat] of order.entries()) {
      if (i === order.length - 1 && m.plan.commandWhileWaiting) await this.commandBeforeStart(m);
      const bot = m.plan.bots[seat];
      const player = !bot && m.plan.bound[seat] ? await this.account(seat) : null;
      const res = bot
        ? await this.call(m, 'spectator', `bot ${seat}`, (http) => http().post(`/api/matches/${m.id}/seats/${seat}/bot`).send({ bot }))
        : player
          ? await this.call(m, seat, `join ${seat} as a player`, (http) => http().post(`/api/matches/${m.id}/seats/${seat}/join`).set('Authorization', `Bearer ${player.token}`).send({}))
          : await this.call(m, seat, `join ${seat}`, (http) => http().post(`/api/matches/${m.id}/seats/${seat}/join`).send({ name: JOINER_NAMES[seat] }));
      const last = i === order.length - 1;
      if (res.status !== 201 || res.body.status !== (last ? 'playing' : 'waiting') || (bot && (res.body.bot !== bot || 'token' in res.body))) {
        this.fail('join', m, `${bot ? `giving seat ${seat} to a ${bot} bot` : `joining seat ${seat}`} answered ${res.status} ${short(res.body)} (expected 201, ${last ? 'playing' : 'waiting'})`);
        m.done = true;
        return;
      }
      if (!bot) m.tokens[seat] = res.body.token;
      if (player) {
        if (res.body.name !== player.name) this.fail('players', m, `seat ${seat} joined with a player token is named ${JSON.stringify(res.body.name)}, not ${JSON.stringify(player.name)}`);
        m.tokens[seat] = player.token;
        m.boundTo[seat] = player.id;
        this.counts.boundSeats++;
      }
    }
    if (m.plan.joinTakenSeat) {
      const seat = order[0];
      // (Bot seats may be moving meanwhile: what a join would append is a SeatJoined.)
      const joins = async () => (await this.lab.trueLog(m.id)).filter((e) => e.type === 'SeatJoined').length;
      const before = await joins();
      const res = await this.call(m, 'spectator', 'join taken', (http) => http().post(`/api/matches/${m.id}/seats/${seat}/join`).send({ name: 'Eve' }));
      if (res.status !== 409 || res.body.code !== 'SEAT_TAKEN') this.fail('join', m, `joining taken seat ${seat} answered ${res.status} ${short(res.body)}`);
      const after = await joins();
      if (after !== before) this.fail('join', m, `a refused join appended ${after - before} SeatJoined event(s)`);
    }
  }

  private async commandBeforeStart(m: LiveMatch): Promise<void> {
    const seat = SEATS.find((s) => m.tokens[s] !== undefined);
    if (seat === undefined) return;
    const res = await this.command(m, seat, { path: 'deal' });
    if (res.status !== 409 || res.body.code !== 'MATCH_NOT_STARTED') this.fail('lobby', m, `a deal before the table was full answered ${res.status} ${short(res.body)}`);
  }

  private streamCount(): Promise<number> {
    return this.lab.pool.query('SELECT count(DISTINCT stream_id)::int AS n FROM events').then((rows: { n: number }[]) => rows[0].n);
  }

  // ---- forking ----

  /**
   * Forks a finished match where the plan says; the fork joins the journey's matches. At its start
   * it shows what the original showed at that version (the replay), to a spectator and to each seat.
   */
  private async fork(plan: JourneyPlan['forks'][number]): Promise<void> {
    const original = this.matches.find((m) => m.index === plan.match % this.plan.matches.length);
    if (!original || original.index >= this.plan.matches.length) return;
    const state = (await this.get(original, 'spectator', `/api/matches/${original.id}`)).body;
    if (state?.status !== 'finished') return;
    let version = Math.round((plan.at / 1000) * state.version);
    let res = await this.http()().post(`/api/matches/${original.id}/fork?version=${version}`);
    if (res.status === 422 && res.body.code === 'VERSION_NOT_FORKABLE') {
      const nearest = res.body.nearestForkable?.before;
      if (!Number.isInteger(nearest) || nearest > version) return this.fail('fork', original, `a fork inside a move at ${version} named ${short(res.body.nearestForkable)} as the version before`);
      version = nearest;
      res = await this.http()().post(`/api/matches/${original.id}/fork?version=${version}`);
    }
    if (res.status !== 201) return this.fail('fork', original, `a fork at version ${version} of ${state.version} answered ${res.status} ${short(res.body)}`);
    this.counts.forks++;
    if (original.plan.clock !== null) this.counts.clockedMatches++;
    const bots: (Bot | null)[] = [null, null, null];
    for (const b of (res.body.bots ?? []) as { seat: Seat; bot: Bot }[]) bots[b.seat] = b.bot;
    const m: LiveMatch = {
      index: this.matches.length,
      // A fork keeps the original's options, its clock too: then it plays to the end, as any clocked match.
      // A fork is a sandbox with fresh seat tokens: none of its seats is bound to a player.
      plan: { ...original.plan, open: [false, false, false], bots: bots as MatchPlan['bots'], finish: plan.finish || original.plan.clock !== null, stopAfter: plan.stopAfter, cuts: [], commandWhileWaiting: false, joinTakenSeat: false, bound: [false, false, false] },
      id: res.body.id,
      tokens: [undefined, undefined, undefined],
      bots,
      actions: 0,
      deals: 0,
      leadsTriedUpTo: -1,
      done: res.body.status === 'finished',
      seen: [],
      pins: new Map(),
      pick: seededPick(this.plan.pickSeed + this.matches.length * 7919),
      watchers: [],
      absentAgain: null,
      returnByMove: new Set(),
      boundTo: [null, null, null],
    };
    for (const s of res.body.seats as { seat: Seat; token: string }[]) m.tokens[s.seat] = s.token;
    const reused = SEATS.filter((s) => m.tokens[s] !== undefined && m.tokens[s] === original.tokens[s]);
    if (reused.length) this.fail('fork', m, `the fork answered the original's token for seat(s) ${reused.join(', ')}`);
    this.matches.push(m);
    this.counts.matches++;
    m.watchers.push(new Watcher(this.lab, m, 'spectator'));
    if (m.tokens[0] !== undefined) m.watchers.push(new Watcher(this.lab, m, 0));
    // A fork's bots may be moving already: its start is compared where nothing can move but the journey.
    if (!bots.some(Boolean)) await this.checkForkStart(m, original, version);
  }

  /** The fork's state and each seat's view equal the original's replay at the version forked (ids, versions and commitments aside). */
  private async checkForkStart(fork: LiveMatch, original: LiveMatch, version: number): Promise<void> {
    // (A fork starts with everyone at the table and its own clock: `away` and `clock` are checked apart; a replay is
    // history, so it has no `connected`.
    // A fork is a sandbox with fresh tokens: its seats are bound to no player, so seats' `player` is checked apart too.)
    const comparable = (view: any) => {
      const { id: _id, version: _v, checkpoint: _c, seeded: _s, forkedFrom: _f, away: _a, clock: _k, connected: _n, ...rest } = view ?? {};
      const seats = Array.isArray(rest.seats) ? rest.seats.map(({ player: _p, ...seat }: any) => seat) : rest.seats;
      return JSON.stringify(sortKeys({ ...rest, seats, fairness: { ...rest.fairness, commitment: null } }));
    };
    const at = Math.max(1, version);
    const pairs: [Viewer, string, string][] = [['spectator', `/api/matches/${fork.id}`, `/api/matches/${original.id}/replay?version=${at}`]];
    for (const seat of SEATS) if (fork.tokens[seat] !== undefined && original.tokens[seat] !== undefined) pairs.push([seat, `/api/matches/${fork.id}/view`, `/api/matches/${original.id}/replay?version=${at}`]);
    for (const [viewer, mine, theirs] of pairs) {
      const a = (await this.get(fork, viewer, mine)).body;
      if (a?.forkedFrom?.matchId !== original.id || a?.forkedFrom?.version !== version) this.fail('fork', fork, `${viewer} sees forkedFrom ${short(a?.forkedFrom, 120)}, not ${original.id} at ${version}`);
      if (JSON.stringify(a?.away) !== '[false,false,false]') this.fail('fork', fork, `${viewer} sees the fork start with away ${JSON.stringify(a?.away)}`);
      // (The original's replay is finished history: nothing of it is secret, so it is not leak-checked against the fork.)
      const token = viewer === 'spectator' ? undefined : original.tokens[viewer];
      const b = (await (token ? this.http()().get(theirs).set('Authorization', `Bearer ${token}`) : this.http()().get(theirs))).body?.view;
      if (version > 0 && comparable(a) !== comparable(b)) {
        const [x, y] = [JSON.parse(comparable(a)), JSON.parse(comparable(b))];
        const differ = [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]));
        this.fail('fork', fork, `${viewer} sees the fork at its start unlike the original at version ${version}, in ${differ.map((k) => `${k}: ${short(x[k], 200)} against ${short(y[k], 200)}`).join('; ')}`);
      }
      if (a?.seats?.some((seat: { player?: string }) => seat.player !== undefined)) this.fail('fork', fork, `${viewer} sees a fork seat bound to a player: ${short(a.seats, 200)}`);
    }
  }

  // ---- playing ----

  private async play(): Promise<void> {
    const order = seededPick(this.plan.pickSeed ^ 0x5bd1e995 ^ this.steps);
    for (; this.steps < MAX_STEPS; this.steps++) {
      const active = this.matches.filter((m) => !m.done);
      if (active.length === 0) return;
      await this.instancesAt(this.steps);
      await this.step(order(active));
    }
    this.fail('journey', null, `still playing after ${MAX_STEPS} steps`);
  }

  private async instancesAt(step: number): Promise<void> {
    if (this.plan.restartAt === step) {
      await this.lab.restart();
      this.counts.restarts++;
    }
    const second = this.plan.secondInstance;
    if (second?.from === step) {
      await this.lab.startSecond();
      this.counts.secondInstances++;
    }
    if (second && step === second.from + second.steps) await this.lab.stopSecond();
  }

  /** The twists planned at this action; a lead before the lay-away waits for the next discard. */
  private twistsNow(m: LiveMatch, discardNext: boolean): Twist[] {
    const mine = this.plan.twists.filter((t) => t.match % this.plan.matches.length === m.index);
    const now = mine.filter((t) => t.action === m.actions && t.twist.kind !== 'leadBeforeDiscard').map((t) => t.twist);
    const lead = discardNext && mine.some((t) => t.twist.kind === 'leadBeforeDiscard' && t.action <= m.actions && t.action > m.leadsTriedUpTo);
    if (lead) m.leadsTriedUpTo = m.actions;
    return lead ? [...now, { kind: 'leadBeforeDiscard' }] : now;
  }

  /** One action of one match: whoever is to act does one of its legal things, with the twists planned here. */
  private async step(m: LiveMatch): Promise<void> {
    // A bot seat's turn (or its cut), or a stand-in's: the service moves, the journey waits. Past this,
    // the match waits for a person, so what the state shows holds until the journey acts (or, with a
    // clock, until the person's time runs out: a stand-in's move may meet the journey's as a lost race).
    const bot = await this.botToMove(m);
    if (bot) return this.awaitBot(m, bot);
    let state = await this.get(m, 'spectator', `/api/matches/${m.id}`);
    if (state.status !== 200) return this.stuck(m, 'state', `the public state answered ${state.status} ${short(state.body)}`);
    this.pin(m, state.body);
    if (state.body.status === 'finished') {
      m.done = true;
      return;
    }
    if (!m.plan.finish && m.actions >= m.plan.stopAfter) {
      m.done = true;
      return;
    }
    if (this.lab.second) await this.readsThatFold(m, state.body.version);
    let next = await this.nextAction(m, state.body);
    if (!next) return;
    const twists = this.twistsNow(m, next.action.path === 'discard');
    let returned = false;
    for (const twist of twists) {
      if (twist.kind === 'peek') await this.peek(m, twist.viewer, twist.what, twist.back);
      if (twist.kind === 'outOfTurn' && twist.seat !== next.seat) await this.outOfTurn(m, twist.seat);
      if (twist.kind === 'back') returned = (await this.back(m, twist.via, state.body)) || returned;
    }
    if (returned) {
      // SeatReturned started the turn's clock again and moved the version on: look again.
      state = await this.get(m, 'spectator', `/api/matches/${m.id}`);
      next = state.status === 200 ? await this.nextAction(m, state.body) : null;
      if (!next) return;
    }
    const absent = twists.find((t) => t.kind === 'absent');
    if (m.plan.clock !== null && (absent || m.absentAgain === state.body.turn)) {
      return this.absent(m, state.body, next, absent ?? { kind: 'absent', times: 1, late: false });
    }
    if (twists.some((t) => t.kind === 'leadBeforeDiscard')) {
      if (await this.leadBeforeDiscard(m, next.seat, next.hand)) return;
    }
    await this.act(m, next.seat, next.action, next.version, twists);
  }

  /**
   * The bot seat the service moves next at `version` (default: the log's length), from the true log
   * and the rules, as the service's BotRunner picks it: a bot on the dealer's right cuts first. Null
   * when the match waits for a person (or is over).
   */
  private async botToMove(m: LiveMatch, version?: number): Promise<ServiceTurn | null> {
    if (!m.bots.some(Boolean) && m.plan.clock === null) return null;
    const log = await this.lab.trueLog(m.id);
    const upTo = Math.min(version ?? log.length, log.length);
    let state = initialState();
    for (const e of log.slice(0, upTo)) state = evolve(state, { type: e.type, data: e.data } as BismarckEvent);
    let acting: Seat | null = null;
    for (const seat of SEATS) {
      if (!m.bots[seat]) continue;
      const legal = legalActions(state, seat);
      if (legal?.action === 'cut') return { seat, version: upTo, standIn: false };
      if (legal) acting = seat;
    }
    if (acting !== null) return { seat: acting, version: upTo, standIn: false };
    // A person's turn the stand-in takes: it timed out, or it is away.
    const standIn = standInDue(state);
    return standIn === null ? null : { seat: standIn, version: upTo, standIn: true };
  }

  /**
   * The service makes the bot's (or stand-in's) move: the log grows past the version the turn came at.
   * An away seat that is to come back with a move of its own races the stand-in for its turn.
   */
  private async awaitBot(m: LiveMatch, bot: ServiceTurn): Promise<void> {
    if (bot.standIn && m.returnByMove.has(bot.seat)) await this.raceStandIn(m, bot.seat, bot.version);
    const until = Date.now() + BOT_WAIT_MS;
    while (Date.now() < until) {
      if ((await this.lab.logLength(m.id)) > bot.version) {
        if (!bot.standIn) this.counts.botMoves++;
        return;
      }
      await pause(10);
    }
    const who = bot.standIn ? `the stand-in of seat ${bot.seat}` : `bot seat ${bot.seat} (${m.bots[bot.seat]})`;
    this.stuck(m, bot.standIn ? 'standIn' : 'bots', `${who} did not move within ${BOT_WAIT_MS} ms of its turn at version ${bot.version}`);
  }

  /**
   * An away seat sends its own move for the turn its stand-in is about to play, with If-Match of the
   * version the turn came at: either it is first (its answer starts with SeatReturned) or it meets 412.
   */
  private async raceStandIn(m: LiveMatch, seat: Seat, version: number): Promise<void> {
    const view = await this.get(m, seat, `/api/matches/${m.id}/view`);
    if (view.status !== 200 || !view.body.legal || view.body.version !== version) return; // the stand-in was quicker still
    const action = this.choose(m, view.body.legal, view.body.hand);
    const res = await this.command(m, seat, action, { 'If-Match': `"${version}"` });
    if (res.status === 412) {
      this.counts.lostRaces++;
      return;
    }
    if (res.status !== 200 || res.body.events?.[0]?.type !== 'SeatReturned' || res.body.events[0].data?.seat !== seat) {
      return this.fail('back', m, `away seat ${seat}'s own ${action.path} racing its stand-in at version ${version} answered ${res.status} ${short(res.body)}, not SeatReturned first (or 412)`);
    }
    await this.checkAnswer(m, res, version, `seat ${seat}'s own ${action.path} while away`);
    m.returnByMove.delete(seat);
    this.counts.returnsByMove++;
    this.counts.actions++;
  }

  /**
   * The person to act does not act: TurnTimedOut at its deadline, then the stand-in's move (checked
   * in full with the log at the end, checkClock). `late`: its move goes out the moment the timeout is
   * in, racing the stand-in. The second absence of a seat in a row makes it away.
   */
  private async absent(m: LiveMatch, state: any, next: { seat: Seat; action: Action }, twist: Extract<Twist, { kind: 'absent' }>): Promise<void> {
    const seat = state.turn as Seat;
    const again = m.absentAgain === seat;
    m.absentAgain = null;
    m.actions++;
    const clock = state.clock;
    // Timed out already, between the journey's look at the log and at the state: the stand-in plays that turn.
    if (clock === null && (await this.botToMove(m, state.version))?.standIn) {
      this.counts.lostRaces++;
      return;
    }
    if (clock?.seat !== seat || clock.turnSeconds !== m.plan.clock || Number.isNaN(Date.parse(clock.deadline))) {
      return this.fail('clock', m, `the state at version ${state.version} (seat ${seat} to act, phase ${state.phase}) shows the clock ${short(clock)}`);
    }
    this.counts.absences++;
    const v = state.version as number;
    const until = Date.parse(clock.deadline) + ABSENCE_GRACE_MS;
    const grown = async (n: number, every: number): Promise<boolean> => {
      while (Date.now() < until) {
        if ((await this.lab.logLength(m.id)) > n) return true;
        await pause(every);
      }
      return false;
    };
    if (!(await grown(v, twist.late ? 1 : 20))) {
      return this.stuck(m, 'clock', `seat ${seat}'s turn at version ${v} (deadline ${clock.deadline}) did not time out within ${ABSENCE_GRACE_MS} ms of its deadline`);
    }
    if (twist.late && next.seat === seat) {
      // The moment the timeout is in: the person's move, as it had chosen it (no If-Match, as a hurried client).
      const res = await this.command(m, seat, next.action);
      // Accepted right after the timeout it would be a second decision for that turn (checkClock says so);
      // after the stand-in's move it can be the seat's next turn (it won the trick and leads).
      if (res.status === 200 && res.body.version - res.body.events.length === v + 1) this.counts.lateMovesAccepted++;
      else if (res.status === 200) this.counts.actions++;
      else if (res.status === 409 || res.status === 412) this.counts.lateMovesRefused++;
      else this.fail('clock', m, `seat ${seat}'s move the moment it timed out answered ${res.status} ${short(res.body)}`);
    }
    if (!(await grown(v + 1, 20))) return this.stuck(m, 'standIn', `no move after seat ${seat} timed out at version ${v + 1}, ${ABSENCE_GRACE_MS} ms after its deadline ${clock.deadline}`);
    const timedOut = (await this.lab.trueLog(m.id))[v];
    if (timedOut.type !== 'TurnTimedOut' || timedOut.data.seat !== seat) {
      return this.fail('clock', m, `seat ${seat} to act at version ${v} did not act; the log's next event is ${timedOut.type} ${short(timedOut.data, 120)}, not its TurnTimedOut`);
    }
    if (twist.times === 2) m.absentAgain = seat;
    if (!again) return;
    const now = await this.get(m, 'spectator', `/api/matches/${m.id}`);
    if (now.body?.away?.[seat] !== true) this.fail('away', m, `seat ${seat} timed out twice in a row (the second at version ${v + 1}); the state at version ${now.body?.version} shows away ${JSON.stringify(now.body?.away)}`);
    else this.counts.aways++;
  }

  /**
   * Away seats come back: with POST …/back (200, SeatReturned; again: 409 SEAT_NOT_AWAY), or they
   * will with a move of their own. Nobody away: a seat's POST …/back is refused and appends nothing.
   * Answers whether it appended anything.
   */
  private async back(m: LiveMatch, via: 'post' | 'move', state: any): Promise<boolean> {
    const away = SEATS.filter((s) => state.away?.[s] === true && m.tokens[s] !== undefined);
    if (away.length === 0) {
      const seat = SEATS.find((s) => m.tokens[s] !== undefined);
      if (via === 'post' && seat !== undefined) await this.notAway(m, seat);
      return false;
    }
    if (via === 'move') {
      for (const seat of away) m.returnByMove.add(seat);
      return false;
    }
    for (const seat of away) {
      const before = await this.lab.logLength(m.id);
      const res = await this.postBack(m, seat);
      if (res.status !== 200 || JSON.stringify(res.body.events?.map((e: { type: string; data: unknown }) => [e.type, e.data])) !== JSON.stringify([['SeatReturned', { seat }]])) {
        this.fail('back', m, `away seat ${seat}'s POST …/back at version ${before} answered ${res.status} ${short(res.body)}, not 200 with SeatReturned`);
        continue;
      }
      await this.checkAnswer(m, res, before, `seat ${seat} back`);
      m.returnByMove.delete(seat);
      this.counts.returnsByPost++;
      await this.notAway(m, seat);
    }
    return true;
  }

  private postBack(m: LiveMatch, seat: Seat): Promise<Answer> {
    return this.call(m, seat, `POST seats/${seat}/back`, (http) => http().post(`/api/matches/${m.id}/seats/${seat}/back`).set('Authorization', `Bearer ${m.tokens[seat]}`));
  }

  /** A seat that is not away says it is back: 409 SEAT_NOT_AWAY, nothing appended. */
  private async notAway(m: LiveMatch, seat: Seat): Promise<void> {
    const before = await this.lab.logLength(m.id);
    const res = await this.postBack(m, seat);
    if (res.status !== 409 || res.body.code !== 'SEAT_NOT_AWAY') this.fail('back', m, `seat ${seat}, not away, said it is back at version ${before}: ${res.status} ${short(res.body)}`);
    else this.counts.notAwayRefused++;
    if (await this.appendedByPerson(m, before, res.version)) this.fail('back', m, `a refused POST …/back appended ${res.version - before} event(s)`);
  }

  /**
   * Whether the log grew from `from` to `to` with anything but the turn clock's events (TurnTimedOut,
   * a stand-in's move): those the service may append at any moment in a clocked match.
   */
  private async appendedByPerson(m: LiveMatch, from: number, to: number): Promise<boolean> {
    if (to === from) return false;
    if (m.plan.clock === null || to < from) return true;
    return !(await this.lab.trueLog(m.id)).slice(from, to).every(isClockEvent);
  }

  /** Whether a stand-in moved (or a turn timed out) in the log after `version`: a person's command sent on a view of it lost a race. */
  private async standInSince(m: LiveMatch, version: number): Promise<boolean> {
    return m.plan.clock !== null && (await this.lab.trueLog(m.id)).slice(version).some(isClockEvent);
  }

  private stuck(m: LiveMatch, promise: string, detail: string): void {
    this.fail(promise, m, detail);
    m.done = true;
  }

  /** The cut when the plan wants one and the cutter may, else the legal action of the seat to act. */
  private async nextAction(m: LiveMatch, state: any): Promise<{ seat: Seat; action: Action; hand: string[]; version: number } | null> {
    // The stand-in moved since the state was read (a clock ran out): the next step looks again.
    const overtaken = async (view: Answer) => view.body?.version !== state.version && (await this.standInSince(m, state.version));
    const cutter = ((state.dealer + 2) % 3) as Seat;
    // An away cutter that is to come back with a move of its own cuts (the cut has no clock, and the dealer waits for it).
    const returning = m.returnByMove.has(cutter) && state.away?.[cutter] === true;
    if (state.phase === 'deal' && state.fairness?.cut === null && (returning || (m.plan.cuts[m.deals] && m.absentAgain !== cutter))) {
      const view = await this.get(m, cutter, `/api/matches/${m.id}/view`);
      if (view.status === 200 && view.body.legal?.action === 'cut') {
        return { seat: cutter, action: { path: 'cut', body: { cut: `cut-${m.index}-${m.deals}-${m.pick([1, 2, 3])}` }, returning }, hand: view.body.hand, version: view.body.version };
      }
      if (await overtaken(view)) return null;
      this.fail('cut', m, `the cutter (seat ${cutter}) may not cut before deal ${m.deals + 1}: ${view.status} legal ${short(view.body?.legal)}`);
    }
    const seat = state.turn as Seat;
    const view = await this.get(m, seat, `/api/matches/${m.id}/view`);
    if (view.status !== 200) return this.stuckNull(m, 'view', `seat ${seat}'s view answered ${view.status} ${short(view.body)}`);
    if (!view.body.legal && (await overtaken(view))) return null;
    if (!view.body.legal) return this.stuckNull(m, 'legal', `seat ${seat} has the turn (phase ${state.phase}) but no legal action`);
    return { seat, action: this.choose(m, view.body.legal, view.body.hand), hand: view.body.hand, version: view.body.version };
  }

  private stuckNull(m: LiveMatch, promise: string, detail: string): null {
    this.stuck(m, promise, detail);
    return null;
  }

  /** One of the legal actions, as a client would pick it. */
  private choose(m: LiveMatch, legal: any, hand: string[]): Action {
    switch (legal.action) {
      case 'deal':
        return { path: 'deal' };
      case 'chooseContract': {
        const contract = m.pick(legal.contracts);
        return { path: 'contract', body: contract === 'trump' ? { contract, trump: m.pick(legal.trumps) } : { contract } };
      }
      case 'discard': {
        const left = hand.slice();
        const away = Array.from({ length: legal.count as number }, () => left.splice(left.indexOf(m.pick(left)), 1)[0]);
        return { path: 'discard', body: { cards: away } };
      }
      case 'play':
        return { path: 'play', body: { card: m.pick(legal.cards) } };
      default:
        throw new Error(`unknown legal action ${JSON.stringify(legal)}`);
    }
  }

  /** Sends the chosen action, then the planned resends; every resend must append nothing. */
  private async act(m: LiveMatch, seat: Seat, action: Action, viewVersion: number, twists: Twist[]): Promise<void> {
    const kinds = new Set(twists.map((t) => t.kind));
    const headers: Record<string, string> = {};
    if (kinds.has('sameKey')) headers['Idempotency-Key'] = `journey-${m.id.slice(0, 8)}-${m.actions}`;
    if (kinds.has('freshIfMatch')) headers['If-Match'] = `"${viewVersion}"`;
    const before = await this.lab.logLength(m.id);
    const answer = await this.command(m, seat, action, headers);
    if (answer.status !== 200 && (answer.status === 409 || answer.status === 412) && (await this.standInSince(m, viewVersion))) {
      this.counts.lostRaces++; // a stand-in moved first: the next step looks again
      return;
    }
    if (answer.status !== 200) return this.stuck(m, 'legal', `seat ${seat}'s legal ${action.path} ${short(action.body ?? {})} ${JSON.stringify(headers)} answered ${answer.status} ${short(answer.body)}`);
    const botsMove = await this.checkAnswer(m, answer, before, `${action.path} by seat ${seat}`);
    // An away seat's own move brings it back: its answer starts with SeatReturned (planned, or an absence the journey did not plan).
    const returned = answer.body.events?.[0]?.type === 'SeatReturned';
    if (returned && answer.body.events[0].data?.seat === seat) {
      m.returnByMove.delete(seat);
      this.counts.returnsByMove++;
    }
    if (action.returning && !returned) this.fail('back', m, `away seat ${seat}'s own ${action.path} answered ${short(answer.body?.events?.map((e: { type: string }) => e.type))}, not SeatReturned first`);
    m.actions++;
    this.counts.actions++;
    if (action.path === 'deal') m.deals++;
    if (action.path === 'cut') this.counts.cuts++;
    // Once a bot seat may move, the log can grow under a resend: its answer is checked, not the log's length.
    if (kinds.has('sameKey')) await this.resendSameKey(m, seat, action, headers, answer, botsMove);
    if (kinds.has('plainResend')) await this.resendPlain(m, seat, action, botsMove);
    if (kinds.has('staleIfMatch')) await this.resendStale(m, seat, action, before, botsMove);
  }

  /**
   * An accepted answer holds the events it appended, numbered on from the version before; and the
   * log holds nothing more, unless a bot seat may move after it (answered: whether one may).
   */
  private async checkAnswer(m: LiveMatch, answer: Answer, before: number, what: string): Promise<boolean> {
    const versions = (answer.body.events ?? []).map((e: { version: number }) => e.version);
    // A stand-in's move (a clock ran out) may have come in between the journey's look and its command.
    const first = answer.body.version - versions.length;
    if (first > before && !(await this.appendedByPerson(m, before, first))) before = first;
    const expected = versions.map((_: number, i: number) => before + 1 + i);
    const botsMove = (await this.botToMove(m, answer.body.version)) !== null;
    const logAgrees = botsMove ? answer.version >= answer.body.version : answer.version === answer.body.version;
    if (!logAgrees || answer.body.version !== before + versions.length || JSON.stringify(versions) !== JSON.stringify(expected)) {
      this.fail('answer', m, `${what} at version ${before}: answer version ${answer.body.version}, events ${JSON.stringify(versions)}, log now ${answer.version}`);
    }
    return botsMove;
  }

  private async resendSameKey(m: LiveMatch, seat: Seat, action: Action, headers: Record<string, string>, first: Answer, botsMove: boolean): Promise<void> {
    this.counts.sameKeyRetries++;
    const again = await this.command(m, seat, action, headers);
    // Key order aside (the first answer is stored as jsonb): the same answer.
    if (again.status !== 200 || JSON.stringify(sortKeys(again.body)) !== JSON.stringify(sortKeys(first.body))) {
      this.fail('idempotency', m, `${action.path} resent with its key answered ${again.status} ${short(again.body, 300)}, not the first answer ${short(first.body, 300)}`);
    }
    if (!botsMove && (await this.appendedByPerson(m, first.version, again.version))) this.fail('idempotency', m, `${action.path} resent with its key appended ${again.version - first.version} event(s)`);
  }

  private async resendPlain(m: LiveMatch, seat: Seat, action: Action, botsMove: boolean): Promise<void> {
    this.counts.plainResends++;
    const before = await this.lab.logLength(m.id);
    const again = await this.command(m, seat, action);
    if (again.status < 400 || again.status >= 500) this.fail('resend', m, `${action.path} ${short(action.body ?? {})} resent with no key answered ${again.status} ${short(again.body)}`);
    if (!botsMove && (await this.appendedByPerson(m, before, again.version))) this.fail('resend', m, `${action.path} resent with no key appended ${again.version - before} event(s)`);
  }

  private async resendStale(m: LiveMatch, seat: Seat, action: Action, stale: number, botsMove: boolean): Promise<void> {
    this.counts.staleIfMatch++;
    const before = await this.lab.logLength(m.id);
    const again = await this.command(m, seat, action, { 'If-Match': `"${stale}"` });
    if (again.status !== 412) this.fail('ifMatch', m, `${action.path} resent with If-Match "${stale}" at version ${before} answered ${again.status} ${short(again.body)}`);
    if (!botsMove && (await this.appendedByPerson(m, before, again.version))) this.fail('ifMatch', m, `${action.path} with a stale If-Match appended ${again.version - before} event(s)`);
  }

  /** A seat whose turn it is not tries to play (or deal): refused, nothing appended. */
  private async outOfTurn(m: LiveMatch, seat: Seat): Promise<void> {
    if (m.tokens[seat] === undefined) return; // a bot seat: nobody holds its token
    this.counts.outOfTurn++;
    const view = await this.get(m, seat, `/api/matches/${m.id}/view`);
    if (view.body?.legal) return; // it may act now after all (the cutter): not out of turn
    const own: string[] = view.body?.hand ?? [];
    const action: Action = own.length > 0 ? { path: 'play', body: { card: own[0] } } : { path: 'deal' };
    const before = await this.lab.logLength(m.id);
    const res = await this.command(m, seat, action);
    if (res.status < 400 || res.status >= 500) this.fail('outOfTurn', m, `seat ${seat}'s ${action.path} out of turn answered ${res.status} ${short(res.body)}`);
    if (await this.appendedByPerson(m, before, res.version)) this.fail('outOfTurn', m, `seat ${seat}'s ${action.path} out of turn appended ${res.version - before} event(s)`);
  }

  /** Forehand leads before laying away: `reject` refuses it (DISCARD_FIRST), `redeal` voids the deal. True when it was the action. */
  private async leadBeforeDiscard(m: LiveMatch, forehand: Seat, hand: string[]): Promise<boolean> {
    this.counts.leadsBeforeDiscard++;
    const card = m.pick(hand);
    const before = await this.lab.logLength(m.id);
    const res = await this.command(m, forehand, { path: 'play', body: { card } });
    if ((m.plan.options.leadBeforeDiscard ?? 'reject') === 'reject') {
      if (res.status !== 409 || res.body.code !== 'DISCARD_FIRST') this.fail('leadBeforeDiscard', m, `a lead before the lay-away (reject) answered ${res.status} ${short(res.body)}`);
      if (await this.appendedByPerson(m, before, res.version)) this.fail('leadBeforeDiscard', m, `a refused lead before the lay-away appended ${res.version - before} event(s)`);
      return false;
    }
    if (res.status !== 200 || res.body.events?.[0]?.type !== 'DealVoided') {
      this.stuck(m, 'leadBeforeDiscard', `a lead before the lay-away (redeal) answered ${res.status} ${short(res.body)}, not DealVoided`);
      return true;
    }
    await this.checkAnswer(m, res, before, `lead before the lay-away by seat ${forehand}`);
    this.counts.voidedDeals++;
    m.actions++;
    this.counts.actions++;
    return true;
  }

  /**
   * While two instances serve the match (the commands alternate between them), the reads that fold
   * the log must answer for every version it holds through both, whichever one's fold is behind.
   * Both replays come first: an events page may bring an instance's fold up to date.
   */
  private async readsThatFold(m: LiveMatch, version: number): Promise<void> {
    const both = [
      ['first', this.lab.primary.http],
      ['second', this.lab.second!.http],
    ] as const;
    for (const [name, via] of both) {
      const res = await this.get(m, 'spectator', `/api/matches/${m.id}/replay?version=${version}`, via);
      if (res.status !== 200) this.fail('replay', m, `the ${name} instance's replay at version ${version} (the log's) answered ${res.status} ${short(res.body)}`);
    }
    for (const [name, via] of both) {
      const res = await this.get(m, 'spectator', `/api/matches/${m.id}/events?after=${Math.max(0, version - 3)}`, via);
      if (res.status !== 200 || (res.body.version !== version && (await this.appendedByPerson(m, version, res.body.version)))) {
        this.fail('events', m, `the ${name} instance's events after ${Math.max(0, version - 3)} answered ${res.status} version ${res.body?.version}, the log holds ${version}`);
      }
    }
  }

  /** Someone looks at the match; every look at what the log holds must be answered. */
  private async peek(m: LiveMatch, viewer: Viewer, what: Peek, back: number): Promise<void> {
    this.counts.peeks++;
    const base = `/api/matches/${m.id}`;
    const latest = await this.lab.logLength(m.id);
    const path = {
      view: viewer === 'spectator' ? base : `${base}/view`,
      state: base,
      events: `${base}/events?after=${Math.max(0, latest - back * 7)}&limit=1000`,
      replay: `${base}/replay?version=${Math.max(1, latest - back)}`,
      scorecard: `${base}/scorecard`,
      list: '/api/matches?limit=100',
      audit: `${base}/audit`,
      notation: `${base}/notation`,
    }[what];
    const res = await this.get(m, viewer, path);
    if (res.status !== 200) return this.fail('peek', m, `${viewer} GET ${path.replace(base, '…')} at version ${latest} answered ${res.status} ${short(res.body)}`);
    if (what === 'notation') await this.checkNotation(m, m.tokens[viewer as Seat] === undefined ? 'spectator' : viewer, res.text, `at version ${latest}`);
  }

  /**
   * A notation parses back to exactly the events the same caller's events page shows (so it reveals
   * no more than they do). Should the log have grown between the two reads, the notation's events
   * reveal no more than the page's.
   */
  private async checkNotation(m: LiveMatch, viewer: Viewer, text: string, when: string): Promise<void> {
    this.counts.notations++;
    let parsed: { type: string; data: unknown }[];
    try {
      parsed = fromNotation(text);
    } catch (error) {
      return this.fail('notation', m, `${viewer}'s notation ${when} does not parse: ${(error as Error).message}`);
    }
    const page = (await this.eventsSeenBy(m, viewer)).map((e) => ({ type: (e as { type: string }).type, data: (e as { data: unknown }).data }));
    const same = parsed.length === page.length ? JSON.stringify(sortKeys(parsed)) === JSON.stringify(sortKeys(page)) : parsed.length < page.length && parsed.every((e, i) => revealsNoMore(e, page[i]));
    if (!same) {
      const i = parsed.findIndex((e, k) => JSON.stringify(sortKeys(e)) !== JSON.stringify(sortKeys(page[k])));
      this.fail('notation', m, `${viewer}'s notation ${when} reads back as ${parsed.length} events, the events page shows ${page.length}; first difference at ${i + 1}: ${short(parsed[i], 200)} against ${short(page[i], 200)}`);
    }
  }

  /**
   * The analysis of a scored deal (deal 1) follows the cards the log holds for it and its score; the
   * deal in play is refused. Its bodies are not leak-checked like the rest: a scored deal is public.
   */
  private async checkAnalysis(m: LiveMatch, state: any, log: { type: string; data: any }[]): Promise<void> {
    const http = this.http();
    const inPlay = ['contract', 'discard', 'play'].includes(state.phase) && state.status === 'playing';
    if (inPlay) {
      const res = await http().get(`/api/matches/${m.id}/analysis?deal=${state.dealNumber}`);
      if (res.status !== 409 || res.body.code !== 'DEAL_NOT_SCORED') this.fail('analysis', m, `the analysis of deal ${state.dealNumber}, in play, answered ${res.status} ${short(res.body)}`);
    }
    const scored = log.find((e) => e.type === 'DealScored' && e.data.deal === 1);
    if (!scored) return;
    let played: { seat: number; card: string }[] = [];
    for (const e of log) {
      if (e.type === 'DealVoided' && e.data.deal === 1) played = [];
      if (e.type === 'CardPlayed' && e.data.deal === 1) played.push({ seat: e.data.seat, card: e.data.card });
    }
    const until = Date.now() + 30_000;
    let res = await http().get(`/api/matches/${m.id}/analysis?deal=1`);
    while (res.status === 202 && Date.now() < until) {
      await pause(100);
      res = await http().get(`/api/matches/${m.id}/analysis?deal=1`);
    }
    if (res.status !== 200) return this.fail('analysis', m, `the analysis of scored deal 1 answered ${res.status} ${short(res.body)}`);
    this.counts.analyses++;
    const cards = (res.body.cards ?? []).map((c: { seat: number; card: string }) => ({ seat: c.seat, card: c.card }));
    if (JSON.stringify(cards) !== JSON.stringify(played)) this.fail('analysis', m, `deal 1's analysis has the cards ${short(cards, 150)}, the log ${short(played, 150)}`);
    if (JSON.stringify(res.body.actual?.points) !== JSON.stringify(scored.data.points)) this.fail('analysis', m, `deal 1's analysis scores ${JSON.stringify(res.body.actual)}, the log ${JSON.stringify(scored.data.points)}`);
  }

  /** Keeps the state's checkpoint, as a client pinning the chain would (checked in checkPins). */
  private pin(m: LiveMatch, state: any): void {
    const c = state.checkpoint;
    if (!c || !Number.isInteger(c.version) || typeof c.hash !== 'string' || c.version > state.version) {
      return this.fail('pins', m, `state at version ${state.version} has checkpoint ${short(c)}`);
    }
    const kept = m.pins.get(c.version);
    if (kept !== undefined && kept !== c.hash) this.fail('pins', m, `checkpoint ${c.version} was shown with two hashes`);
    m.pins.set(c.version, c.hash);
  }

  // ---- the promises, checked after the journey ----

  private async checkMatch(m: LiveMatch): Promise<void> {
    const state = (await this.get(m, 'spectator', `/api/matches/${m.id}`)).body;
    const log = await this.lab.trueLog(m.id);
    if (state.status === 'finished') this.counts.finished++;
    else this.counts.unfinished++;
    await this.checkAudit(m, state);
    await this.checkListEntry(m, state);
    const events = await this.checkVersions(m, state, log);
    await this.checkClock(m, state, events, log);
    await this.checkScorecard(m, state, events);
    await this.lookFinally(m, log.length);
    await this.checkStreams(m, log);
    for (const viewer of VIEWERS) if (viewer === 'spectator' || m.tokens[viewer] !== undefined) await this.checkNotation(m, viewer, (await this.get(m, viewer, `/api/matches/${m.id}/notation`)).text, 'at the end');
    await this.checkAnalysis(m, state, log);
    this.checkLeaks(m, log);
    await this.checkPins(m);
  }

  /**
   * Each registered player's matches (docs/players.md), paged with a small limit, are exactly the
   * matches whose seat the journey bound to it, at that seat; its profile counts the finished ones;
   * every bound seat shows its player in the public state; each match's view answers the player's token.
   */
  private async checkPlayers(): Promise<void> {
    for (const seat of SEATS) {
      const account = this.accounts[seat];
      if (!account) continue;
      const expected = this.matches.filter((m) => m.boundTo[seat] === account.id);
      const listed: { id: string; seat: number; status: string }[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const page: any = (await this.http()().get(`/api/players/me/matches?limit=3${cursor ? `&cursor=${cursor}` : ''}`).set('Authorization', `Bearer ${account.token}`)).body;
        listed.push(...(page.items ?? []));
        cursor = page.nextCursor ?? null;
        if (!cursor) break;
      }
      this.counts.playerMatchLists++;
      const show = (xs: { id: string; seat: number }[]) => xs.map((x) => `${x.id.slice(0, 8)}@${x.seat}`).sort().join(' ');
      if (show(listed) !== show(expected.map((m) => ({ id: m.id, seat }))))
        this.fail('players', null, `${account.name}'s matches are [${show(listed)}], not the bound ones [${show(expected.map((m) => ({ id: m.id, seat })))}]`);
      const finished = listed.filter((x) => x.status === 'finished').length;
      const profile = (await this.http()().get(`/api/players/${account.id}`)).body;
      if (profile?.matches !== finished || JSON.stringify(profile).includes(account.token)) this.fail('players', null, `${account.name}'s profile ${short(profile)} does not count ${finished} finished match(es)`);
      for (const m of expected) {
        const state = (await this.get(m, 'spectator', `/api/matches/${m.id}`)).body;
        if (state?.seats?.[seat]?.player !== account.id) this.fail('players', m, `seat ${seat} bound to ${account.name} shows ${short(state?.seats?.[seat])}`);
      }
      await this.rotateToken(account, seat, expected);
    }
  }

  /**
   * A player moves to a new token and revokes the old one: the old one is refused at once (401, on
   * whichever instance answers) for the account and for every bound seat; the new one acts for the
   * same seats. No other token, nor the old one, appears in what the new one is answered.
   */
  private async rotateToken(account: Account, seat: Seat, bound: readonly LiveMatch[]): Promise<void> {
    const old = account.token;
    const issued = await this.http()().post('/api/players/me/tokens').set('Authorization', `Bearer ${old}`).send({});
    if (issued.status !== 201) return this.fail('players', null, `a second token for ${account.name} answered ${issued.status} ${short(issued.body)}`);
    const revoked = await this.http()().delete(`/api/players/me/tokens/${account.tokenId}`).set('Authorization', `Bearer ${old}`);
    if (revoked.status !== 204) return this.fail('players', null, `revoking ${account.name}'s first token answered ${revoked.status} ${short(revoked.body)}`);
    Object.assign(account, { token: issued.body.token, tokenId: issued.body.tokenId });
    this.counts.tokensRevoked++;
    const me = await this.http()().get('/api/players/me').set('Authorization', `Bearer ${old}`);
    if (me.status !== 401) this.fail('players', null, `${account.name}'s revoked token still reads the account: ${me.status}`);
    for (const m of bound.slice(0, 2)) {
      const refused = await this.http()().get(`/api/matches/${m.id}/view`).set('Authorization', `Bearer ${old}`);
      if (refused.status !== 401) this.fail('players', m, `${account.name}'s revoked token still reads seat ${seat}'s view: ${refused.status}`);
      const view = await this.http()().get(`/api/matches/${m.id}/view`).set('Authorization', `Bearer ${account.token}`);
      if (view.status !== 200 || view.body?.seat !== seat || view.text.includes(old)) this.fail('players', m, `${account.name}'s new token reads ${view.status} ${short(view.body)}, not seat ${seat}`);
    }
  }

  /**
   * Every checkpoint shown still holds in the log, and none covered a secret: at each pinned version
   * nothing of the log so far was hidden from anyone. The newest pin passes the audit's `pin` check.
   */
  private async checkPins(m: LiveMatch): Promise<void> {
    const rows: { version: number; type: string; data: unknown; hash: string }[] = await this.lab.pool.query(
      `SELECT version, type, data, encode(hash, 'hex') AS hash FROM events WHERE stream_id = $1 ORDER BY version`,
      [m.id],
    );
    let state: MatchState = initialState();
    for (const row of rows) {
      state = evolve(state, { type: row.type, data: row.data } as BismarckEvent);
      const pinned = m.pins.get(row.version);
      if (pinned === undefined) continue;
      if (pinned !== row.hash) this.fail('pins', m, `the hash shown for version ${row.version} is not the log's`);
      if (!nothingSecret(state)) this.fail('pins', m, `checkpoint ${row.version} covers a secret (status ${state.status})`);
    }
    const newest = Math.max(0, ...m.pins.keys());
    if (newest === 0) return;
    const audit = await this.get(m, 'spectator', `/api/matches/${m.id}/audit?pin=${newest}:${m.pins.get(newest)}`);
    const check = (audit.body?.checks ?? []).find((c: { name: string }) => c.name === 'pin');
    if (audit.status !== 200 || check?.ok !== true) this.fail('pins', m, `audit with the newest pin answered ${audit.status} ${short(check ?? audit.body)}`);
  }

  /** The online audit, the export verified offline, and what `bismarck verify <file>` does with the file. */
  private async checkAudit(m: LiveMatch, state: any): Promise<void> {
    const audit = await this.get(m, 'spectator', `/api/matches/${m.id}/audit`);
    if (audit.status !== 200 || audit.body.ok !== true) {
      const failed = (audit.body?.checks ?? []).filter((c: { ok: boolean }) => !c.ok).map((c: { name: string; detail: string }) => `${c.name}: ${c.detail}`);
      this.fail('audit', m, `GET audit (${state.status}) answered ${audit.status} ok=${audit.body?.ok} firstFailure=${audit.body?.firstFailure} ${short(failed.join('; ') || audit.body)}`);
    }
    const exported = await this.get(m, 'spectator', `/api/matches/${m.id}/export`);
    if (state.status !== 'finished') {
      if (exported.status !== 409 || exported.body.code !== 'MATCH_NOT_FINISHED') this.fail('export', m, `export of an unfinished match answered ${exported.status} ${short(exported.body)}`);
      return;
    }
    if (exported.status !== 200) return this.fail('export', m, `export answered ${exported.status} ${short(exported.body)}`);
    // As the CLI reads a file: parse the text, check the format, audit offline.
    const doc = JSON.parse(exported.text) as ExportedMatch;
    if (doc.format !== EXPORT_FORMAT || !Array.isArray(doc.events)) return this.fail('export', m, `not a ${EXPORT_FORMAT} document`);
    const report = auditMatch(doc);
    if (!report.ok) {
      const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
      this.fail('export', m, `the exported match does not verify offline (first failure ${report.firstFailure}): ${short(failed.join('; '))}`);
    }
    if (report.matchId !== m.id || report.version !== state.version || report.seeded !== state.seeded) {
      this.fail('export', m, `the export says match ${report.matchId}, ${report.version} events, seeded ${report.seeded}; the state says ${state.version} events, seeded ${state.seeded}`);
    }
  }

  /** The list entry (`GET /api/matches`) says what the public state says. */
  private async checkListEntry(m: LiveMatch, state: any): Promise<void> {
    const entry = await this.findInList(m);
    if (!entry) return this.fail('list', m, 'the match is not in the list');
    const fromState = {
      players: state.seats.map((s: { name: string | null }) => s.name),
      status: state.status,
      phase: state.phase,
      version: state.version,
      dealNumber: state.dealNumber,
      dealsInMatch: state.dealsInMatch,
      totals: state.totals,
      winners: state.winners,
      seeded: state.seeded,
      options: state.options,
    };
    const fromList = Object.fromEntries(Object.keys(fromState).map((k) => [k, entry[k]]));
    const differ = Object.keys(fromState).filter((k) => JSON.stringify(sortKeys(fromList[k])) !== JSON.stringify(sortKeys((fromState as Record<string, unknown>)[k])));
    if (differ.length) this.fail('list', m, differ.map((k) => `${k}: list ${JSON.stringify(fromList[k])} ≠ state ${JSON.stringify((fromState as Record<string, unknown>)[k])}`).join('; '));
  }

  private async findInList(m: LiveMatch): Promise<Record<string, unknown> | null> {
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const res = await this.get(m, 'spectator', `/api/matches?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (res.status !== 200) return null;
      const found = res.body.items.find((i: { id: string }) => i.id === m.id);
      if (found) return found;
      cursor = res.body.nextCursor;
      if (!cursor) return null;
    }
    return null;
  }

  /** `GET …/events`, page by page: versions 1..N once each, N the state's version and the log's length. */
  private async checkVersions(m: LiveMatch, state: any, log: { version: number; type: string }[]): Promise<{ version: number; type: string; data: any }[]> {
    const events: { version: number; type: string; data: any }[] = [];
    let after = 0;
    const limit = 25 + (this.plan.pickSeed % 76);
    for (let page = 0; page < 1000; page++) {
      const res = await this.get(m, 'spectator', `/api/matches/${m.id}/events?after=${after}&limit=${limit}`);
      if (res.status !== 200) {
        this.fail('versions', m, `events after ${after} answered ${res.status} ${short(res.body)}`);
        break;
      }
      events.push(...res.body.events);
      if (res.body.next === null) break;
      after = res.body.next;
    }
    const versions = events.map((e) => e.version);
    const gapless = versions.every((v, i) => v === i + 1);
    if (!gapless || versions.length !== state.version || versions.length !== log.length) {
      this.fail('versions', m, `events pages give ${versions.length} versions (${gapless ? 'gapless' : `not 1..N: ${short(versions, 120)}`}); the state says ${state.version}, the log holds ${log.length}`);
    }
    const types = events.map((e) => e.type).join();
    if (gapless && types !== log.map((e) => e.type).join()) this.fail('versions', m, 'the events pages and the log differ in their types');
    return events;
  }

  /**
   * Turn clocks, from the true log: the events pages say `standIn` exactly where the log's metadata does;
   * a match without a clock holds no timeout, no return and no stand-in's move. With one: every
   * TurnTimedOut times out the person to act at the previous event's time + turnSeconds, recorded no
   * earlier, and the event right after it is that seat's move by the stand-in; a stand-in moves only
   * for a seat that just timed out or is away; an away seat's own move comes after its SeatReturned;
   * `away` is what the log implies (two timeouts in a row, no own move between, no return since), and
   * the clock shown is the one the log implies. Each viewer's page shows a stand-in's event redacted
   * as the rules redact any event of its kind (the leak check scans them as they were sent, too).
   */
  private async checkClock(m: LiveMatch, state: any, page: { version: number; standIn?: unknown }[], log: LogEvent[]): Promise<void> {
    for (const [i, e] of log.entries()) {
      if ((page[i]?.standIn === true) !== (e.metadata.standIn === true) || (page[i] && 'standIn' in page[i] && page[i].standIn !== true)) {
        this.fail('standIn', m, `version ${e.version}: the events page shows standIn ${JSON.stringify(page[i]?.standIn)}, the log's metadata ${JSON.stringify(e.metadata.standIn)}`);
      }
    }
    const turnSeconds: number | undefined = state.options?.clock?.turnSeconds;
    if (turnSeconds === undefined) {
      const clockEvents = log.filter((e) => isClockEvent(e) || e.type === 'SeatReturned');
      if (clockEvents.length) this.fail('clock', m, `a match without a clock holds ${clockEvents.map((e) => `${e.type}@${e.version}${e.metadata.standIn ? '(standIn)' : ''}`).join(', ')}`);
      if (state.clock !== null || JSON.stringify(state.away) !== '[false,false,false]') this.fail('clock', m, `a match without a clock shows clock ${short(state.clock)}, away ${JSON.stringify(state.away)}`);
      return;
    }
    const timeouts = [0, 0, 0];
    const away = [false, false, false];
    let rules = initialState();
    for (const [i, e] of log.entries()) {
      const actor = actorOf(e);
      if (e.type === 'TurnTimedOut') {
        const seat = e.data.seat as Seat;
        this.counts.timeouts++;
        const deadline = i > 0 ? new Date(Date.parse(log[i - 1].at) + turnSeconds * 1000).toISOString() : null;
        if (e.data.deadline !== deadline) this.fail('clock', m, `TurnTimedOut at version ${e.version} has the deadline ${e.data.deadline}; the turn began at ${log[i - 1]?.at}, + ${turnSeconds} s is ${deadline}`);
        if (Date.parse(e.at) < Date.parse(e.data.deadline)) this.fail('clock', m, `TurnTimedOut at version ${e.version} was recorded at ${e.at}, before its deadline ${e.data.deadline}`);
        const toAct = seatToAct(rules);
        if (toAct !== seat || botAt(rules, seat)) this.fail('clock', m, `TurnTimedOut of seat ${seat} at version ${e.version}; the seat to act is ${toAct}${toAct !== null && botAt(rules, toAct) ? ' (a bot)' : ''}`);
        if (away[seat]) this.fail('clock', m, `TurnTimedOut of seat ${seat} at version ${e.version}, which is away (its stand-in plays at once)`);
        const after = log[i + 1];
        if (!after) this.fail('standIn', m, `nothing after seat ${seat}'s TurnTimedOut at version ${e.version}: the stand-in never moved`);
        else if (after.metadata.standIn !== true || actorOf(after) !== seat) {
          this.fail('standIn', m, `the event after seat ${seat}'s TurnTimedOut (version ${e.version}) is ${after.type} of seat ${actorOf(after)}, standIn ${JSON.stringify(after.metadata.standIn)}: not the stand-in's move for it`);
        }
        timeouts[seat]++;
        if (timeouts[seat] >= 2) away[seat] = true;
      } else if (e.type === 'SeatReturned') {
        const seat = e.data.seat as Seat;
        if (!away[seat]) this.fail('away', m, `SeatReturned of seat ${seat} at version ${e.version}, which was not away`);
        away[seat] = false;
        timeouts[seat] = 0;
      } else if (actor !== null && e.metadata.standIn === true) {
        this.counts.standInMoves++;
        const justTimedOut = log[i - 1]?.type === 'TurnTimedOut' && log[i - 1].data.seat === actor;
        if (!justTimedOut && !away[actor]) this.fail('standIn', m, `a stand-in's ${e.type} for seat ${actor} at version ${e.version}, which neither just timed out nor is away`);
      } else if (actor !== null) {
        // The seat's own move: it breaks its row of timeouts; an away seat comes back (SeatReturned) first.
        if (away[actor]) this.fail('away', m, `seat ${actor}'s own ${e.type} at version ${e.version} while away, with no SeatReturned before it`);
        timeouts[actor] = 0;
      }
      rules = evolve(rules, { type: e.type, data: e.data } as BismarckEvent);
    }
    if (JSON.stringify(state.away) !== JSON.stringify(away)) this.fail('away', m, `the state (version ${state.version}) shows away ${JSON.stringify(state.away)}; the log implies ${JSON.stringify(away)}`);
    const toAct = seatToAct(rules);
    const person = toAct !== null && !botAt(rules, toAct);
    const clock = person && !away[toAct] && log.length > 0 ? { seat: toAct, deadline: new Date(Date.parse(log[log.length - 1].at) + turnSeconds * 1000).toISOString(), turnSeconds } : null;
    // (A timed-out turn whose stand-in has yet to move shows none either: only a stuck match ends so.)
    if (log.at(-1)?.type !== 'TurnTimedOut' && JSON.stringify(sortKeys(state.clock)) !== JSON.stringify(sortKeys(clock))) {
      this.fail('clock', m, `the state (version ${state.version}, ${state.status}) shows the clock ${short(state.clock)}; the log implies ${short(clock)}`);
    }
    // A stand-in's event, as each viewer's events page shows it: redacted as any event of its kind.
    const standIns = log.filter((e) => e.metadata.standIn === true);
    if (standIns.length === 0) return;
    for (const viewer of VIEWERS) {
      if (viewer !== 'spectator' && m.tokens[viewer] === undefined) continue;
      const seen = (await this.eventsSeenBy(m, viewer)) as { version: number; data: unknown }[];
      for (const e of standIns) {
        const deal = e.data?.deal;
        const expected = redactEvent({ type: e.type, data: e.data } as BismarckEvent, viewer, deal !== undefined && isDealRevealed(rules, deal)).data;
        const shown = seen.find((s) => s.version === e.version);
        if (JSON.stringify(sortKeys(shown?.data)) !== JSON.stringify(sortKeys(expected))) {
          this.fail('leak', m, `${viewer}'s events page shows the stand-in's ${e.type} at version ${e.version} as ${short(shown?.data, 200)}, the rules' redaction for it is ${short(expected, 200)}`);
        }
      }
    }
  }

  /** The scorecard's totals are the sum of the DealScored points, and the state's totals. */
  private async checkScorecard(m: LiveMatch, state: any, events: { type: string; data: any }[]): Promise<void> {
    const card = await this.get(m, 'spectator', `/api/matches/${m.id}/scorecard`);
    if (card.status !== 200) return this.fail('scorecard', m, `scorecard answered ${card.status} ${short(card.body)}`);
    const scored = events.filter((e) => e.type === 'DealScored');
    const sum = [0, 1, 2].map((s) => scored.reduce((t, e) => t + e.data.points[s], 0));
    const problems: string[] = [];
    if (JSON.stringify(card.body.totals) !== JSON.stringify(sum)) problems.push(`totals ${JSON.stringify(card.body.totals)} ≠ sum of DealScored points ${JSON.stringify(sum)}`);
    if (JSON.stringify(card.body.totals) !== JSON.stringify(state.totals)) problems.push(`totals ${JSON.stringify(card.body.totals)} ≠ the state's ${JSON.stringify(state.totals)}`);
    if (card.body.deals?.length !== scored.length) problems.push(`${card.body.deals?.length} deals ≠ ${scored.length} DealScored`);
    if (card.body.finished !== (state.status === 'finished')) problems.push(`finished ${card.body.finished} but status ${state.status}`);
    if (problems.length) this.fail('scorecard', m, problems.join('; '));
  }

  /** At the end, every seat and a spectator look at everything once more (the leak check reads it). */
  private async lookFinally(m: LiveMatch, latest: number): Promise<void> {
    for (const viewer of VIEWERS) {
      if (viewer !== 'spectator') await this.get(m, viewer, `/api/matches/${m.id}/view`);
      await this.get(m, viewer, `/api/matches/${m.id}/events?limit=1000`);
      for (const v of new Set([latest, latest - 1, latest - 5].filter((v) => v >= 1))) {
        const res = await this.get(m, viewer, `/api/matches/${m.id}/replay?version=${v}`);
        if (res.status !== 200) this.fail('replay', m, `${viewer} replay at version ${v} of ${latest} answered ${res.status} ${short(res.body)}`);
      }
    }
  }

  /**
   * Each live stream followed the match across restarts and instances: every version once, in order,
   * the log's types, and nothing more revealed than the caller's events page shows at the end (an
   * event is redacted when it is sent; its frames also went through the leak check below).
   */
  private async checkStreams(m: LiveMatch, log: { version: number; type: string }[]): Promise<void> {
    for (const w of m.watchers) {
      if (!(await w.reached(log.length, 15_000))) {
        this.fail('stream', m, `the ${w.viewer} stream stopped at version ${w.last} of ${log.length}`);
        continue;
      }
      for (const problem of w.problems.slice(0, 3)) this.fail('stream', m, `the ${w.viewer} stream: ${problem}`);
      const versions = w.received.map((e) => e.version);
      if (versions.join() !== log.map((e) => e.version).join()) {
        this.fail('stream', m, `the ${w.viewer} stream received versions ${short(versions, 120)}, the log holds 1..${log.length}`);
        continue;
      }
      const page = await this.eventsSeenBy(m, w.viewer);
      w.received.forEach((e, i) => {
        if (e.type !== log[i].type) this.fail('stream', m, `the ${w.viewer} stream's version ${e.version} is a ${e.type}, the log's a ${log[i].type}`);
        // (`hash` is on events the checkpoint covers: the page has it, a frame sent before may not.)
        else if (!revealsNoMore(withoutHash(e), withoutHash(page[i]))) this.fail('stream', m, `the ${w.viewer} stream's version ${e.version} shows more than the events page: ${short(e, 200)} against ${short(page[i], 200)}`);
      });
    }
  }

  /** Every event of the match as `GET …/events` shows it to `viewer` now. */
  private async eventsSeenBy(m: LiveMatch, viewer: Viewer): Promise<unknown[]> {
    const events: unknown[] = [];
    let after: number | null = 0;
    while (after !== null) {
      const res = await this.get(m, viewer, `/api/matches/${m.id}/events?after=${after}&limit=1000`);
      if (res.status !== 200) break;
      events.push(...res.body.events);
      after = res.body.next;
    }
    return events;
  }

  /** Nothing a caller received holds a card that was secret from it when it received it. */
  private checkLeaks(m: LiveMatch, log: { version: number; type: string; data: any }[]): void {
    const moments = new Moments(log.map((e) => ({ type: e.type, data: e.data }) as BismarckEvent));
    const leaks = new Set<string>();
    for (const seen of m.seen) {
      const secret = moments.secretFrom(seen.viewer, seen.version);
      if (secret.size === 0) continue;
      this.counts.bodiesScanned++;
      if (seen.text.includes('"standIn":true')) this.counts.standInBodiesScanned++;
      const text = moments.currentDealPart(seen.text, seen.version);
      for (const card of secret) {
        const at = text.indexOf(`"${card}"`);
        if (at >= 0) leaks.add(`${seen.viewer} saw ${card} at version ${seen.version} in ${seen.what}: …${text.slice(Math.max(0, at - 160), at + 20)}`);
      }
    }
    for (const leak of [...leaks].slice(0, 5)) this.fail('leak', m, leak);
  }

  /** Live projections equal a rebuild from the log, row for row, for this journey's matches. */
  private async checkRebuild(): Promise<void> {
    if (this.matches.length === 0) return;
    const { pool, store } = this.lab;
    const rebuilder = new ProjectionRebuilder(store, pool, (work) => pool.transaction((tx) => work(tx)));
    try {
      await rebuilder.rebuild();
      const ids = this.matches.map((m) => m.id);
      for (const d of await compareMatches(pool, ids)) {
        if (d.onlyLive || d.onlyRebuilt) this.fail('rebuild', null, `${d.table}: ${d.onlyLive} live row(s) the rebuild does not produce, ${d.onlyRebuilt} rebuilt row(s) not live; e.g. live ${d.example}`);
      }
    } finally {
      await rebuilder.dropRebuildTables();
    }
  }
}

/**
 * `ProjectionRebuilder.compare()`, restricted to some matches: the journeys share a database, and a
 * difference left by an earlier journey must not fail a later one (or shrinking would chase it).
 */
async function compareMatches(pool: DataSource, ids: string[]): Promise<(TableDifference & { example: string })[]> {
  const out: (TableDifference & { example: string })[] = [];
  for (const { table, key } of PROJECTION_TABLES) {
    const mine = (t: string) => `SELECT * FROM ${t} WHERE ${key[0]}::text = ANY($1::text[])`;
    const onlyLive = `${mine(table)} EXCEPT ${mine(`rebuild_${table}`)}`;
    const onlyRebuilt = `${mine(`rebuild_${table}`)} EXCEPT ${mine(table)}`;
    const [row] = await pool.query(
      `SELECT (SELECT count(*) FROM (${onlyLive}) a)::int AS only_live, (SELECT count(*) FROM (${onlyRebuilt}) b)::int AS only_rebuilt,
              (SELECT row_to_json(a)::text FROM (${onlyLive}) a LIMIT 1) AS live_example,
              (SELECT row_to_json(b)::text FROM (${onlyRebuilt}) b LIMIT 1) AS rebuilt_example`,
      [ids],
    );
    out.push({ table, onlyLive: row.only_live, onlyRebuilt: row.only_rebuilt, example: `${short(row.live_example, 300)} rebuilt ${short(row.rebuilt_example, 300)}` });
  }
  return out;
}

/** Every moment of one match, from its true log: what was secret from whom, and where its deal began. */
/**
 * A client following a match's live stream as an EventSource does: whenever the connection ends
 * (a restart, the second instance going away) it comes back with Last-Event-ID, to the second
 * instance while one is up (appends through the first must reach it) and else to the first. Each
 * frame joins the bodies the leak check reads, at the log's length when it arrived.
 */
class Watcher {
  readonly received: { version: number; type: string; at: string; data: unknown }[] = [];
  readonly problems: string[] = [];
  /** The last version received (it starts at the beginning of the log). */
  last = 0;
  private ended = false;
  private stopped = false;
  private controller = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    private readonly lab: Lab,
    private readonly m: LiveMatch,
    readonly viewer: Viewer,
  ) {
    this.done = this.follow();
  }

  /** True once it holds `version` (or the stream ended there), false after `ms` without. */
  async reached(version: number, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.last < version && !this.ended && Date.now() < until) await pause(50);
    return this.last >= version;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.controller.abort();
    await this.done;
  }

  private async follow(): Promise<void> {
    const token = this.viewer === 'spectator' ? undefined : this.m.tokens[this.viewer];
    while (!this.stopped && !this.ended) {
      this.controller = new AbortController();
      const base = (this.viewer === 'spectator' && this.lab.second?.url) || this.lab.primary.url;
      try {
        const res = await fetch(`${base}/api/matches/${this.m.id}/events/stream`, {
          headers: { 'last-event-id': String(this.last), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: this.controller.signal,
        });
        if (res.status === 204) this.ended = true;
        else if (res.status !== 200) this.problems.push(`answered ${res.status} ${short(await res.text(), 200)}`);
        else await this.read(res.body!);
      } catch {
        // Refused or cut (an instance stopping): an EventSource tries again.
      }
      if (!this.stopped && !this.ended) await pause(100);
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    for await (const message of parseSse(body)) {
      if (message.event === 'end') this.ended = true;
      if (message.event !== 'message') continue;
      const event = JSON.parse(message.data);
      if (Number(message.id) !== event.version || event.version !== this.last + 1) this.problems.push(`version ${event.version} (id ${message.id}) after ${this.last}`);
      this.last = Math.max(this.last, event.version);
      this.received.push(event);
      this.m.seen.push({ viewer: this.viewer, version: await this.lab.logLength(this.m.id), what: 'the live stream', text: JSON.stringify({ events: [event] }) });
    }
  }
}

const withoutHash = (event: unknown): unknown => {
  if (event === null || typeof event !== 'object') return event;
  const { hash: _hash, ...rest } = event as Record<string, unknown>;
  return rest;
};

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** `sent` is `final` with, at most, some values still hidden (null): what was secret when it was sent. */
function revealsNoMore(sent: unknown, final: unknown): boolean {
  if (sent === null) return true;
  if (final === null || typeof sent !== typeof final) return false;
  if (Array.isArray(sent)) return Array.isArray(final) && sent.length === final.length && sent.every((x, i) => revealsNoMore(x, final[i]));
  if (typeof sent === 'object') {
    const a = sent as Record<string, unknown>;
    const b = final as Record<string, unknown>;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && revealsNoMore(a[k], b[k]));
  }
  return sent === final;
}

class Moments {
  private readonly states: MatchState[] = [initialState()];
  /** For each version, the version of the DealStarted of the deal on the table (0: none yet). */
  private readonly dealStart: number[] = [0];
  private readonly cache = new Map<string, Set<string>>();

  constructor(private readonly log: BismarckEvent[]) {
    for (const [i, e] of log.entries()) {
      this.states.push(evolve(this.states[i], e));
      this.dealStart.push(e.type === 'DealStarted' ? i + 1 : this.dealStart[i]);
    }
  }

  /** The cards secret from `viewer` at `version`: other seats' hands, the lay-away (unless forehand), the undealt deck. */
  secretFrom(viewer: Viewer, version: number): Set<string> {
    const key = `${viewer}@${version}`;
    let secret = this.cache.get(key);
    if (!secret) {
      secret = this.compute(viewer, Math.min(version, this.log.length));
      this.cache.set(key, secret);
    }
    return secret;
  }

  private compute(viewer: Viewer, version: number): Set<string> {
    const state = this.states[version];
    const secret = new Set<string>();
    const pub = publicView(state);
    if (pub.phase !== 'contract' && pub.phase !== 'discard' && pub.phase !== 'play') return secret;
    for (const s of SEATS) {
      if (s === viewer) continue;
      const v = seatView(state, s);
      v.hand.forEach((c) => secret.add(c));
      v.laidAway?.forEach((c) => secret.add(c));
    }
    const started = this.log[this.dealStart[version] - 1] as Extract<BismarckEvent, { type: 'DealStarted' }>;
    // Before the hands are dealt (a blind choice) every card but the table cards is undealt and secret.
    if (pub.handSizes.every((n) => n === 0)) started.data.deck?.forEach((c) => secret.add(c));
    // The four table cards were shown to everyone: their codes are public wherever forehand put them.
    started.data.tableCards.forEach((c) => secret.delete(c));
    return secret;
  }

  /**
   * The part of a body that belongs to the deal on the table at `version`: scored deals are public,
   * and their card codes recur in every deal. Event lists keep only events from its DealStarted on
   * (and events of no deal); a replay of a moment before it is dropped; any other body is kept whole.
   */
  currentDealPart(text: string, version: number): string {
    const from = this.dealStart[Math.min(version, this.log.length)];
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return text;
    }
    if (Array.isArray(body?.events)) {
      return JSON.stringify({ ...body, events: body.events.filter((e: { version: number; data?: { deal?: number } }) => e.data?.deal === undefined || e.version >= from) });
    }
    if (typeof body?.replayVersion === 'number') return body.replayVersion >= from ? text : '';
    return text;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

// ---- running many journeys ------------------------------------------------------------------------

export interface RunJourneysOptions extends JourneyArbitraryOptions {
  numRuns: number;
  /** fast-check's seed (random when absent); with `path`, replays one counterexample. */
  seed?: number;
  path?: string;
  /** No journey (nor shrinking step) starts after this; the run ends with what it has. */
  timeLimitMs?: number;
  /** A database to run on (kept); default: a fresh one, dropped at the end. */
  db?: TestDatabase;
  /** Progress lines (one per journey). */
  log?: (line: string) => void;
}

export interface JourneyReport {
  ok: boolean;
  seed: number;
  /** fast-check's path of the shrunk counterexample: `runJourneys({ seed, path, numRuns: 1 })` replays it. */
  path: string | null;
  durationMs: number;
  /** True when the time limit stopped the runs or the shrinking early. */
  timedOut: boolean;
  counts: JourneyCounts;
  /** The smallest failing journey found, and the promises it broke. */
  counterexample: { plan: JourneyPlan; described: string; broken: string[] } | null;
  /** Every promise broken in any journey (the shrinking steps too): how often, and the first message. */
  brokenPromises: Record<string, { journeys: number; first: string }>;
  /** compare() over the whole database at the end (every journey's matches). */
  finalCompare: TableDifference[];
}

/** Runs `numRuns` generated journeys on one database and checks every promise after each. Never throws for a broken promise. */
export async function runJourneys(options: RunJourneysOptions): Promise<JourneyReport> {
  const started = Date.now();
  const deadline = started + (options.timeLimitMs ?? Number.POSITIVE_INFINITY);
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  const counts = zeroCounts();
  const brokenPromises: JourneyReport['brokenPromises'] = {};
  let timedOut = false;
  const restoreEnv = journeyEnv();
  const lab = await Lab.open(options.db).catch((error: unknown) => {
    restoreEnv();
    throw error;
  });
  try {
    const property = fc.asyncProperty(journeyArbitrary(options), async (plan) => {
      if (Date.now() > deadline) {
        timedOut = true;
        return true; // out of time: what is left passes unseen, and shrinking stops here
      }
      const journey = new Journey(lab, plan, counts);
      const t0 = Date.now();
      counts.journeys++;
      const absences = plan.twists.filter((t) => t.twist.kind === 'absent').length;
      const clocked = plan.matches.filter((m) => m.clock !== null).length;
      try {
        await journey.run();
      } catch (error) {
        journey.broken.push(`[crash] ${(error as Error).stack ?? error}`);
      }
      const clocks = clocked ? ` (${clocked} clocked, ${absences} absence(s) planned)` : '';
      const broken = journey.broken.length ? `${journey.broken.length} broken: ${journey.broken.slice(0, 3).map((b) => short(b, 300)).join(' | ')}` : 'ok';
      options.log?.(`journey ${counts.journeys}: ${plan.matches.length} match(es)${clocks}, ${Date.now() - t0} ms, ${broken}`);
      if (journey.broken.length === 0) return true;
      counts.failedJourneys++;
      const promises = new Set(journey.broken.map((line) => /^\[(\w+)\]/.exec(line)?.[1] ?? 'other'));
      for (const promise of promises) {
        brokenPromises[promise] ??= { journeys: 0, first: journey.broken.find((line) => line.startsWith(`[${promise}]`)) ?? '' };
        brokenPromises[promise].journeys++;
      }
      throw new BrokenPromises(journey.broken);
    });
    const details = await fc.check(property, { numRuns: options.numRuns, seed, path: options.path, endOnFailure: false });
    const shrunk = details.failed ? (details.counterexample?.[0] as JourneyPlan | undefined) : undefined;
    const error = details.failed ? details.errorInstance : null;
    const failure = error instanceof BrokenPromises ? error.broken : error ? [String(error)] : [];
    const finalCompare = await compareAll(lab);
    return {
      ok: !details.failed && finalCompare.every((d) => d.onlyLive === 0 && d.onlyRebuilt === 0),
      seed,
      path: details.counterexamplePath ?? null,
      durationMs: Date.now() - started,
      timedOut,
      counts,
      counterexample: shrunk ? { plan: shrunk, described: describePlan(shrunk), broken: failure } : null,
      brokenPromises,
      finalCompare,
    };
  } finally {
    await lab.close();
    restoreEnv();
  }
}

/**
 * Settings of the journeys' api instances: a bot turn left by a stopping instance is swept up within
 * a second (not ten), an analysis solves within a small node budget (some values stay null), and a
 * stand-in plays greedily (the strong bot's sampling would cost the journeys their CPU).
 */
function journeyEnv(): () => void {
  const settings: Record<string, string> = { BOT_SWEEP_MS: '500', ANALYSIS_MAX_NODES: '20000', STAND_IN_BOT: 'greedy' };
  const before = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(settings)) process.env[k] ??= v;
  return () => {
    for (const [k, v] of Object.entries(before)) if (v === undefined) delete process.env[k];
  };
}

async function compareAll(lab: Lab): Promise<TableDifference[]> {
  const rebuilder = new ProjectionRebuilder(lab.store, lab.pool, (work) => lab.pool.transaction((tx) => work(tx)));
  try {
    await rebuilder.rebuild();
    return await rebuilder.compare();
  } finally {
    await rebuilder.dropRebuildTables();
  }
}

/** A report as text: counts, every broken promise, the shrunk counterexample and how to replay it. */
export function formatReport(report: JourneyReport): string {
  const lines = [
    `journeys: ${report.ok ? 'every promise kept' : 'PROMISES BROKEN'} (seed ${report.seed}${report.path ? `, path "${report.path}"` : ''}, ${report.durationMs} ms${report.timedOut ? ', stopped by the time limit' : ''})`,
    `counts: ${JSON.stringify(report.counts)}`,
  ];
  for (const [promise, b] of Object.entries(report.brokenPromises)) lines.push(`broken [${promise}] in ${b.journeys} journey(s), first: ${b.first}`);
  if (report.counterexample) {
    lines.push('shrunk counterexample:', report.counterexample.described, 'it broke:', ...report.counterexample.broken);
    // The plan replays exactly; the decks of unseeded matches are the server's own draw each time.
    lines.push(`replay: JOURNEY_SEED=${report.seed} JOURNEY_PATH=${report.path} npx jest test/journey.e2e-spec.ts (or runJourneys({ numRuns: 1, seed, path }))`);
  }
  const differing = report.finalCompare.filter((d) => d.onlyLive || d.onlyRebuilt);
  if (differing.length) lines.push(`final compare(): ${JSON.stringify(differing)}`);
  return lines.join('\n');
}
