import {
  decide,
  deckKey,
  evolve,
  initialState,
  recordedMove,
  RuleViolation,
  sha256Hex,
  shuffleDeck,
  type BismarckEvent,
  type Command,
  type DealerFacts,
  type ForkedFrom,
} from '@bismarck/rules';
import { eventHash, type ExportedEvent } from './chain';

export const EXPORT_FORMAT = 'bismarck-export-v1';

/** A match as one self-contained document: the whole log with its proofs. */
export interface ExportedMatch {
  format: typeof EXPORT_FORMAT;
  matchId: string;
  exportedAt: string;
  /** True when created with a caller's seed: reproducible, NOT provably fair. */
  seeded: boolean;
  events: ExportedEvent[];
}

/** The checks, in the order a report lists them (`pin` only when a pin is given). */
export const AUDIT_CHECKS = ['chain', 'complete', 'pin', 'commitments', 'decks', 'rules', 'scores'] as const;

export interface AuditCheck {
  name: (typeof AUDIT_CHECKS)[number];
  ok: boolean;
  /** What was checked, or what failed. Never a card that is still secret. */
  detail: string;
  /** The first event version that fails this check. */
  failedAt: number | null;
}

/** What the log is checked against, beyond itself. */
export interface AuditExpectations {
  /** The log must be a whole finished match (an export): it ends in MatchFinished (and, maybe, RematchOffered). */
  finished?: boolean;
  /** The version the service recorded for the match elsewhere (its projection): the log must reach it. */
  recordedVersion?: number;
  /** A hash a client kept during play (a checkpoint): the log must hold it at that version. */
  pin?: ChainPin;
}

/** One point of the hash chain as a client saw it. */
export interface ChainPin {
  version: number;
  /** Lowercase hex SHA-256. */
  hash: string;
}

/** `<version>:<hash>`, as `GET …/audit?pin=` and `verify --pin` take a pin; null when it is not one. */
export const PIN_PATTERN = /^([1-9][0-9]{0,9}):([0-9a-fA-F]{64})$/;

export function parsePin(text: string): ChainPin | null {
  const m = PIN_PATTERN.exec(text);
  if (!m || Number(m[1]) > 2 ** 31 - 1) return null;
  return { version: Number(m[1]), hash: m[2].toLowerCase() };
}

export interface AuditReport {
  ok: boolean;
  matchId: string;
  version: number;
  /** From the hashed MatchCreated, never from the document's envelope. */
  seeded: boolean;
  /** A fork's origin, from the hashed MatchCreated (a fork is always seeded); null for any other match. */
  forkedFrom: ForkedFrom | null;
  /** Deals whose deck provably neither the server nor a seat alone chose (committed seed, seat's cut, revealed). */
  provablyFairDeals: number[];
  scoredDeals: number[];
  checks: AuditCheck[];
  /** The first event version that fails any check. */
  firstFailure: number | null;
}

/** The export document of a match from its whole log (the events keep only what the hash covers, and the hash). */
export function exportOf(matchId: string, events: readonly ExportedEvent[], exportedAt = new Date().toISOString()): ExportedMatch {
  const created = events[0]?.type === 'MatchCreated' ? (events[0].data as { seeded?: boolean }) : {};
  return {
    format: EXPORT_FORMAT,
    matchId,
    exportedAt,
    seeded: created.seeded === true,
    events: events.map(({ version, type, data, metadata, recordedAt, recordedAtMicros, hash }) => ({ version, type, data, metadata, recordedAt, recordedAtMicros, hash })),
  };
}


type E<T extends BismarckEvent['type']> = Extract<BismarckEvent, { type: T }>;
const asEvent = (e: ExportedEvent): BismarckEvent => ({ type: e.type, data: e.data }) as BismarckEvent;

/**
 * Checks a match from its full log alone: the hash chain, every commitment against its revealed seed,
 * every deck re-derived and compared with the cards dealt, every decision replayed through the rules,
 * and the scores recomputed. Pure: the same function runs in the service and offline (`verify`).
 */
