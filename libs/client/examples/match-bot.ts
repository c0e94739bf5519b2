// A bot that needs only the installed package (docs/clients.md, "Install the client"): it creates a
// match, plays all three seats from their own views and follows the match on the live stream until
// MatchFinished. `node bot.js [baseUrl]` prints one line of JSON: the match, its result and the
// versions the stream showed.
import { createBismarckClient, streamMatchEvents, unwrap, type BismarckClient, type LegalAction } from '@bismarck/client';

const baseUrl = process.argv[2] ?? 'http://localhost:3000';

// The first choice the view allows: a move the server accepts.
async function act(seat: BismarckClient, id: string, hand: string[], legal: LegalAction): Promise<void> {
  const params = { path: { id } };
  if (legal.action === 'deal') unwrap(await seat.POST('/api/matches/{id}/deal', { params }));
  if (legal.action === 'cut') unwrap(await seat.POST('/api/matches/{id}/cut', { params, body: { cut: 'k7Qz-42' } }));
  if (legal.action === 'discard') unwrap(await seat.POST('/api/matches/{id}/discard', { params, body: { cards: hand.slice(0, legal.count) } }));
  if (legal.action === 'play') unwrap(await seat.POST('/api/matches/{id}/play', { params, body: { card: legal.cards[0] } }));
  if (legal.action === 'chooseContract') {
    const contract = legal.contracts[0];
    const body = contract === 'trump' ? { contract, trump: legal.trumps[0] } : { contract };
    unwrap(await seat.POST('/api/matches/{id}/contract', { params, body }));
  }
}

async function main(): Promise<void> {
  const api = createBismarckClient(baseUrl);
  const match = unwrap(await api.POST('/api/matches', { body: { players: ['Astrid', 'Bjørn', 'Cecilia'], options: { schedule: 'quick' } } }));
  const path = { id: match.id };
  const seats = match.seats.map((seat) => createBismarckClient(baseUrl, { token: seat.token }));

  // A spectator on the live stream, while the seats play: every version, in order. Switching on
  // `type` narrows `data` to that event's own fields (no cast).
  const watching = (async () => {
    const versions: number[] = [];
    const tricksWon = [0, 0, 0];
    for await (const event of streamMatchEvents(baseUrl, match.id)) {
      versions.push(event.version);
      if (event.type === 'TrickTaken') tricksWon[event.data.winner]++;
      if (event.type === 'MatchFinished') return { versions, tricksWon, winners: event.data.winners };
    }
    throw new Error('the stream ended before MatchFinished');
  })();

  // Whoever's view has a legal action takes it; when no seat has one, the match is over.
  for (;;) {
    const views = await Promise.all(seats.map(async (seat) => ({ seat, view: unwrap(await seat.GET('/api/matches/{id}/view', { params: { path } })) })));
    const next = views.find(({ view }) => view.legal);
    if (!next?.view.legal) break;
    await act(next.seat, match.id, next.view.hand, next.view.legal);
  }
  const end = unwrap(await api.GET('/api/matches/{id}', { params: { path } }));
  if (end.status !== 'finished') throw new Error(`no seat may act, yet the match is ${end.status}`);
  const { versions, tricksWon, winners } = await watching;
  console.log(JSON.stringify({ matchId: match.id, status: end.status, version: end.version, totals: end.totals, winners, tricksWon, versions }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
