// Random whole matches for the notation's tests: every schedule and variant, lobby tables, provably
// fair deals (commitments, cuts, reveals) and seeded ones, voided deals, made by the rules' own
// decide/evolve with random legal commands (libs/rules simulate.ts).
import {
  cutterOf,
  decide,
  evolve,
  initialState,
  mulberry32,
  randomCommand,
  sha256Hex,
  shuffleDeck,
  SHUFFLE_ALGORITHM,
  type BismarckEvent,
  type Command,
  type DealerFacts,
  type MatchOptions,
  type MatchState,
  type Triple,
} from '@bismarck/rules';

export interface MatchPlan {
  seed: number;
  options: Partial<MatchOptions>;
  names: Triple<string>;
  /** Provably fair (commitments and reveals) rather than seeded. */
  fair: boolean;
  /** Seats 1 and 2 join a lobby table (only when fair: a seeded match takes no strangers). */
  lobby: boolean;
  /** The lobby table is closed instead. */
  abandon: boolean;
  /** Chance that the cutter cuts before a deal. */
  cut: number;
  /** Chance that forehand leads before laying away (voids the deal under leadBeforeDiscard=redeal). */
  earlyLead: number;
  /** DealStarted records how the deck was made (as the service does), or not (as simulate does). */
  shuffleRecord: boolean;
  /** Seats the service plays (at creation, or joining a lobby table as a bot); seat 0 is a person. */
  bots?: Triple<string | null>;
}

export interface PlayedLog {
  events: BismarckEvent[];
  /** The log's length after each decision: where a log can end (a decision appends all its events or none). */
  ends: number[];
}

export function playMatch(plan: MatchPlan): PlayedLog {
  const random = mulberry32(plan.seed);
  const events: BismarckEvent[] = [];
  const ends: number[] = [];
  let state: MatchState = initialState();
  const seeds: { deal: number; commitment: string; seed: string }[] = [];
  let nextSeed = `${plan.seed}-0`;
  const facts = (): DealerFacts | undefined => (plan.fair ? { commitment: sha256Hex(nextSeed), seeds } : undefined);
  const apply = (command: Command): void => {
    for (const e of decide({ ...command, dealer: facts() } as Command, state)) {
      state = evolve(state, e);
      events.push(e);
      if (e.type === 'DeckCommitted') {
        seeds.push({ deal: e.data.deal, commitment: e.data.commitment, seed: nextSeed });
        nextSeed = `${plan.seed}-${seeds.length}`;
      }
    }
    ends.push(events.length);
  };
  const lobby = plan.fair && plan.lobby;
  apply({
    type: 'createMatch',
    matchId: `match-${plan.seed}`,
    players: lobby ? [plan.names[0], null, null] : plan.names,
    options: plan.options,
    firstDealer: (plan.seed % 3) as 0 | 1 | 2,
    seeded: !plan.fair,
    ...(plan.bots && !lobby ? { bots: plan.bots } : {}),
  });
  const join = (seat: 1 | 2): Command => ({ type: 'joinSeat', seat, name: plan.names[seat], ...(plan.bots?.[seat] ? { bot: plan.bots[seat] } : {}) });
  if (lobby && plan.abandon) {
    apply(join(2));
    apply({ type: 'abandonTable' });
    return { events, ends };
  }
  if (lobby) {
    apply(join(2));
    apply(join(1));
  }
  let deals = 0;
  for (let steps = 0; steps < 5000; steps++) {
    if (state.status === 'awaitingDeal' && state.cut === null && random() < plan.cut) {
      apply({ type: 'cut', seat: cutterOf(state.dealer), cut: `c${Math.floor(random() * 1e6)}~"x"` });
      continue;
    }
    const command = randomCommand(
      state,
      { random, deck: (n) => shuffleDeck(`deck-${plan.seed}`, n), leadBeforeDiscard: plan.earlyLead },
      deals,
    );
    if (command === null) break;
    if (command.type === 'deal') {
      if (plan.shuffleRecord && state.status === 'awaitingDeal') {
        const shuffle = plan.fair
          ? { algorithm: SHUFFLE_ALGORITHM, index: events.length + 1, seeded: false, commitment: state.commitment, cut: state.cut }
          : { algorithm: SHUFFLE_ALGORITHM, index: events.length + 1, seeded: true, cut: state.cut };
        apply({ ...command, shuffle });
      } else apply(command);
      deals++;
      continue;
    }
    apply(command);
  }
  return { events, ends };
}
