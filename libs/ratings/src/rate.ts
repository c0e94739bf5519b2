// One rated match → the new ratings of its identities: OpenSkill (Weng-Lin), Plackett–Luce, one
// player per team, ranked by the final totals.
import { ordinal, rate } from 'openskill';
import { plackettLuce } from 'openskill/models';
import type { Identity } from './identity';

export type Triple<T> = readonly [T, T, T];

/** A skill belief: mean and standard deviation (OpenSkill's units, 25 ± 25/3 for a newcomer). */
export interface Rating {
  readonly mu: number;
  readonly sigma: number;
}
/** What the API shows: the rating and its ordinal, mu − 3σ (the leaderboard's key). */
export interface RatingView extends Rating {
  readonly ordinal: number;
}

/**
 * Every model constant, pinned. They are openskill 5.0.1's defaults today (a test says so); writing
 * them here means a new release that changed a default could not silently change a rebuild.
 * `rate` defaults to Plackett–Luce too; it is named so the choice is visible.
 */
export const MODEL = Object.freeze({
  model: plackettLuce,
  mu: 25,
  sigma: 25 / 3,
  beta: 25 / 6,
  tau: 25 / 300,
  kappa: 1e-4,
  limitSigma: false,
  balance: false,
  z: 3,
  alpha: 1,
  target: 0,
});

/** A newcomer's rating (no rated match yet). */
export const DEFAULT_RATING: Rating = Object.freeze({ mu: MODEL.mu, sigma: MODEL.sigma });

export const ratingView = (rating: Rating): RatingView => ({
  mu: rating.mu,
  sigma: rating.sigma,
  ordinal: ordinal(rating, MODEL),
});

/** The final standings of a rated match: who sat where, and each seat's total. */
export interface RatedMatch {
  readonly seats: Triple<Identity>;
  readonly totals: Triple<number>;
}

/** Competition ranks from totals, 1 = best: a higher total ranks better, equal totals share a rank. */
export const ranksOf = (totals: Triple<number>): Triple<number> =>
  totals.map((t) => 1 + totals.filter((other) => other > t).length) as unknown as Triple<number>;

/**
 * The new rating of every identity of the match, in seat order; `current` gives an identity's rating
 * so far (undefined: a newcomer). Pure and deterministic: no clock, no randomness, and the same
 * arithmetic in the same order every time, so a rebuild gives the same bits.
 *
 * One identity on several seats (two `bot:greedy` seats, a person who took two seats): OpenSkill wants
 * distinct players, so each seat is rated as a player of its own, all from the identity's one prior,
 * and the identity's new rating is the mean (mu and sigma, summed in seat order) of its seats'
 * results. An identity alone at the table (all three seats) played nobody else: the match tells
 * nothing about it, and the result is empty.
 */
export const rateMatch = (match: RatedMatch, current: (id: Identity) => Rating | undefined): Map<Identity, Rating> => {
  const { seats, totals } = match;
  if (seats.length !== 3 || totals.length !== 3 || !totals.every(Number.isFinite)) {
    throw new RangeError(`a rated match has three seats and three finite totals: ${JSON.stringify(match)}`);
  }
  const identities = [...new Set(seats)];
  if (identities.length === 1) return new Map();
  const prior = new Map(identities.map((id) => [id, current(id) ?? DEFAULT_RATING]));
  const teams = seats.map((id) => {
    const { mu, sigma } = prior.get(id)!;
    return [{ mu, sigma }];
  });
  const rated = rate(teams, { ...MODEL, rank: [...ranksOf(totals)] });
  return new Map(
    identities.map((id) => {
      const mine = rated.filter((_, seat) => seats[seat] === id).map(([r]) => r);
      const mean = (pick: (r: Rating) => number) => mine.reduce((sum, r) => sum + pick(r), 0) / mine.length;
      return [id, mine.length === 1 ? { mu: mine[0].mu, sigma: mine[0].sigma } : { mu: mean((r) => r.mu), sigma: mean((r) => r.sigma) }];
    }),
  );
};
