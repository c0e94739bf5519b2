// Which matches are rated (API.md: every seat a registered player or a bot, not seeded, not a fork).
import type { Identity } from './identity';

/** The facts of a match that decide whether it is rated; a seat is null for an anonymous person. */
export interface MatchFacts {
  readonly finished: boolean;
  readonly seeded: boolean;
  readonly forked: boolean;
  readonly seats: readonly (Identity | null)[];
}

/**
 * Rated when finished, not seeded (a chosen deck is not a fair game), not a fork (its start was
 * played by others) and every seat is a player or a bot. A fork is always seeded; both are asked so
 * the rule reads as the contract does.
 */
export const isRated = (match: MatchFacts): boolean =>
  match.finished && !match.seeded && !match.forked && match.seats.length === 3 && match.seats.every((s) => s !== null);
