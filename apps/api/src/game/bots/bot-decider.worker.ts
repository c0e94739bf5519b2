// The entry of the bot decision threads (piscina loads it in each worker): the same pure decision,
// off the api's event loop, so a strategy that thinks for 300 ms holds no request up.
import { decideBot, type BotTask } from './bot-decision';
import type { SeatMove } from '@bismarck/rules';

export default function decide(task: BotTask): SeatMove | null {
  return decideBot(task);
}
