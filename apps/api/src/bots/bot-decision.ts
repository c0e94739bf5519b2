// One bot decision, as a pure function of what the bot's seat may see: run in a worker thread
// (bot-decider.worker.ts) or, without one, in the api's own thread.
import { randomBytes } from 'node:crypto';
import { chooseAction, type BotAction, type DealHistory, type StrategyName } from '@bismarck/bots';
import type { SeatView } from '@bismarck/rules';

/** What a bot decides from: its seat's view and the deal in progress as that seat saw it. Nothing else. */
export interface BotTask {
  readonly strategy: StrategyName;
  readonly view: SeatView;
  readonly history: DealHistory;
}

/**
 * Uniform in [0, 1) from the operating system's generator: a bot's random choices (its cut, a
 * random bot's card) must not be predictable by its opponents, which Math.random's state could be.
 */
const secureRandom = (): number => randomBytes(6).readUIntBE(0, 6) / 2 ** 48;

export const decideBot = (task: BotTask): BotAction | null =>
  chooseAction(task.view, task.strategy, { random: secureRandom, history: task.history });
