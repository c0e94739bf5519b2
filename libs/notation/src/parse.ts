import { OPTION_VALUES, type BismarckEvent, type MatchOptions } from '@bismarck/rules';
import { BODY } from './body';
import { NOTATION_MAGIC, OPTION_KEYS, SEAT, seatOf, STRING, type Data } from './format';
import { Parser, re, type Line, type Rule } from './parser';

/** The lines of a deal's start (one DealStarted): after each key, the keys that may come next. */
const START_NEXT: Record<string, string[]> = { Deal: ['Shuffle', 'Deck'], Shuffle: ['Deck'], Deck: ['Table'] };
const START_PARTS = new Set(['Shuffle', 'Deck', 'Table', 'Contract']);
const keyOf = (text: string): Rule | undefined =>
  /^[0-9]+\./.test(text) ? BODY.find((r) => r.key === 'trick') : BODY.find((r) => text.startsWith(`${r.key} `) || text.startsWith(`${r.key}:`));
const clip = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/**
 * The events a notation carries, in log order (their versions are 1, 2, …). Blank lines and lines
 * starting with `#` are skipped. Throws a NotationError naming the line and what was expected there.
 */
export function fromNotation(input: string): BismarckEvent[] {
  const lines: Line[] = input
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((t, i) => ({ number: i + 1, text: t.replace(/^[ \t]+|[ \t]+$/g, '') }))
    .filter((l) => l.text !== '' && !l.text.startsWith('#'));
  const p = new Parser();
  const { created, length } = parseHeader(lines, p);
  p.push({ type: 'MatchCreated', data: created });
  for (const line of lines.slice(length)) {
    if (p.hands !== null && !line.text.startsWith('Hand')) p.fail(line, `expected "Hand ${p.hands.length}: …": the three hands come together, seats 0, 1, 2`);
    const rule = BODY.find((r) => r.pattern.test(line.text));
    const key = rule?.key ?? keyOf(line.text)?.key;
    const following = START_NEXT[p.last];
    if (following && !following.includes(key ?? '')) {
      p.fail(line, `expected ${following.map((k) => `"${k}: …"`).join(' or ')} to go on with the deal's start, found "${clip(line.text)}"`);
    }
    if (key && START_PARTS.has(key) && !following?.includes(key) && !(key === 'Contract' && p.last === 'Table')) {
      p.fail(line, `"${key}:" belongs to a deal's start: the lines "Deal n: …", ["Shuffle: …"], "Deck: …", "Table: …", ["Contract: …"] in this order`);
    }
    if (!rule) {
      const known = keyOf(line.text);
      return p.fail(
        line,
        known
          ? `expected "${known.form}", found "${clip(line.text)}"`
          : `expected a line of the notation (${BODY.map((r) => (r.key === 'trick' ? '"n."' : r.key)).join(', ')}), found "${clip(line.text)}"`,
      );
    }
    rule.apply(rule.pattern.exec(line.text)!, line, p);
    p.last = rule.key;
  }
  if (p.hands !== null) p.fail(p.handsLine, `"Hand 0" is not followed by the hands of seats ${p.hands.length} to 2`);
  if (START_NEXT[p.last]) p.fail(lines.at(-1)!, `the text ends inside a deal's start: expected ${START_NEXT[p.last].map((k) => `"${k}: …"`).join(' or ')}`);
  return p.events;
}

interface HeaderLine {
  expected: string;
  pattern: RegExp;
}
const PLAYER = `(${STRING.slice(1, -1)}|-)`;
const HEADER: HeaderLine[] = [
  { expected: NOTATION_MAGIC, pattern: re(NOTATION_MAGIC) },
  { expected: 'Match: "id"', pattern: re(`Match: ${STRING}`) },
  { expected: 'Players: "name" "name" "name" (- for an open seat)', pattern: re(`Players: ${PLAYER} ${PLAYER} ${PLAYER}`) },
  { expected: `Schedule: ${OPTION_VALUES.schedule.join(' | ')}`, pattern: re(`Schedule: (${OPTION_VALUES.schedule.join('|')})`) },
  { expected: `Options: ${OPTION_KEYS.map((k) => `${k}=…`).join(' ')}`, pattern: re(`Options: ${OPTION_KEYS.map((k) => `${k}=(\\S+)`).join(' ')}`) },
  { expected: 'First dealer: 0 | 1 | 2', pattern: re(`First dealer: ${SEAT}`) },
  { expected: 'Fairness: seeded | provably-fair', pattern: re('Fairness: (seeded|provably-fair)') },
];

