// A complete Bismarck bot in about 50 lines (docs/clients.md): it plays one seat to the end, acting
// when its view says it may and otherwise waiting on the live event stream (no polling).
import { createBismarckClient, streamMatchEvents, unwrap, type SeatView } from '@bismarck/client';

export async function playSeat(baseUrl: string, matchId: string, token: string): Promise<SeatView> {
  const api = createBismarckClient(baseUrl, { token });
  const path = { id: matchId };
  const first = <T>(xs: T[]): T => xs[0];

  // Act while it is our turn; answer the newest view.
  const act = async (): Promise<SeatView> => {
    for (;;) {
      const view = unwrap(await api.GET('/api/matches/{id}/view', { params: { path } }));
      const legal = view.legal;
      if (!legal) return view;
      const params = { path, header: { 'If-Match': `"${view.version}"` } }; // only if nobody moved since
      let result;
      switch (legal.action) {
        case 'deal':
          result = await api.POST('/api/matches/{id}/deal', { params });
          break;
        case 'cut':
          result = await api.POST('/api/matches/{id}/cut', { params, body: { cut: Math.random().toString(36).slice(2) } });
          break;
        case 'chooseContract': {
          const contract = first(legal.contracts);
          const body = contract === 'trump' ? { contract, trump: first(legal.trumps) } : { contract };
          result = await api.POST('/api/matches/{id}/contract', { params, body });
          break;
        }
        case 'discard':
          result = await api.POST('/api/matches/{id}/discard', { params, body: { cards: view.hand.slice(0, legal.count) } });
          break;
        case 'play':
          result = await api.POST('/api/matches/{id}/play', { params, body: { card: first(legal.cards) } });
          break;
      }
      if (result.error && result.response.status !== 412) unwrap(result); // 412: look again; else throw
    }
  };

  let view = await act();
  for await (const event of streamMatchEvents(baseUrl, matchId, { token, after: view.version })) {
    if (event.type === 'MatchFinished') break;
    view = await act();
  }
  return unwrap(await api.GET('/api/matches/{id}/view', { params: { path } }));
}
