// One bot decision, as a pure function of what the bot's seat may see: run in a worker thread
// (bot-decider.worker.ts) or, without one, in the api's own thread.
import { randomBytes } from 'node:crypto';
import { chooseAction, STRONG_DEFAULTS, type DealHistory, type StrategyName } from '@bismarck/bots';
import type { SeatMove, SeatView } from '@bismarck/rules';
import type { Load, Turn } from './fair-queue';

/** What the strong bot may spend on one decision: deals drawn at most, and milliseconds. */
export interface Budget {
  readonly samples: number;
  readonly budgetMs: number;
}

/** What a bot decides from: its seat's view and the deal in progress as that seat saw it. Nothing else. */
export interface BotTask {
  readonly strategy: StrategyName;
  readonly view: SeatView;
  readonly history: DealHistory;
  /** Set by the decider under load (strongBudget); absent, the strategy's defaults. */
  readonly budget?: Budget;
}

/**
 * The fewest deals, and milliseconds, a strong decision is given however many wait: a person waits
 * for one round of the queue per bot move (round-robin by person), so at 40 people the round must stay
 * well under half a second for a trick's two bot moves to answer within a second.
 */
export const LEAST_BUDGET: Budget = { samples: 4, budgetMs: 8 };

/**
 * What a strong decision may spend when it starts with `load.waiting` decisions behind it: the
 * defaults (128 deals, 200 ms) while fewer wait than there are threads; beyond that each thread's share
 * shrinks with the queue, 1 / (1 + waiting per thread) of the defaults, down to LEAST_BUDGET. A queue
 * of 40 then costs about 40 × 8 ms, not 40 × 200 ms, and drains rather than grows.
 */
export function strongBudget(load: Load): Budget | undefined {
  const perThread = load.waiting / load.capacity;
  if (perThread < 1) return undefined;
  const share = 1 / (1 + perThread);
  return {
    samples: Math.max(LEAST_BUDGET.samples, Math.round(STRONG_DEFAULTS.samples * share)),
    budgetMs: Math.max(LEAST_BUDGET.budgetMs, Math.round(STRONG_DEFAULTS.budgetMs * share)),
  };
}

/**
 * Decisions waiting per thread beyond which a stand-in plays greedy: it moves for a person whose time
 * ran out, late already, and many clocks running out together must not wait behind each other's
 * searches (some milliseconds each even at the strong bot's least budget, and a move's append besides).
 */
export const STAND_IN_RUSH = 20;

/**
 * The task as it runs under `load`, at `now`: a strong bot thinks less while many wait; a stand-in
 * thinks at most until its move is due (`turn.dueBy`), and plays greedy when rushed or out of time.
 */
export function underLoad(task: BotTask, turn: Turn, load: Load, now = Date.now()): BotTask {
  if (task.strategy !== 'strong') return task;
  const budget = strongBudget(load);
  if (turn.standIn !== true) return budget ? { ...task, budget } : task;
  const left = turn.dueBy === undefined ? Infinity : turn.dueBy - now;
  if (load.waiting / load.capacity >= STAND_IN_RUSH || left < LEAST_BUDGET.budgetMs) return { ...task, strategy: 'greedy' };
  const given = budget ?? STRONG_DEFAULTS;
  if (left >= given.budgetMs) return budget ? { ...task, budget } : task;
  return { ...task, budget: { samples: given.samples, budgetMs: Math.floor(left) } };
}

/**
 * Uniform in [0, 1) from the operating system's generator: a bot's random choices (its cut, a
 * random bot's card) must not be predictable by its opponents, which Math.random's state could be.
 */
const secureRandom = (): number => randomBytes(6).readUIntBE(0, 6) / 2 ** 48;

export const decideBot = (task: BotTask): SeatMove | null =>
  chooseAction(task.view, task.strategy, { random: secureRandom, history: task.history, ...task.budget });
