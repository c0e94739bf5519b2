import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { EventStore } from '@bismarck/event-store';
import { idleLobbyTables } from '@bismarck/projections';
import { RuleViolation } from '@bismarck/rules';
import { appConfig } from '../config/app.config';
import { MatchWriter } from '../matches/match-writer.service';
import { ProblemException } from '../problem/problem';

const PER_SWEEP = 100;

/**
 * Closes lobby tables nobody joined for LOBBY_TTL_MS (TableAbandoned), so that the waiting list shows
 * tables a player can still get a game at. Every instance may sweep: the writer's version check lets
 * one abandonment through, and a table joined meanwhile (after the scan found it idle) is left alone.
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
    for (const { id, version } of await idleLobbyTables(this.store.queryable, this.config.lobbyTtlMs, PER_SWEEP)) {
      try {
        // Only at the version found idle: a seat taken since is a change, and the table stays open.
        await this.writer.handle(id, { type: 'abandonTable' }, { expectedVersion: version, answer: () => undefined });
        abandoned++;
      } catch (err) {
        // Joined (or abandoned) meanwhile: filled (a rule refuses), or changed since it was found idle.
        if (!(err instanceof RuleViolation) && !(err instanceof ProblemException && err.code === 'VERSION_MISMATCH')) throw err;
      }
    }
    return abandoned;
  }
}
