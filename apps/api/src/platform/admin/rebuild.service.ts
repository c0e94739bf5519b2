import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '@bismarck/event-store';
import { ProjectionRebuilder, type RebuildStats, type TableDifference } from '@bismarck/projections';

export interface RebuildReport extends RebuildStats {
  /** How the live tables differed from the log's replay before the swap (all zero: nothing had drifted). */
  differences: TableDifference[];
}

/** Rebuilds every projection from the log into fresh tables, compares, and makes them live. */
@Injectable()
export class RebuildService {
  constructor(
    private readonly store: EventStore,
    private readonly db: DataSource,
  ) {}

  rebuilder(): ProjectionRebuilder {
    return new ProjectionRebuilder(this.store, this.db, (work) => this.db.transaction((manager) => work(manager)));
  }

  async rebuild(): Promise<RebuildReport> {
    const rebuilder = this.rebuilder();
    const stats = await rebuilder.rebuild();
    const differences = await rebuilder.compare();
    await rebuilder.swap();
    return { ...stats, differences };
  }
}
