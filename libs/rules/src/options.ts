import { refuse } from './errors';
import type { AskedOptions, ClockOption, Contract, MatchOptions } from './types';

const SCHEDULES: readonly MatchOptions['schedule'][] = ['modern', 'traditional', 'quick'];
const SCORINGS: readonly MatchOptions['scoring'][] = ['zeroSum', 'overOnly'];
const CONTRACT_CHOICES: readonly MatchOptions['contractChoice'][] = ['blind', 'informed'];
const LEADS_BEFORE_DISCARD: readonly MatchOptions['leadBeforeDiscard'][] = ['reject', 'redeal'];
const FOURTH_ROUNDS: readonly MatchOptions['fourthRound'][] = ['none', 'freeTrump', 'freeTrumpBlind'];
/** The values each option that is not a flag may take (the first is not always the default: see resolveOptions). */
export const OPTION_VALUES = {
  schedule: SCHEDULES,
  scoring: SCORINGS,
  contractChoice: CONTRACT_CHOICES,
  leadBeforeDiscard: LEADS_BEFORE_DISCARD,
  fourthRound: FOURTH_ROUNDS,
} as const;

const KNOWN_KEYS = new Set<string>([
  'schedule',
  'scoring',
  'contractChoice',
  'spadesInFreeTrump',
  'mustTrump',
  'leadBeforeDiscard',
  'fourthRound',
  'clock',
]);

/** The bounds of a turn clock, in seconds. */
export const TURN_SECONDS = { min: 5, max: 3600 } as const;

const clockOption = (value: unknown): ClockOption | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) refuse('VALIDATION_FAILED', 'option clock must be an object { turnSeconds, onTimeout }');
  const { turnSeconds, onTimeout, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) refuse('VALIDATION_FAILED', `unknown clock option ${Object.keys(rest)[0]}`);
  if (!Number.isInteger(turnSeconds) || (turnSeconds as number) < TURN_SECONDS.min || (turnSeconds as number) > TURN_SECONDS.max)
    refuse('VALIDATION_FAILED', `option clock.turnSeconds must be a whole number from ${TURN_SECONDS.min} to ${TURN_SECONDS.max}`);
  if (onTimeout !== undefined && onTimeout !== 'standIn') refuse('VALIDATION_FAILED', 'option clock.onTimeout must be standIn');
  return { turnSeconds: turnSeconds as number, onTimeout: 'standIn' };
};

const oneOf = <T>(name: string, value: unknown, allowed: readonly T[], fallback: T): T => {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) refuse('VALIDATION_FAILED', `option ${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

const flag = (name: string, value: unknown, fallback: boolean): boolean => {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') refuse('VALIDATION_FAILED', `option ${name} must be true or false`);
  return value as boolean;
};

/** Fills in the defaults of docs/rules.md and refuses unknown options or values (VALIDATION_FAILED). */
export const resolveOptions = (partial: AskedOptions = {}): MatchOptions => {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial))
    refuse('VALIDATION_FAILED', 'options must be an object');
  for (const key of Object.keys(partial))
    if (!KNOWN_KEYS.has(key)) refuse('VALIDATION_FAILED', `unknown option ${key}`);
  const schedule = oneOf('schedule', partial.schedule, SCHEDULES, 'modern');
  const options: MatchOptions = {
    schedule,
    scoring: oneOf('scoring', partial.scoring, SCORINGS, schedule === 'modern' ? 'zeroSum' : 'overOnly'),
    contractChoice: oneOf('contractChoice', partial.contractChoice, CONTRACT_CHOICES, 'blind'),
    spadesInFreeTrump: flag('spadesInFreeTrump', partial.spadesInFreeTrump, true),
    mustTrump: flag('mustTrump', partial.mustTrump, false),
    leadBeforeDiscard: oneOf('leadBeforeDiscard', partial.leadBeforeDiscard, LEADS_BEFORE_DISCARD, 'reject'),
    fourthRound: oneOf('fourthRound', partial.fourthRound, FOURTH_ROUNDS, 'none'),
  };
  // Only a match with a clock records one: the options of every other match stay as they were.
  const clock = clockOption(partial.clock);
  if (clock) options.clock = clock;
  if (options.fourthRound !== 'none' && options.schedule !== 'traditional')
    refuse('VALIDATION_FAILED', 'a fourth round exists only in the traditional schedule');
  return options;
};

export const dealsInMatch = (options: MatchOptions): number => {
  switch (options.schedule) {
    case 'modern':
      return 12;
    case 'traditional':
      return options.fourthRound === 'none' ? 9 : 12;
    case 'quick':
      return 3;
    default:
      return exhaustive(options.schedule);
  }
};

/**
 * How the contract of deal k (1-based) is settled:
 * - `choose`: forehand picks one of the 4 contracts (modern compendium);
 * - `freeTrump`: the contract is 'trump' and forehand names the suit (traditional fourth round);
 * - `fixed`: the schedule sets it; `trumpFromTable` = the suit of the first table card is trump.
 * `blind`: forehand decides before the 48 cards are dealt (from the table cards alone).
 */
export type DealPlan =
  | { kind: 'choose'; blind: boolean }
  | { kind: 'freeTrump'; blind: boolean }
  | { kind: 'fixed'; contract: Contract; trumpFromTable: boolean };

export const dealPlan = (options: MatchOptions, deal: number): DealPlan => {
  switch (options.schedule) {
    case 'modern':
      return { kind: 'choose', blind: options.contractChoice === 'blind' };
    case 'traditional':
      if (deal <= 3) return { kind: 'fixed', contract: 'trump', trumpFromTable: true };
      if (deal <= 6) return { kind: 'fixed', contract: 'notrump', trumpFromTable: false };
      if (deal <= 9) return { kind: 'fixed', contract: 'pass', trumpFromTable: false };
      return { kind: 'freeTrump', blind: options.fourthRound === 'freeTrumpBlind' };
    case 'quick':
      if (deal === 1) return { kind: 'fixed', contract: 'trump', trumpFromTable: true };
      if (deal === 2) return { kind: 'fixed', contract: 'notrump', trumpFromTable: false };
      return { kind: 'fixed', contract: 'pass', trumpFromTable: false };
    default:
      return exhaustive(options.schedule);
  }
};

export const exhaustive = (value: never): never => {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
};
