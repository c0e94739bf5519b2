import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';

/**
 * Work every instance does now and then on the matches of all instances (closing idle lobby tables,
 * timing out persons whose clock ran out): one sweep at a time per process, started every `everyMs`
 * once the app is up, awaited when it stops. The log's version checks keep instances from doing one
 * thing twice.
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  protected readonly logger: Logger;

  protected constructor(private readonly what: string) {
    this.logger = new Logger(what);
  }

  /** How often to sweep, in milliseconds; null: never (only when called). */
  protected abstract everyMs(): number | null;

  /** One sweep; answers how many matches it changed. */
  protected abstract sweepOnce(): Promise<number>;

  onApplicationBootstrap(): void {
    const every = this.everyMs();
    if (every === null) return;
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => this.logger.warn(`${this.what}: ${String(err)}`)), every);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** Sweeps now (or joins the sweep under way); answers how many matches it changed. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }
}
