import { DataSource } from 'typeorm';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, playToEnd, seededPick } from './support/player';

const t = useTestApp();

describe('whole matches through HTTP, using only what the views say is legal', () => {
  it.each([
    ['modern', {}, 12, 0],
    ['traditional', { schedule: 'traditional' }, 9, null],
    ['traditional with a blind fourth round', { schedule: 'traditional', fourthRound: 'freeTrumpBlind' }, 12, null],
    ['quick', { schedule: 'quick' }, 3, null],
    ['modern, informed, mustTrump, zero-sum', { contractChoice: 'informed', mustTrump: true, spadesInFreeTrump: false }, 12, 0],
  ])('plays a %s match to the end', async (_name, options, deals, totalSum) => {
    const match = await createMatch(t.http, { options });
    await playToEnd(t.http, match, seededPick(deals * 7 + 1));

    const state = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
    expect(state).toMatchObject({ status: 'finished', phase: 'finished', turn: null, dealNumber: deals });
    const card = (await t.http().get(`/api/matches/${match.id}/scorecard`).expect(200)).body;
    expect(card.finished).toBe(true);
    expect(card.deals).toHaveLength(deals);
    expect(card.totals).toEqual(state.totals);
    expect(card.totals).toEqual(card.deals[deals - 1].totals);
    for (const deal of card.deals) expect(deal.tricks.reduce((a: number, b: number) => a + b, 0)).toBe(16);
    if (totalSum !== null) expect(card.totals.reduce((a: number, b: number) => a + b, 0)).toBe(totalSum);
    const best = Math.max(...card.totals);
    expect(card.winners).toEqual([0, 1, 2].filter((s) => card.totals[s] === best));

    // The log is gapless from 1, and its last version is the state's.
    const log = (await t.http().get(`/api/matches/${match.id}/events?limit=1000`).expect(200)).body;
    expect(log.events.map((e: { version: number }) => e.version)).toEqual(Array.from({ length: state.version }, (_, i) => i + 1));
    expect(log.events.at(-1).type).toBe('MatchFinished');

    // Under `modern`, each seat is forehand 4 times and plays every contract once.
    if (!(options as { schedule?: string }).schedule) {
      for (const seat of [0, 1, 2]) {
        expect(Object.keys(card.contractsPlayed[seat]).sort()).toEqual(['notrump', 'pass', 'spades', 'trump']);
      }
    }
    // Once finished, every seat's view and the spectator's show no secret left to hide and no action.
    const view = (await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)).expect(200)).body;
    expect(view.legal).toBeNull();
  }, 120_000);

  it('lists matches newest first, filters by status and pages with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createMatch(t.http)).id);
    const first = (await t.http().get('/api/matches?limit=2&status=playing').expect(200)).body;
    expect(first.items.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await t.http().get(`/api/matches?limit=2&status=playing&cursor=${first.nextCursor}`).expect(200)).body;
    expect(second.items[0].id).toBe(ids[0]);
    const finished = (await t.http().get('/api/matches?status=finished&limit=100').expect(200)).body;
    expect(finished.items.every((m: { status: string }) => m.status === 'finished')).toBe(true);
    expect(finished.items.length).toBeGreaterThanOrEqual(5);
  });
});

describe('quotas in the views', () => {
  it('are the rules\' once the contract is known, null before; a view stored before the field existed reads null until the match moves on', async () => {
    const match = await createMatch(t.http, { seed: 'quotas' });
    const view = async () => (await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)).expect(200)).body;
    expect((await view()).quotas).toBeNull();
    const pick = seededPick(3);
    while ((await view()).quotas === null) await playOneAction(t.http, match, pick);
    const quotas = (await view()).quotas;
    expect(quotas).toHaveLength(3);
    expect((await t.http().get(`/api/matches/${match.id}`).expect(200)).body.quotas).toEqual(quotas);
    // As a row written before the field: no `quotas` in the stored documents.
    await t.app.get(DataSource).query(`UPDATE match_views SET doc = doc - 'quotas' WHERE match_id = $1`, [match.id]);
    expect((await view()).quotas).toBeNull();
    expect((await t.http().get(`/api/matches/${match.id}`).expect(200)).body.quotas).toBeNull();
    await playOneAction(t.http, match, pick);
    expect((await view()).quotas).toEqual(quotas);
  });
});
