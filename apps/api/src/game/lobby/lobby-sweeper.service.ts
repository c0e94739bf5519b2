import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { EventStore } from '@bismarck/event-store';
import { idleLobbyTables } from '@bismarck/projections';
import { RuleViolation } from '@bismarck/rules';
import { appConfig } from '../../platform/config/app.config';
import { MatchCommands } from '../matches/match-commands.service';
import { ProblemException } from '../../platform/problem/problem';
import { PeriodicSweep } from '../../platform/sweeps/periodic-sweep';

const PER_SWEEP = 100;

/**
 * Closes lobby tables nobody joined for LOBBY_TTL_MS (TableAbandoned), so that the waiting list shows
 * tables a player can still get a game at. Every instance may sweep: the writer's version check lets
 * one abandonment through, and a table joined meanwhile (after the scan found it idle) is left alone.
 */
@Injectable()
export class LobbySweeper extends PeriodicSweep {
  constructor(
    private readonly store: EventStore,
    private readonly commands: MatchCommands,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {
    super('LobbySweeper');
  }

  protected everyMs(): number | null {
    return this.config.lobbyTtlMs === 0 ? null : this.config.lobbySweepMs;
  }

  /** Abandons the idle tables found now; answers how many. */
  protected async sweepOnce(): Promise<number> {
    let abandoned = 0;
    for (const { id, version } of await idleLobbyTables(this.store.queryable, this.config.lobbyTtlMs, PER_SWEEP)) {
      try {
        // Only at the version found idle: a seat taken since is a change, and the table stays open.
        await this.commands.abandon(id, version);
        abandoned++;
      } catch (err) {
        // Joined (or abandoned) meanwhile: filled (a rule refuses), or changed since it was found idle.
        if (!(err instanceof RuleViolation) && !(err instanceof ProblemException && err.code === 'VERSION_MISMATCH')) throw err;
      }
    }
    return abandoned;
  }
}
