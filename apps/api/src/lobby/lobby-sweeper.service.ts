import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { EventStore } from '@bismarck/event-store';
import { idleLobbyTables } from '@bismarck/projections';
import { RuleViolation } from '@bismarck/rules';
import { appConfig } from '../config/app.config';
import { MatchWriter } from '../matches/match-writer.service';

const PER_SWEEP = 100;

/**
 * Closes lobby tables nobody joined for LOBBY_TTL_MS (TableAbandoned), so that the waiting list shows
 * tables a player can still get a game at. Every instance may sweep: the writer's version check lets
 * one abandonment through, and a table joined meanwhile is refused by the rules and left alone.
 */
@Injectable()
export class LobbySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LobbySweeper');
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly writer: MatchWriter,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.lobbyTtlMs === 0) return;
    this.timer = setInterval(() => void this.sweep().catch((err: unknown) => this.logger.warn(`lobby sweep: ${String(err)}`)), this.config.lobbySweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** Abandons the idle tables found now; answers how many. One sweep at a time per process. */
  sweep(): Promise<number> {
    this.sweeping ??= this.abandonIdle().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async abandonIdle(): Promise<number> {
    let abandoned = 0;
    for (const id of await idleLobbyTables(this.store.queryable, this.config.lobbyTtlMs, PER_SWEEP)) {
      try {
        await this.writer.handle(id, () => ({ type: 'abandonTable' }), { answer: () => undefined });
        abandoned++;
      } catch (err) {
        if (!(err instanceof RuleViolation)) throw err; // joined (or abandoned) meanwhile
      }
    }
    return abandoned;
  }
}
