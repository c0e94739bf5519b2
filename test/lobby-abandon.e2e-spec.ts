import { parseSse, streamMatchEvents } from '@bismarck/client';
import { LobbySweeper } from '../apps/api/src/game/lobby/lobby-sweeper.service';
import { MatchWriter } from '../apps/api/src/game/matches/match-writer.service';
import { rebuildDifferences, useTestApp } from './support/app';
import { createMatch } from './support/player';
import { collect, listenLocal } from './support/server';

// Lobby tables nobody joins leave the waiting list: after LOBBY_TTL_MS without a change the sweeper
// appends TableAbandoned. Here the TTL is 4 s and the test runs the sweep itself. The TTL is wall-clock
// time: long enough that the fresh table stays young through both sweeps on a loaded machine.
const t = useTestApp(
  () => Object.assign(process.env, { LOBBY_TTL_MS: '4000', LOBBY_SWEEP_MS: '3600000' }),
  () => {
    delete process.env.LOBBY_TTL_MS;
    delete process.env.LOBBY_SWEEP_MS;
  },
);

const listed = async (status: string): Promise<string[]> =>
  (await t.http().get(`/api/matches?status=${status}&limit=100`).expect(200)).body.items.map((m: { id: string }) => m.id);

describe('lobby tables nobody fills', () => {
  it('are abandoned after LOBBY_TTL_MS: out of the waiting list, no more joins, and the log still audits clean', async () => {
    const idle = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    const full = await createMatch(t.http);
    await new Promise((r) => setTimeout(r, 4200));
    // A table joined just now is not idle: it stays.
    const fresh = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    expect(await listed('waiting')).toEqual(expect.arrayContaining([idle.id, fresh.id]));

    expect(await t.app.get(LobbySweeper).sweep()).toBe(1);

    expect(await listed('waiting')).not.toContain(idle.id);
    expect(await listed('waiting')).toContain(fresh.id);
    expect(await listed('abandoned')).toEqual([idle.id]);
    expect((await t.http().get(`/api/matches/${idle.id}`).expect(200)).body).toMatchObject({ status: 'abandoned', phase: 'finished', turn: null });
    expect((await t.http().get(`/api/matches/${full.id}`).expect(200)).body.status).toBe('playing');
    const join = await t.http().post(`/api/matches/${idle.id}/seats/1/join`).send({ name: 'Late' });
    expect({ status: join.status, code: join.body.code }).toEqual({ status: 409, code: 'MATCH_ABANDONED' });
    const events = (await t.http().get(`/api/matches/${idle.id}/events`).expect(200)).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['MatchCreated', 'TableAbandoned']);
    expect(events[1].data).toEqual({ openSeats: [1, 2] });
    expect((await t.http().get(`/api/matches/${idle.id}/audit`).expect(200)).body.ok).toBe(true);

    // A second sweep finds nothing more; the projections equal a rebuild.
    expect(await t.app.get(LobbySweeper).sweep()).toBe(0);
    for (const d of await rebuildDifferences(t.app)) expect(d).toMatchObject({ onlyLive: 0, onlyRebuilt: 0 });
  }, 60_000);

  it('end their live streams: `event: end` with status abandoned after TableAbandoned, then 204 (nothing more will come)', async () => {
    const base = await listenLocal(t.app);
    const idle = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    // Open while the table waits: the host's client (the typed client's iterator) and a spectator's raw stream.
    const host = collect(streamMatchEvents(base, idle.id, { token: idle.seats[0].token, reconnect: false }));
    const raw = await fetch(`${base}/api/matches/${idle.id}/events/stream`);
    expect(raw.status).toBe(200);
    const messages = collect(parseSse(raw.body!));
    await new Promise((r) => setTimeout(r, 4200));
    expect(await t.app.get(LobbySweeper).sweep()).toBeGreaterThanOrEqual(1);

    expect((await host).map((e) => e.type)).toEqual(['MatchCreated', 'TableAbandoned']);
    const seen = await messages;
    expect(seen.at(-1)).toEqual({ id: '2', event: 'end', data: JSON.stringify({ version: 2, status: 'abandoned' }) });
    // Read from the log (a stream opened after it): the same end.
    const late = await fetch(`${base}/api/matches/${idle.id}/events/stream?after=1`);
    // Presence first (nobody connected: the host's stream has ended), then the log and the end.
    expect((await collect(parseSse(late.body!))).map((m) => m.event)).toEqual(['presence', 'message', 'end']);
    const again = await fetch(`${base}/api/matches/${idle.id}/events/stream`, { headers: { 'last-event-id': '2' } });
    expect(again.status).toBe(204);
  }, 60_000);

  it('leave a table alone that a player joined between the sweep finding it idle and abandoning it', async () => {
    const table = (await t.http().post('/api/matches').send({ players: ['Host', null, null] }).expect(201)).body;
    await new Promise((r) => setTimeout(r, 4200));
    // The race, made certain: the seat is taken just after the sweep's scan, before its abandonment is written.
    const writer = t.app.get(MatchWriter);
    const handle = writer.handle.bind(writer);
    let joined: { token: string; status: string } | undefined;
    let raced = false;
    const spy = jest.spyOn(writer, 'handle').mockImplementation(async (id, command, options) => {
      if (id === table.id && !raced) {
        raced = true; // the join's own write comes through here too
        joined = (await t.http().post(`/api/matches/${table.id}/seats/1/join`).send({ name: 'Just in time' }).expect(201)).body;
      }
      return handle(id, command, options);
    });
    try {
      await t.app.get(LobbySweeper).sweep();
    } finally {
      spy.mockRestore();
    }
    expect(joined?.status).toBe('waiting');
    // The join was a change: the table waits on, for its last seat, and the new seat's token works.
    const events = (await t.http().get(`/api/matches/${table.id}/events`).expect(200)).body.events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['MatchCreated', 'SeatJoined']);
    expect(await listed('waiting')).toContain(table.id);
    await t.http().post(`/api/matches/${table.id}/seats/2/join`).send({ name: 'Last' }).expect(201);
    expect((await t.http().get(`/api/matches/${table.id}/view`).set('Authorization', `Bearer ${joined!.token}`).expect(200)).body.status).toBe('playing');
    expect((await t.http().get(`/api/matches/${table.id}/audit`).expect(200)).body.ok).toBe(true);
  }, 60_000);
});
