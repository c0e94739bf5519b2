import type { Test } from 'supertest';
import type request from 'supertest';

export interface CreatedMatch {
  id: string;
  version: number;
  firstDealer: number;
  seats: { seat: number; name: string; token: string }[];
}

type Http = () => ReturnType<typeof request>;

export const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

export async function createMatch(http: Http, body: Record<string, unknown> = {}): Promise<CreatedMatch> {
  const res = await http()
    .post('/api/matches')
    .send({ players: ['Astrid', 'Bjørn', 'Cecilia'], ...body })
    .expect(201);
  return res.body as CreatedMatch;
}

/** The request for one action chosen from a seat's `legal`, the way a client would. */
export function actionRequest(http: Http, match: CreatedMatch, seat: number, legal: Record<string, any>, hand: string[], pick: (xs: any[]) => any): Test {
  const base = `/api/matches/${match.id}`;
  const auth = bearer(match.seats[seat].token);
  switch (legal.action) {
    case 'deal':
      return http().post(`${base}/deal`).set(...auth);
    case 'chooseContract': {
      const contract = pick(legal.contracts);
      return http()
        .post(`${base}/contract`)
        .set(...auth)
        .send(contract === 'trump' ? { contract, trump: pick(legal.trumps) } : { contract });
    }
    case 'discard':
      return http().post(`${base}/discard`).set(...auth).send({ cards: hand.slice(0, legal.count) });
    case 'play':
      return http().post(`${base}/play`).set(...auth).send({ card: pick(legal.cards) });
    default:
      throw new Error(`unknown action ${JSON.stringify(legal)}`);
  }
}

/**
 * Plays one action: asks the public state whose turn it is, reads that seat's view, and sends one
 * of its legal actions. Returns false when the match is over.
 */
export async function playOneAction(http: Http, match: CreatedMatch, pick: (xs: any[]) => any = (xs) => xs[0]): Promise<boolean> {
  const state = (await http().get(`/api/matches/${match.id}`).expect(200)).body;
  if (state.status === 'finished') return false;
  const seat = state.turn as number;
  const view = (await http().get(`/api/matches/${match.id}/view`).set(...bearer(match.seats[seat].token)).expect(200)).body;
  if (!view.legal) throw new Error(`seat ${seat} has the turn but no legal action`);
  const res = await actionRequest(http, match, seat, view.legal, view.hand, pick);
  if (res.status !== 200) throw new Error(`${view.legal.action} refused: ${res.status} ${JSON.stringify(res.body)}`);
  return true;
}

export async function playToEnd(http: Http, match: CreatedMatch, pick?: (xs: any[]) => any): Promise<number> {
  let actions = 0;
  while (await playOneAction(http, match, pick)) actions++;
  return actions;
}

/** A deterministic pseudo-random pick, so a failing game can be replayed. */
export function seededPick(seed: number): (xs: any[]) => any {
  let s = seed >>> 0;
  return (xs) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return xs[s % xs.length];
  };
}
