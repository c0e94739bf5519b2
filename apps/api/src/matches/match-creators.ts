import { Injectable } from '@nestjs/common';

/** Matches whose creator this process remembers (~150 bytes each); the oldest are forgotten first. */
const REMEMBERED = 50_000;

/**
 * Who created each match, for the fair shares of the bots' time (docs/bots.md, "Fair shares"): the
 * client address of the request that created it (`clientAddress`: `req.ip`, after `TRUST_PROXY`), kept
 * in this process's memory only, like the rate limiter's counts. Never in the log, whose events are
 * public, nor in any table. A match this process did not create (another instance's, one from before a
 * restart, one forgotten) is its own creator.
 */
@Injectable()
export class MatchCreators {
  private readonly creators = new Map<string, string>();

  /** Remembers `creator` for `matchId` (called before the match's first append, so its bots find it). */
  remember(matchId: string, creator: string | undefined): void {
    if (creator === undefined) return;
    this.creators.delete(matchId);
    this.creators.set(matchId, creator);
    if (this.creators.size > REMEMBERED) this.creators.delete(this.creators.keys().next().value!);
  }

  /** The creator's key: `address:<address>`, or `match:<id>` when not known here. */
  of(matchId: string): string {
    const address = this.creators.get(matchId);
    return address === undefined ? `match:${matchId}` : `address:${address}`;
  }
}
