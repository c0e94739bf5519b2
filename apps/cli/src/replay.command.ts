/** Prints a match deal by deal, trick by trick, from a running service's log (as the caller may see it). */

interface LoggedEvent {
  version: number;
  type: string;
  data: Record<string, any>;
}

const SUIT: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const show = (card: string | null | undefined): string => (card ? `${card[0] === 'T' ? '10' : card[0]}${SUIT[card[1]]}` : '??');
const cards = (list: (string | null)[] | null | undefined): string => (list ? list.map(show).join(' ') : 'hidden');

export async function replayCommand(matchId: string, options: { url: string; token?: string }): Promise<void> {
  const base = options.url.replace(/\/$/, '');
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const events: LoggedEvent[] = [];
  for (let after = 0; ; ) {
    const res = await fetch(`${base}/api/matches/${matchId}/events?after=${after}&limit=1000`, { headers });
    const body = (await res.json()) as { events: LoggedEvent[]; next: number | null; detail?: string };
    if (!res.ok) throw new Error(`${res.status}: ${body.detail ?? 'request failed'}`);
    events.push(...body.events);
    if (body.next === null) break;
    after = body.next;
  }
  let names: string[] = ['seat 0', 'seat 1', 'seat 2'];
  const who = (seat: number) => `${names[seat]} (${seat})`;
  for (const { type, data } of events) {
    switch (type) {
      case 'MatchCreated':
        names = data.players.map((n: string | null) => n ?? '(open)');
        console.log(`Match ${matchId}: ${names.map((n, s) => `${s} ${n}`).join(', ')}; ${data.options.schedule}, ${data.options.scoring}${data.seeded ? ', seeded' : ''}`);
        if (data.forkedFrom) console.log(`  a fork of match ${data.forkedFrom.matchId} at version ${data.forkedFrom.version}`);
        if (data.rematchOf) console.log(`  a rematch of match ${data.rematchOf}`);
        break;
      case 'SeatJoined':
        names[data.seat] = data.name;
        console.log(`  ${data.name} takes seat ${data.seat}`);
        break;
      case 'DeckCommitted':
        console.log(`\nDeal ${data.deal}: the server commits to deck ${data.commitment.slice(0, 16)}…`);
        break;
      case 'DeckCut':
        // JSON quoting: a cut may hold quotes and spaces (any printable Unicode, docs/fairness.md).
        console.log(`  ${who(data.seat)} cuts ${JSON.stringify(data.cut)}`);
        break;
      case 'DealStarted':
        console.log(`  Deal ${data.deal}: ${who(data.dealer)} deals, forehand ${who(data.forehand)}; table ${cards(data.tableCards)}${data.contract ? `; ${data.contract}${data.trump ? ` ${SUIT[data.trump]}` : ''}` : ''}`);
        break;
      case 'ContractChosen':
        console.log(`  ${who(data.seat)} announces ${data.contract}${data.trump ? ` ${SUIT[data.trump]}` : ''}`);
        break;
      case 'HandsDealt':
        data.hands.forEach((h: string[] | null, s: number) => console.log(`    ${who(s).padEnd(16)} ${cards(h)}`));
        break;
      case 'CardsLaidAway':
        console.log(`  ${who(data.seat)} lays away ${cards(data.cards)}`);
        break;
      case 'TrickTaken':
        console.log(`    trick ${String(data.trick).padStart(2)}: ${data.cards.map((c: { seat: number; card: string }) => `${c.seat}:${show(c.card)}`).join('  ')}  → ${who(data.winner)}`);
        break;
      case 'DealVoided':
        console.log(`  ${who(data.seat)} led ${show(data.card)} before laying away: the deal is void and dealt again`);
        break;
      case 'DealScored':
        console.log(`  tricks ${data.tricks.join('/')} (quotas ${data.quotas.join('/')}) → points ${data.points.join(' ')}, totals ${data.totals.join(' ')}`);
        break;
      case 'SeedRevealed':
        console.log(`  seed revealed: ${data.seed.slice(0, 16)}…`);
        break;
      case 'MatchFinished':
        console.log(`\nFinished: totals ${data.totals.join(' ')}; winner${data.winners.length > 1 ? 's' : ''} ${data.winners.map(who).join(', ')}`);
        break;
      case 'RematchOffered':
        console.log(`${who(data.seat)} asked for a rematch: match ${data.matchId}`);
        break;
      default:
        break;
    }
  }
}
