import { evolve, initialState, nothingSecret, type BismarckEvent, type MatchState } from '@bismarck/rules';

/**
 * A match folded up to `version`. `checkpoint`: the last version at which nothing was secret (no
 * deal under way), the newest point of the hash chain that may be shown to anyone.
 */
export interface FoldedMatch {
  version: number;
  state: MatchState;
  checkpoint: number;
}

export const UNBORN: FoldedMatch = { version: 0, state: initialState(), checkpoint: 0 };

/** Folds the events that follow `from` (versions from.version + 1, …), moving the checkpoint along. */
export function foldOnto(from: FoldedMatch, events: readonly BismarckEvent[]): FoldedMatch {
  let { version, state, checkpoint } = from;
  for (const event of events) {
    state = evolve(state, event);
    version += 1;
    if (nothingSecret(state)) checkpoint = version;
  }
  return { version, state, checkpoint };
}