export function auditMatch(exported: ExportedMatch, expect: AuditExpectations = {}): AuditReport {
  const events = exported.events;
  // The envelope's `seeded` is covered by no hash: a flipped flag must not switch checks off.
  const doc = { ...exported, seeded: hashedSeeded(events) };
  const scoredDeals = events.filter((e) => e.type === 'DealScored').map((e) => (e.data as E<'DealScored'>['data']).deal);
  const checks = [
    checkChain(doc),
    checkComplete(exported, doc.seeded, expect),
    ...(expect.pin ? [checkPin(doc, expect.pin)] : []),
    checkCommitments(doc, new Set(scoredDeals)),
    checkDecks(doc, new Set(scoredDeals)),
    checkRules(events),
    checkScores(events),
  ];
  const failures = checks.map((c) => c.failedAt).filter((v): v is number => v !== null);
  return {
    ok: checks.every((c) => c.ok),
    matchId: doc.matchId,
    version: events.length,
    seeded: doc.seeded,
    forkedFrom: hashedForkedFrom(events),
    provablyFairDeals: doc.seeded ? [] : fairDeals(events, new Set(scoredDeals)),
    scoredDeals,
    checks,
    firstFailure: failures.length ? Math.min(...failures) : null,
  };
}

const pass = (name: AuditCheck['name'], detail: string): AuditCheck => ({ name, ok: true, detail, failedAt: null });
const fail = (name: AuditCheck['name'], failedAt: number, detail: string): AuditCheck => ({ name, ok: false, detail, failedAt });

function checkChain(doc: ExportedMatch): AuditCheck {
  let previous: string | null = null;
  for (const [i, e] of doc.events.entries()) {
    if (e.version !== i + 1) return fail('chain', i + 1, `event ${i + 1} has version ${e.version}: the log is not gapless and in order`);
    let expected: string;
    try {
      expected = eventHash(previous, doc.matchId, e);
    } catch (error) {
      return fail('chain', e.version, `event ${e.version} cannot be hashed: ${(error as Error).message}`);
    }
    if (expected !== e.hash) return fail('chain', e.version, `event ${e.version}'s hash does not match its content and its predecessor`);
    previous = e.hash;
  }
  return pass('chain', `${doc.events.length} events, versions 1..${doc.events.length}, every hash covers its predecessor`);
}

/**
 * The log still holds the hash a client pinned. The chain links each hash to everything before it,
 * so a match here proves that no event up to the pinned version was changed, dropped or reordered.
 */
function checkPin(doc: ExportedMatch, pin: ChainPin): AuditCheck {
  const event = doc.events[pin.version - 1];
  if (!event) return fail('pin', pin.version, `the log ends at version ${doc.events.length}, before the pinned version ${pin.version}: it was cut short`);
  if (event.hash !== pin.hash.toLowerCase()) {
    return fail('pin', pin.version, `the log's hash at version ${pin.version} is not the pinned one: an event up to that version was changed since it was pinned`);
  }
  return pass('pin', `the log holds the pinned hash at version ${pin.version}: nothing up to there changed since`);
}

/** Where a fork starts, as its hashed MatchCreated says (the rules check that it is a seeded match's). */
function hashedForkedFrom(events: ExportedEvent[]): ForkedFrom | null {
  const from = events[0]?.type === 'MatchCreated' ? (events[0].data as { forkedFrom?: ForkedFrom }).forkedFrom : undefined;
  return from && typeof from.matchId === 'string' && typeof from.version === 'number' ? { matchId: from.matchId, version: from.version } : null;
}

/** The `seeded` flag of the hashed MatchCreated (a log without one is the chain and rules checks' finding). */
function hashedSeeded(events: ExportedEvent[]): boolean {
  return events[0]?.type === 'MatchCreated' && (events[0].data as { seeded?: unknown }).seeded === true;
}

