import { refuse } from './errors';
import type { Contract, MatchOptions } from './types';

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
]);

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
export const resolveOptions = (partial: Partial<MatchOptions> = {}): MatchOptions => {
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