/** The optional line after the header: a turn clock's seconds and what a timeout does. */
const CLOCK = re('Clock: ([1-9][0-9]*)s, (standIn)');
/** The optional line after that: the strategy of each bot seat at creation, `-` for a person. */
const BOTS = re(`Bots: ${PLAYER} ${PLAYER} ${PLAYER}`);
/** The optional line after that: the player account each seat is bound to at creation, `-` for none. */
const ACCOUNTS = re(`Accounts: ${PLAYER} ${PLAYER} ${PLAYER}`);
/** The optional line after those: a fork's origin, the match and the version it starts from. */
const FORKED = re(`Forked from: ${STRING} at (0|[1-9][0-9]*)`);
/** The optional line after those: a rematch's origin, the finished match it follows. */
const REMATCH_OF = re(`Rematch of: ${STRING}`);

/** The MatchCreated of the header, and how many lines it took. */
function parseHeader(lines: Line[], p: Parser): { created: Data<'MatchCreated'>; length: number } {
  const m = HEADER.map((h, i) => {
    const line = lines[i];
    if (!line) return p.fail((lines.at(-1)?.number ?? 0) + 1, `expected "${h.expected}", found the end of the text`);
    const match = h.pattern.exec(line.text);
    if (!match) return p.fail(line, `expected "${h.expected}", found "${clip(line.text)}"`);
    return match;
  });
  const choice = <K extends 'scoring' | 'contractChoice' | 'leadBeforeDiscard' | 'fourthRound'>(key: K, value: string): MatchOptions[K] => {
    if (!(OPTION_VALUES[key] as readonly string[]).includes(value)) p.fail(lines[4], `option ${key} is one of ${OPTION_VALUES[key].join(', ')}, not ${value}`);
    return value as MatchOptions[K];
  };
  const flag = (key: string, value: string): boolean => {
    if (value !== 'true' && value !== 'false') p.fail(lines[4], `option ${key} is true or false, not ${value}`);
    return value === 'true';
  };
  const o = m[4];
  const options: MatchOptions = {
    schedule: m[3][1] as MatchOptions['schedule'],
    scoring: choice('scoring', o[1]),
    contractChoice: choice('contractChoice', o[2]),
    spadesInFreeTrump: flag('spadesInFreeTrump', o[3]),
    mustTrump: flag('mustTrump', o[4]),
    leadBeforeDiscard: choice('leadBeforeDiscard', o[5]),
    fourthRound: choice('fourthRound', o[6]),
  };
  const player = (s: string): string | null => (s === '-' ? null : (JSON.parse(s) as string));
  const created: Data<'MatchCreated'> = {
    matchId: JSON.parse(m[1][1]) as string,
    players: [player(m[2][1]), player(m[2][2]), player(m[2][3])],
    options,
    firstDealer: seatOf(m[5][1]),
    seeded: m[6][1] === 'seeded',
  };
  let next = HEADER.length;
  if (lines[next]?.text.startsWith('Clock:')) {
    const line = lines[next++];
    const clock = CLOCK.exec(line.text) ?? p.fail(line, `expected "Clock: seconds s, standIn", found "${clip(line.text)}"`);
    options.clock = { turnSeconds: Number(clock[1]), onTimeout: 'standIn' };
  }
  if (lines[next]?.text.startsWith('Bots:')) {
    const line = lines[next++];
    const bots = BOTS.exec(line.text) ?? p.fail(line, `expected "Bots: "strategy" | - (three times, - for a person)", found "${clip(line.text)}"`);
    created.bots = [player(bots[1]), player(bots[2]), player(bots[3])];
  }
  if (lines[next]?.text.startsWith('Accounts:')) {
    const line = lines[next++];
    const accounts = ACCOUNTS.exec(line.text) ?? p.fail(line, `expected "Accounts: "player id" | - (three times, - for no account)", found "${clip(line.text)}"`);
    created.accounts = [player(accounts[1]), player(accounts[2]), player(accounts[3])];
  }
  if (lines[next]?.text.startsWith('Forked')) {
    const line = lines[next++];
    const forked = FORKED.exec(line.text) ?? p.fail(line, `expected "Forked from: "match id" at version", found "${clip(line.text)}"`);
    created.forkedFrom = { matchId: JSON.parse(forked[1]) as string, version: Number(forked[2]) };
  }
  if (lines[next]?.text.startsWith('Rematch of')) {
    const line = lines[next++];
    const of = REMATCH_OF.exec(line.text) ?? p.fail(line, `expected "Rematch of: "match id"", found "${clip(line.text)}"`);
    created.rematchOf = JSON.parse(of[1]) as string;
  }
  return { created, length: next };
}