/** The log is whole: nothing cut off its end, and the envelope says what the hashed events say. */
function checkComplete(exported: ExportedMatch, seeded: boolean, expect: AuditExpectations): AuditCheck {
  const events = exported.events;
  if (exported.seeded !== undefined && exported.seeded !== seeded) {
    return fail('complete', 1, `the document says seeded=${exported.seeded}, but the hashed MatchCreated says seeded=${seeded}`);
  }
  const finishedAt = events.findIndex((e) => e.type === 'MatchFinished');
  // After the end, only the offer of a rematch (the rules check that it comes once).
  const after = finishedAt < 0 ? [] : events.slice(finishedAt + 1);
  const trailing = after.findIndex((e) => e.type !== 'RematchOffered');
  if (trailing >= 0) return fail('complete', finishedAt + trailing + 2, 'events follow MatchFinished');
  if (expect.finished && finishedAt < 0) {
    return fail('complete', events.length + 1, `the log ends at version ${events.length} without MatchFinished: a finished match's log is cut short`);
  }
  if (expect.recordedVersion !== undefined && expect.recordedVersion > events.length) {
    return fail('complete', events.length + 1, `the service recorded version ${expect.recordedVersion}, but the log holds ${events.length} events: its end is missing`);
  }
  const end =
    finishedAt >= 0
      ? `ends in MatchFinished${after.length > 0 ? ' (then RematchOffered)' : ''}`
      : `reaches the recorded version ${expect.recordedVersion ?? events.length}`;
  return pass('complete', `the log ${end}; the seeded flag is the hashed one (${seeded})`);
}

function checkCommitments(doc: ExportedMatch, scored: Set<number>): AuditCheck {
  if (doc.seeded) return pass('commitments', 'seeded match: decks come from the creator\'s seed; nothing is committed (not provably fair)');
  const committed = new Map<string, number>(); // commitment → version where published
  const used = new Map<string, { deal: number; version: number }>();
  let checked = 0;
  for (const e of doc.events) {
    if (e.type === 'DeckCommitted') committed.set((e.data as E<'DeckCommitted'>['data']).commitment, e.version);
    if (e.type === 'DealStarted') {
      const d = e.data as E<'DealStarted'>['data'];
      const commitment = (d.shuffle as { commitment?: string | null } | undefined)?.commitment;
      if (!commitment) return fail('commitments', e.version, `deal ${d.deal} started without a commitment`);
      const at = committed.get(commitment);
      if (at === undefined || at > e.version) return fail('commitments', e.version, `deal ${d.deal} used a commitment that was not published before it`);
      if (used.has(commitment)) return fail('commitments', e.version, `deal ${d.deal} reused a commitment`);
      used.set(commitment, { deal: d.deal, version: e.version });
    }
    if (e.type === 'SeedRevealed') {
      const d = e.data as E<'SeedRevealed'>['data'];
      if (sha256Hex(d.seed) !== d.commitment) return fail('commitments', e.version, `the seed revealed for deal ${d.deal} does not hash to its commitment`);
      if (!used.has(d.commitment) && !committed.has(d.commitment)) return fail('commitments', e.version, `a seed was revealed for an unknown commitment`);
      checked++;
    }
  }
  const revealed = new Set(doc.events.filter((e) => e.type === 'SeedRevealed').map((e) => (e.data as E<'SeedRevealed'>['data']).commitment));
  for (const [commitment, use] of used) {
    if (scored.has(use.deal) && !revealed.has(commitment)) return fail('commitments', use.version, `deal ${use.deal} is scored but its seed was never revealed`);
  }
  return pass('commitments', `${used.size} decks each used a commitment published before it; ${checked} revealed seeds match their commitments`);
}

