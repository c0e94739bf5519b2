import { decide, evolve, initialState, recordedMove, RuleViolation, type BismarckEvent, type Command, type DealerFacts } from '@bismarck/rules';
import type { ExportedEvent } from './chain';
import { fail, pass, type AuditCheck } from './report';
import { sameJson } from './same-json';

// The decisions: every event replayed through the rules' own decide, the dealer's included.

const asEvent = (e: ExportedEvent): BismarckEvent => ({ type: e.type, data: e.data }) as BismarckEvent;

/**
 * The command the recorded event `i` answers, for the events that start a decision. A timeout is
 * decided with the times the log recorded (its own, and the turn's start: the event before it); a
 * move the stand-in made says so in its metadata.
 */
function commandAt(events: ExportedEvent[], i: number): Command | null {
  const e = asEvent(events[i]);
  if (e.type === 'TurnTimedOut') return { type: 'timeOut', now: events[i].recordedAt, since: events[i - 1]?.recordedAt ?? '' };
  if (e.type === 'SeatReturned') return { type: 'returnToSeat', seat: e.data.seat };
  const command = commandOf(e);
  return command !== null && events[i].metadata?.standIn === true ? { ...command, standIn: true } : command;
}

/** The command a recorded event answers, for the events that start a decision. */
function commandOf(e: BismarckEvent): Command | null {
  switch (e.type) {
    case 'MatchCreated':
      return { type: 'createMatch', ...e.data };
    case 'SeatJoined':
      return {
        type: 'joinSeat',
        seat: e.data.seat,
        name: e.data.name,
        ...(e.data.bot !== undefined ? { bot: e.data.bot } : {}),
        ...(e.data.account !== undefined ? { account: e.data.account } : {}),
      };
    case 'TableAbandoned':
      return { type: 'abandonTable' };
    case 'DealStarted':
      return { type: 'deal', seat: e.data.dealer, deck: e.data.deck ?? [], ...(e.data.shuffle ? { shuffle: e.data.shuffle } : {}) };
    case 'RematchOffered':
      return { type: 'offerRematch', seat: e.data.seat, matchId: e.data.matchId };
    default:
      return recordedMove(e);
  }
}

export function checkRules(events: ExportedEvent[]): AuditCheck {
  let state = initialState();
  let decisions = 0;
  let i = 0;
  while (i < events.length) {
    const logged = asEvent(events[i]);
    const command = commandAt(events, i);
    if (command === null) return fail('rules', events[i].version, `${logged.type} at version ${events[i].version} does not follow from any command`);
    let produced: BismarckEvent[];
    try {
      produced = decide({ ...command, dealer: dealerFactsAt(events, i) }, state);
    } catch (error) {
      const code = error instanceof RuleViolation ? error.code : 'ERROR';
      return fail('rules', events[i].version, `the rules refuse the ${command.type} recorded at version ${events[i].version} (${code})`);
    }
    for (const p of produced) {
      if (i >= events.length) return fail('rules', events.length, `the log ends before the ${p.type} that the rules produce`);
      if (events[i].type !== p.type || !sameJson(events[i].data, p.data)) {
        return fail('rules', events[i].version, `version ${events[i].version} is not what the rules decide (${p.type} expected, ${events[i].type} recorded)`);
      }
      state = evolve(state, p);
      i++;
    }
    decisions++;
  }
  return pass('rules', `${decisions} decisions replayed through the rules: every event is what the rules decide, the dealer's included`);
}

/**
 * What the dealer brought to the decision that starts at event `i`, as the log shows it: the next
 * commitment and the revealed seeds recorded before the next deal starts. The rules then decide
 * whether and where each belongs; a commitment or a reveal the rules do not place breaks the replay.
 * (Whether a revealed seed matches its commitment is the commitments check's finding.)
 */
function dealerFactsAt(events: ExportedEvent[], i: number): DealerFacts {
  let commitment: string | undefined;
  const seeds: { deal: number; commitment: string; seed: string }[] = [];
  for (let j = i; j < events.length && (j === i || events[j].type !== 'DealStarted'); j++) {
    const e = asEvent(events[j]);
    if (e.type === 'DeckCommitted') commitment ??= e.data.commitment;
    // One seed per commitment, as the dealer keeps them: a seed revealed twice is out of place.
    if (e.type === 'SeedRevealed' && !seeds.some((s) => s.commitment === e.data.commitment)) seeds.push(e.data);
  }
  return { commitment, seeds };
}
