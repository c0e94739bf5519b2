// libs/ratings: OpenSkill ratings of finished matches, pure. See README.md for its guarantees.
export { type BotIdentity, type Identity, BOT_PREFIX, botIdentity, isBotIdentity, seatIdentity } from './identity';
export { type MatchFacts, isRated } from './rated';
export { type RatedMatch, type Rating, type RatingView, type Triple, DEFAULT_RATING, MODEL, ranksOf, rateMatch, ratingView } from './rate';
export { type RatingEntry, applyInOrder, leaderboardOrder } from './table';