function checkDecks(doc: ExportedMatch, scored: Set<number>): AuditCheck {
  // Only seeds that match their commitment re-derive decks; a bad reveal is the commitments check's finding.
  const seeds = new Map<string, string>();
  const badReveals = new Set<string>();
  for (const e of doc.events) {
    if (e.type !== 'SeedRevealed') continue;
    const { commitment, seed } = e.data as E<'SeedRevealed'>['data'];
    if (sha256Hex(seed) === commitment) seeds.set(commitment, seed);
    else badReveals.add(commitment);
  }
  let cut: string | null = null;
  let rederived = 0;
  let comparable = 0;
  for (const [i, e] of doc.events.entries()) {
    if (e.type === 'DeckCut') cut = (e.data as E<'DeckCut'>['data']).cut;
    if (e.type !== 'DealStarted') continue;
    const d = e.data as E<'DealStarted'>['data'];
    const shuffle = (d.shuffle ?? {}) as { index?: number; commitment?: string | null; cut?: string | null };
    if ((shuffle.cut ?? null) !== cut) return fail('decks', e.version, `deal ${d.deal} ignored the cut that was made before it`);
    cut = null;
    if (!scored.has(d.deal)) continue; // still secret: checked once the deal is scored
    comparable++;
    const deck = d.deck ?? [];
    if (deck.length !== 52) return fail('decks', e.version, `deal ${d.deal}'s deck is not in the log`);
    if (JSON.stringify(d.tableCards) !== JSON.stringify(deck.slice(0, 4))) return fail('decks', e.version, `deal ${d.deal}'s table cards are not the top of its deck`);
    const dealt = doc.events.slice(i + 1).find((x) => x.type === 'HandsDealt' || x.type === 'DealStarted');
    if (dealt?.type === 'HandsDealt') {
      const hands = (dealt.data as E<'HandsDealt'>['data']).hands;
      for (let k = 0; k < 48; k++) {
        const seat = (d.forehand + k) % 3;
        if (hands[seat]?.[Math.floor(k / 3)] !== deck[4 + k]) return fail('decks', dealt.version, `deal ${d.deal}'s hands are not dealt from its deck`);
      }
    }
    if (doc.seeded) continue; // the creator's seed is not published
    if (shuffle.commitment && badReveals.has(shuffle.commitment)) continue;
    const seed = shuffle.commitment ? seeds.get(shuffle.commitment) : undefined;
    if (seed === undefined || shuffle.index === undefined) return fail('decks', e.version, `deal ${d.deal}'s deck cannot be re-derived: no revealed seed`);
    if (JSON.stringify(shuffleDeck(deckKey(seed, shuffle.cut ?? null), shuffle.index)) !== JSON.stringify(deck)) {
      return fail('decks', e.version, `deal ${d.deal}'s deck is not the one its seed and cut give`);
    }
    rederived++;
  }
  return pass(
    'decks',
    doc.seeded
      ? `${comparable} scored decks dealt as recorded (seeded: the seed itself is not published)`
      : `${rederived} scored decks re-derived from seed and cut and equal to the cards dealt`,
  );
}

/**
 * The command the recorded event `i` answers, for the events that start a decision. A timeout is
 * decided with the times the log recorded (its own, and the turn's start: the event before it); a
 * move the stand-in made says so in its metadata.
 */
function commandAt(events: ExportedEvent[], i: number): Command | null {
  const e = asEvent(events[i]);
  if (e.type === 'TurnTimedOut') return { type: 'timeOut', now: events[i].recordedAt, since: events[i - 1]?.recordedAt ?? '' };
  if (e.type === 'SeatReturned') return { type: 'returnToSeat', seat: e.data.seat };
  const command = commandOf(e);
  return command !== null && events[i].metadata?.standIn === true ? { ...command, standIn: true } : command;
}

/** The command a recorded event answers, for the events that start a decision. */
function commandOf(e: BismarckEvent): Command | null {
  switch (e.type) {
    case 'MatchCreated':
      return { type: 'createMatch', ...e.data };
    case 'SeatJoined':
      return {
        type: 'joinSeat',
        seat: e.data.seat,
        name: e.data.name,
        ...(e.data.bot !== undefined ? { bot: e.data.bot } : {}),
        ...(e.data.account !== undefined ? { account: e.data.account } : {}),
      };
    case 'TableAbandoned':
      return { type: 'abandonTable' };
    case 'DealStarted':
      return { type: 'deal', seat: e.data.dealer, deck: e.data.deck ?? [], ...(e.data.shuffle ? { shuffle: e.data.shuffle } : {}) };
    case 'RematchOffered':
      return { type: 'offerRematch', seat: e.data.seat, matchId: e.data.matchId };
    default:
      return recordedMove(e);
  }
}

/**
 * Would the two values be the same JSON, keys in any order? (A property whose value is undefined is
 * no property, an undefined array item is null, as JSON.stringify has them.) Compared in place: the
 * audit compares every event the rules produce with the logged one.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  a = asJson(a);
  b = asJson(b);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => sameJson(x, other[i]));
  }
  const defined = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);
  const keys = defined(a);
  // A key of `a` must be one of `b`'s defined ones: an undefined value there is no property, not null.
  const otherKeys = new Set(defined(b));
  return keys.length === otherKeys.size && keys.every((k) => otherKeys.has(k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What JSON.stringify writes null for: undefined (as an item), NaN and the infinities. */
const asJson = (v: unknown): unknown => (v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? null : v);

