import { Injectable, Logger } from '@nestjs/common';
import type { BismarckEvent } from '@bismarck/rules';
import type { FoldedMatch } from '@bismarck/match';
import type { StreamTimes } from '@bismarck/projections';

/** An append this process committed: its events (the first at version `from`) and the match folded after them. */
export interface Committed {
  matchId: string;
  from: number;
  events: readonly BismarckEvent[];
  folded: FoldedMatch & StreamTimes;
}

export type CommitFollower = (committed: Committed) => void;

/**
 * The appends this process commits, in commit order, for whoever acts on them here: the bot runner,
 * the live channels, the ratings. Beside the event store: the writer of matches publishes, the
 * followers need not know it. Each gets the writer's fold, so no follower folds the same events
 * again. Delivered a microtask after the writer published (still before its caller resumes): the
 * writer calls nothing that calls it back. A follower should only take note or schedule work.
 */
@Injectable()
export class CommitFeed {
  private readonly logger = new Logger('CommitFeed');
  private readonly followers = new Set<CommitFollower>();

  /** Returns the function that stops following. */
  follow(follower: CommitFollower): () => void {
    this.followers.add(follower);
    return () => this.followers.delete(follower);
  }

  publish(committed: Committed): void {
    if (this.followers.size === 0) return;
    queueMicrotask(() => {
      for (const follower of this.followers) {
        try {
          follower(committed);
        } catch (error) {
          this.logger.warn(`commit follower: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
  }
}
