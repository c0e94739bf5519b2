import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { BotAction } from '@bismarck/bots';
import { appConfig } from '../config/app.config';
import { decideBot, type BotTask } from './bot-decision';

/** The compiled worker entry beside this file; none when the api runs from its TypeScript sources (jest). */
export const BOT_WORKER_FILE = join(__dirname, 'bot-decider.worker.js');

/**
 * Where bot decisions are computed: a small pool of worker threads (piscina; BOT_THREADS, default 1),
 * so that a strategy's search (the strong bot may think for ~300 ms) never blocks the event loop that
 * serves requests. BOT_THREADS=0, or running from sources without a compiled worker, decides in this
 * thread instead. The task holds only the bot seat's view and the history its seat saw.
 */
@Injectable()
export class BotDecider implements OnModuleDestroy {
  private readonly logger = new Logger('BotDecider');
  private readonly pool: Piscina | null;

  constructor(@Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.pool = BotDecider.pool(config.botThreads, BOT_WORKER_FILE);
    if (!this.pool && config.botThreads > 0) this.logger.debug('no compiled bot worker beside the sources: bots decide in the main thread');
  }

  /** A pool of `threads` workers running `file`, or null (decide in this thread). */
  static pool(threads: number, file: string): Piscina | null {
    if (threads === 0 || !existsSync(file)) return null;
    // Threads start with the first decision and end after a minute without one.
    return new Piscina({ filename: file, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  /** True when decisions run in worker threads. */
  get threaded(): boolean {
    return this.pool !== null;
  }

  decide(task: BotTask): Promise<BotAction | null> {
    if (!this.pool) return Promise.resolve().then(() => decideBot(task));
    return this.pool.run(task) as Promise<BotAction | null>;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.destroy();
  }
}
