import { decide, type BismarckEvent, type Command, type MatchState } from '@bismarck/rules';

/** The rules' decision, as the write path takes it: decide(command, state) → events, or a RuleViolation. */
export interface MatchDecider {
  decide(command: Command, state: MatchState): BismarckEvent[];
}

/** Nest's token for the decider the MatchWriter runs (the rules'; a test may watch its calls). */
export const MATCH_DECIDER = Symbol('MATCH_DECIDER');

/** A fresh object per application, so that watching one application's decisions leaves the others alone. */
export const rulesDecider = (): MatchDecider => ({ decide });
