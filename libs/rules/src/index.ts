// libs/rules: the game of Bismarck as a pure decider. See README.md for its guarantees.
export * from './types';
export { RuleViolation } from './errors';
export { resolveOptions, dealsInMatch, dealPlan, OPTION_VALUES, TURN_SECONDS, type DealPlan } from './options';
export { standInDue, turnClock, turnDue } from './clock';
export { freshDeck, parseCard, cardCode, isCardCode, sortCodes, SUITS, RANKS, type CardSet, fromCards, toCodes } from './cards';
export { quotas, points, winnersOf, CONTRACTS } from './scoring';
export { type MatchState, initialState, evolve, fold, seatToAct, TRICKS_PER_DEAL } from './state';
export { decide, dealHands, forkableVersions } from './decide';
export { notForkable, type CopiedShuffle } from './fork';
export { recordedMove } from './recorded';
export { legalActions, legalPlays, trickWinner, playableSuits, voidsShown, beats } from './legal';
export { publicView, seatView, seatOwn, scorecard, changesScorecard, redactEvent, isDealRevealed, nothingSecret, visibleEvents, dealOf } from './views';
export { SHUFFLE_ALGORITHM, shuffleDeck, newServerSeed, sha256Hex } from './shuffle';
export { deckKey, cutterOf, CUT_RULE, CUT_MAX_LENGTH, normalCut, dealToReveal } from './fairness';
export { CUT_PATTERN, MAX_MARKS_IN_A_ROW, NO_HIDDEN_TEXT } from './printable';
export { randomCommand, playRandomMatch, mulberry32, type RandomPlay, type PlayedMatch } from './simulate';
