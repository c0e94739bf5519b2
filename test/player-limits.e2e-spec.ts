import { useTestApp } from './support/app';
import { bearer, createMatch } from './support/player';

// Read once, when the app starts: 5 requests and 2 creations a minute per player, 100 per token.
const LIMITS = { RATE_LIMIT_PER_PLAYER: '5', RATE_LIMIT_CREATES_PER_PLAYER: '2', RATE_LIMIT_PER_TOKEN: '100' };
const saved: Record<string, string | undefined> = {};
const t = useTestApp(
  () => {
    for (const [k, v] of Object.entries(LIMITS)) [saved[k], process.env[k]] = [process.env[k], v];
  },
  () => {
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  },
);

const register = async (name: string) => (await t.http().post('/api/players').send({ name }).expect(201)).body as { id: string; token: string };

describe('rate limits per player (here: 5 requests and 2 creations a minute, all its tokens together)', () => {
  it("counts every token of one player together: a second token buys no second allowance; another player's tokens and seat tokens are counted on their own", async () => {
    const ada = await register('Ada');
    const second = (await t.http().post('/api/players/me/tokens').set(...bearer(ada.token)).expect(201)).body.token as string;
    const statuses: number[] = [];
    for (const token of [second, ada.token, second, ada.token, second, ada.token]) statuses.push((await t.http().get('/api/players/me').set(...bearer(token))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await t.http().get('/api/players/me').set(...bearer(second));
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit']).toMatch(/^limit=5, remaining=0, reset=\d+$/);
    const bea = await register('Bea');
    await t.http().get('/api/players/me').set(...bearer(bea.token)).expect(200);
    const match = await createMatch(t.http);
    for (let i = 0; i < 6; i++) await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[0].token)).expect(200);
  });

  it("refuses a player's third creation in the window and creates nothing more; an anonymous creation from the same address goes on", async () => {
    const cai = await register('Cai');
    const create = () => t.http().post('/api/matches').set(...bearer(cai.token)).send({ players: [{ player: cai.id }, null, null] });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    const refused = await create();
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    const mine = (await t.http().get('/api/players/me/matches').set(...bearer(cai.token)).expect(200)).body;
    expect(mine.items).toHaveLength(2);
    await t.http().post('/api/matches').send({ players: ['Dag', null, null] }).expect(201);
  });
});
