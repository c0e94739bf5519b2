// Provably fair deals (docs/fairness.md): the server commits to a secret seed before the deal, the
// seat on the dealer's right cuts (a string of its choice), and the deck is shuffled from both.
// Neither alone can choose the deck: the seed is fixed (committed) before the cut is known, and the
// cutter cannot know the seed. After the deal is scored the seed is revealed and anyone can recompute.
import { createHmac } from 'node:crypto';
import { refuse } from './errors';
import { CUT_PATTERN, MAX_MARKS_IN_A_ROW } from './printable';
import { evolve } from './evolve';
import { endsTheDeal, type MatchState, type StartedMatch } from './state';
import type { BismarckEvent, Cut, DealerFacts, Seat } from './types';

/** The rule of a cut in plain words, as a refusal states it ("a cut is …", "cut must be …"). */
export const CUT_RULE =
  '1 to 64 printable characters (letters, marks, numbers, punctuation, symbols and spaces, not only spaces; ' +
  `at most ${MAX_MARKS_IN_A_ROW} combining marks in a row; no control, invisible format or separator character, ` +
  'nor a private-use or unassigned one below U+10000), counted after NFC normalisation';

/** The longest cut, in code points (of its NFC form). */
export const CUT_MAX_LENGTH = 64;

/**
 * What a cut may hold: any printable character and the ordinary space, and no long run of combining marks.
 * Everything else (controls, the invisible format characters such as bidi overrides, zero-width ones and
 * tags, line and paragraph separators, other spaces, private-use and unassigned code points of the BMP,
 * noncharacters and lone surrogates) could make two cuts look alike on a screen or hide text in a log.
 * The same pattern is the OpenAPI document's (printable.ts); the `u` flag reads the text by code points.
 */
const CUT_CHARACTERS = new RegExp(CUT_PATTERN, 'u');

/**
 * The cut as it is recorded and mixed into the shuffle: its NFC form, or null when it breaks the rule.
 * Normalised first, so "Bjørn" typed with a combining mark and "Bjørn" precomposed are one cut, one
 * deck, and the audit recomputes from the recorded bytes. An ASCII string is its own NFC form: every
 * cut recorded under the earlier ASCII-only rule is unchanged.
 */
export const normalCut = (cut: unknown): string | null => {
  if (typeof cut !== 'string') return null;
  const normal = cut.normalize('NFC');
  // NFC leaves a lone surrogate as it is: it is no character (and PostgreSQL would not store it).
  return [...normal].length <= CUT_MAX_LENGTH && !/\p{Cs}/u.test(normal) && CUT_CHARACTERS.test(normal) ? normal : null;
};

/** The seat that cuts: the one on the dealer's right. */
export const cutterOf = (dealer: Seat): Seat => ((dealer + 2) % 3) as Seat;

/**
 * The key the deck is shuffled with: the seed itself when nobody cut, else
 * HMAC-SHA256(key = seed, message = "cut:" + cut) as lowercase hex, both as UTF-8 bytes (the cut in
 * its recorded, NFC form).
 */
export const deckKey = (seed: string, cut: string | null): string =>
  cut === null ? seed : createHmac('sha256', seed).update(`cut:${cut}`).digest('hex');

export const cut = (command: Cut, state: StartedMatch): BismarckEvent[] => {
  if (state.status !== 'awaitingDeal') return refuse('WRONG_PHASE', 'the deck is cut before it is dealt');
  if (command.seat !== 0 && command.seat !== 1 && command.seat !== 2) return refuse('VALIDATION_FAILED', 'seat must be 0, 1 or 2');
  const cutter = cutterOf(state.dealer);
  if (command.seat !== cutter) return refuse('NOT_YOUR_TURN', `seat ${cutter}, on the dealer's right, cuts`);
  if (state.cut !== null) return refuse('WRONG_PHASE', 'the deck has been cut already');
  const normal = normalCut(command.cut);
  if (normal === null) return refuse('VALIDATION_FAILED', `a cut is ${CUT_RULE}`);
  return [{ type: 'DeckCut', data: { deal: state.upcomingDeal, seat: cutter, cut: normal } }];
};

const LEADS_TO_A_DEAL = new Set<BismarckEvent['type']>(['MatchCreated', 'SeatJoined', 'DealScored', 'DealVoided']);

/**
 * The dealer's events around a decision: the seeds of a deal revealed right after its DealScored,
 * then a commitment to the next deck whenever the decision leaves the match waiting for a deal with
 * none (a new match, the last seat joined, a deal scored or voided). A seeded match commits nothing.
 */
export const withDealer = (decided: BismarckEvent[], before: MatchState, facts: DealerFacts | undefined): BismarckEvent[] => {
  // Only these can leave a match waiting for a deal: most decisions (a card played) skip the fold.
  if (!facts || !decided.some((e) => LEADS_TO_A_DEAL.has(e.type))) return decided;
  const events: BismarckEvent[] = [];
  let state = before;
  for (const event of decided) {
    events.push(event);
    state = evolve(state, event);
    if (event.type !== 'DealScored') continue;
    for (const { deal, commitment, seed } of facts.seeds ?? []) {
      if (deal === event.data.deal) events.push({ type: 'SeedRevealed', data: { deal, commitment, seed } });
    }
  }
  if (facts.commitment !== undefined && state.status === 'awaitingDeal' && state.commitment === null && !state.seeded) {
    events.push({ type: 'DeckCommitted', data: { deal: state.upcomingDeal, commitment: facts.commitment } });
  }
  return events;
};

/**
 * The deal whose seeds a decision on `state` may reveal, asked before it is decided so that the
 * dealer reads them only then: the deal in play when its last card is due. Null otherwise, and for a
 * seeded match, which commits to nothing.
 */
export const dealToReveal = (state: MatchState): number | null =>
  state.status === 'trickPlay' && !state.seeded && endsTheDeal(state) ? state.dealNumber : null;
