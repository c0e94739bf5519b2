import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { join } from 'node:path';
import type { Piscina } from 'piscina';
import type { BotAction } from '@bismarck/bots';
import { appConfig } from '../config/app.config';
import { workerPool } from '../workers/worker-pool';
import { decideBot, type BotTask } from './bot-decision';
import { PeopleFirst } from './people-first';

/**
 * Where bot decisions are computed: a small pool of worker threads (BOT_THREADS, default 1), so that
 * a strategy's search (the strong bot may think for ~300 ms) never blocks the event loop that serves
 * requests. BOT_THREADS=0 decides in this thread instead. The task holds only the bot seat's view and
 * the history its seat saw. Matches a person sits in are decided first (PeopleFirst).
 */
@Injectable()
export class BotDecider implements OnModuleDestroy {
  private readonly pool: Piscina | null;
  private readonly gate = new PeopleFirst();

  constructor(@Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.pool = BotDecider.pool(config.botThreads);
  }

  /** A pool of `threads` worker threads, or null (decide in this thread). */
  static pool(threads: number): Piscina | null {
    // Threads start with the first decision and end after a minute without one.
    return threads === 0 ? null : workerPool(join(__dirname, 'bot-decider.worker'), { threads });
  }

  /** True when decisions run in worker threads. */
  get threaded(): boolean {
    return this.pool !== null;
  }

  /** The bot's move; `withPeople`: a person sits in the match (it goes before matches of bots only). */
  decide(task: BotTask, withPeople: boolean): Promise<BotAction | null> {
    const pool = this.pool;
    return this.gate.run(withPeople, () => (pool ? (pool.run(task) as Promise<BotAction | null>) : Promise.resolve().then(() => decideBot(task))));
  }

  /** Refuses the bot-only decisions still waiting for their turn: a stopping process does not wait for them. */
  close(): void {
    this.gate.close();
  }

  async onModuleDestroy(): Promise<void> {
    this.close();
    await this.pool?.destroy();
  }
}
