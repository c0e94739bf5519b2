import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { join } from 'node:path';
import type { Piscina } from 'piscina';
import type { SeatMove } from '@bismarck/rules';
import { appConfig } from '../../platform/config/app.config';
import { workerPool } from '../../platform/workers/worker-pool';
import { decideBot, underLoad, type BotTask } from './bot-decision';
import { FairQueue, type Turn } from './fair-queue';

/**
 * Where bot decisions are computed: a small pool of worker threads (BOT_THREADS, default 1), so that
 * a strategy's search (the strong bot may think for ~200 ms) never blocks the event loop that serves
 * requests. BOT_THREADS=0 decides in this thread instead. The task holds only the bot seat's view and
 * the history its seat saw. Which decision goes next is the FairQueue's choice (people first, then
 * round-robin by person and by match); a strong decision that starts with many waiting thinks less.
 */
@Injectable()
export class BotDecider implements OnModuleDestroy {
  private readonly pool: Piscina | null;
  private readonly queue: FairQueue;
  private readonly capacity: number;

  constructor(
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.pool = BotDecider.pool(config.botThreads, config.botNice);
    // As many decisions at once as there are threads: the pool's own queue stays empty, the order is ours.
    this.capacity = Math.max(1, config.botThreads);
    this.queue = new FairQueue(this.capacity);
  }

  /** A pool of `threads` worker threads at `nice` below the event loop's priority, or null (decide in this thread). */
  static pool(threads: number, nice = 0): Piscina | null {
    // Threads start with the first decision and end after a minute without one.
    return threads === 0 ? null : workerPool(join(__dirname, 'bot-decider.worker'), { threads, niceIncrement: nice });
  }

  /** True when decisions run in worker threads. */
  get threaded(): boolean {
    return this.pool !== null;
  }

  /** Decisions waiting for their turn. */
  get queued(): number {
    return this.queue.queued;
  }

  /**
   * The bot's move for `turn` (a match with people goes before matches of bots only); it comes
   * round-robin by the person it is played for, then by match.
   */
  decide(task: BotTask, turn: Turn): Promise<SeatMove | null> {
    // A decision that costs next to nothing (a random or greedy bot, a stand-in rushed or out of time)
    // is made here at once: its turn in the queue and a round trip to a thread would cost more than it,
    // and a thousand stand-ins after a thousand timeouts would wait behind each other's round trips.
    const cheap = underLoad(task, turn, { waiting: this.queue.queued, capacity: this.capacity });
    if (cheap.strategy !== 'strong') return Promise.resolve().then(() => decideBot(cheap));
    const pool = this.pool;
    return this.queue.run(turn, (load) => {
      const loaded = underLoad(task, turn, load);
      return pool ? (pool.run(loaded) as Promise<SeatMove | null>) : Promise.resolve().then(() => decideBot(loaded));
    });
  }

  /** Refuses the decisions still waiting for their turn: a stopping process does not wait for them. */
  close(): void {
    this.queue.close();
  }

  async onModuleDestroy(): Promise<void> {
    this.close();
    await this.pool?.destroy();
  }
}