function checkRules(events: ExportedEvent[]): AuditCheck {
  let state = initialState();
  let decisions = 0;
  let i = 0;
  while (i < events.length) {
    const logged = asEvent(events[i]);
    const command = commandAt(events, i);
    if (command === null) return fail('rules', events[i].version, `${logged.type} at version ${events[i].version} does not follow from any command`);
    let produced: BismarckEvent[];
    try {
      produced = decide({ ...command, dealer: dealerFactsAt(events, i) }, state);
    } catch (error) {
      const code = error instanceof RuleViolation ? error.code : 'ERROR';
      return fail('rules', events[i].version, `the rules refuse the ${command.type} recorded at version ${events[i].version} (${code})`);
    }
    for (const p of produced) {
      if (i >= events.length) return fail('rules', events.length, `the log ends before the ${p.type} that the rules produce`);
      if (events[i].type !== p.type || !sameJson(events[i].data, p.data)) {
        return fail('rules', events[i].version, `version ${events[i].version} is not what the rules decide (${p.type} expected, ${events[i].type} recorded)`);
      }
      state = evolve(state, p);
      i++;
    }
    decisions++;
  }
  return pass('rules', `${decisions} decisions replayed through the rules: every event is what the rules decide, the dealer's included`);
}

/**
 * What the dealer brought to the decision that starts at event `i`, as the log shows it: the next
 * commitment and the revealed seeds recorded before the next deal starts. The rules then decide
 * whether and where each belongs; a commitment or a reveal the rules do not place breaks the replay.
 * (Whether a revealed seed matches its commitment is the commitments check's finding.)
 */
function dealerFactsAt(events: ExportedEvent[], i: number): DealerFacts {
  let commitment: string | undefined;
  const seeds: { deal: number; commitment: string; seed: string }[] = [];
  for (let j = i; j < events.length && (j === i || events[j].type !== 'DealStarted'); j++) {
    const e = asEvent(events[j]);
    if (e.type === 'DeckCommitted') commitment ??= e.data.commitment;
    // One seed per commitment, as the dealer keeps them: a seed revealed twice is out of place.
    if (e.type === 'SeedRevealed' && !seeds.some((s) => s.commitment === e.data.commitment)) seeds.push(e.data);
  }
  return { commitment, seeds };
}

function checkScores(events: ExportedEvent[]): AuditCheck {
  const totals = [0, 0, 0];
  let deals = 0;
  for (const e of events) {
    if (e.type === 'DealScored') {
      const d = e.data as E<'DealScored'>['data'];
      if (d.tricks.reduce((a, b) => a + b, 0) !== 16) return fail('scores', e.version, `deal ${d.deal} does not have 16 tricks`);
      for (let s = 0; s < 3; s++) totals[s] += d.points[s];
      if (JSON.stringify(d.totals) !== JSON.stringify(totals)) return fail('scores', e.version, `the running totals after deal ${d.deal} are not the sum of its points`);
      deals++;
    }
    if (e.type === 'MatchFinished') {
      const d = e.data as E<'MatchFinished'>['data'];
      const best = Math.max(...totals);
      const winners = [0, 1, 2].filter((s) => totals[s] === best);
      if (JSON.stringify(d.totals) !== JSON.stringify(totals) || JSON.stringify(d.winners) !== JSON.stringify(winners)) {
        return fail('scores', e.version, 'the final totals or winners are not those of the deals');
      }
    }
  }
  return pass('scores', `${deals} deals scored; totals ${JSON.stringify(totals)} are the sums of their points`);
}

/** Scored deals whose every attempt used a committed seed, a seat's cut, and a revealed seed. */
function fairDeals(events: ExportedEvent[], scored: Set<number>): number[] {
  const revealed = new Set(events.filter((e) => e.type === 'SeedRevealed').map((e) => (e.data as E<'SeedRevealed'>['data']).commitment));
  const fair = new Map<number, boolean>();
  for (const e of events) {
    if (e.type !== 'DealStarted') continue;
    const d = e.data as E<'DealStarted'>['data'];
    const s = (d.shuffle ?? {}) as { commitment?: string | null; cut?: string | null };
    const ok = Boolean(s.commitment && revealed.has(s.commitment) && s.cut);
    fair.set(d.deal, (fair.get(d.deal) ?? true) && ok);
  }
  return [...fair].filter(([deal, ok]) => ok && scored.has(deal)).map(([deal]) => deal);
}
