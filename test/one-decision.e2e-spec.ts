import { MATCH_DECIDER, type MatchDecider } from '../apps/api/src/game/matches/decider';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick } from './support/player';

// The write path runs the rules once per command (issue 34): every fact from outside the rules (a
// deal's deck, the dealer's commitment, the seeds a deal-ending card reveals) is brought before the
// decision, never by deciding twice. Watched at the decider the MatchWriter is given.
const t = useTestApp();
const decided: string[] = [];

beforeAll(() => {
  const decider = t.app.get<MatchDecider>(MATCH_DECIDER);
  const rules = decider.decide.bind(decider);
  decider.decide = (command, state) => {
    decided.push(command.type);
    return rules(command, state);
  };
});

/** The decisions made while `act` runs. */
async function decisionsOf(act: () => Promise<unknown>): Promise<string[]> {
  const from = decided.length;
  await act();
  return decided.slice(from);
}

describe('one decision per command', () => {
  it('a whole match with commitments and reveals: one decision per accepted or refused command', async () => {
    let match!: Awaited<ReturnType<typeof createMatch>>;
    expect(await decisionsOf(async () => (match = await createMatch(t.http, { options: { schedule: 'quick' } })))).toEqual(['createMatch']);
    const pick = seededPick(34);
    let commands = 0;
    let refusals = 0;
    const during = await decisionsOf(async () => {
      for (;;) {
        const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
        if (state.status === 'finished') return;
        // A seat out of turn is refused by the rules: one decision too, and nothing written.
        const idle = ((state.turn as number) + 1) % 3;
        const refused = await t.http().post(`/api/matches/${match.id}/deal`).set(...bearer(match.seats[idle].token));
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.status).toBeLessThan(500);
        refusals++;
        commands++;
        await playOneAction(t.http, match, pick);
        commands++;
      }
    });
    expect(during).toHaveLength(commands);
    expect(refusals).toBeGreaterThan(100);

    // What the single decisions wrote: every deal committed before it was dealt and revealed once scored.
    const events = (await t.http().get(`/api/matches/${match.id}/events?limit=1000`).expect(200)).body.events as { type: string; data: { deal: number } }[];
    const count = (type: string): number => events.filter((e) => e.type === type).length;
    expect(count('DealScored')).toBe(3);
    expect(count('DeckCommitted')).toBe(count('DealStarted'));
    expect(count('SeedRevealed')).toBe(count('DeckCommitted'));
    const audit = (await t.http().get(`/api/matches/${match.id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(true);
  }, 180_000);

  it('a lobby join, a fork and a seeded match: one decision each', async () => {
    const table = (await t.http().post('/api/matches').send({ players: [null, 'Bjørn', 'Cecilia'] }).expect(201)).body;
    expect(await decisionsOf(() => t.http().post(`/api/matches/${table.id}/seats/0/join`).send({ name: 'Astrid' }).expect(201))).toEqual(['joinSeat']);

    const seeded = await createMatch(t.http, { seed: 'one-decision', options: { schedule: 'quick' } });
    let moves = 0;
    const played = await decisionsOf(async () => {
      while (await playOneAction(t.http, seeded, seededPick(7))) moves++;
    });
    expect(played).toHaveLength(moves);
    expect(await decisionsOf(() => t.http().post(`/api/matches/${seeded.id}/fork?version=1`).expect(201))).toEqual(['forkMatch']);
  }, 120_000);
});
