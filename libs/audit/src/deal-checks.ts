import { deckKey, sha256Hex, shuffleDeck } from '@bismarck/rules';
import type { ExportedEvent } from './chain';
import { fail, pass, type AuditCheck, type E, type ExportedMatch } from './report';

// The deals: each deck committed before it and re-derived once its seed is out, the scores summed,
// and which deals no one alone could have chosen.

export function checkCommitments(doc: ExportedMatch, scored: Set<number>): AuditCheck {
  if (doc.seeded) return pass('commitments', 'seeded match: decks come from the creator\'s seed; nothing is committed (not provably fair)');
  const committed = new Map<string, number>(); // commitment → version where published
  const used = new Map<string, { deal: number; version: number }>();
  let checked = 0;
  for (const e of doc.events) {
    if (e.type === 'DeckCommitted') committed.set((e.data as E<'DeckCommitted'>['data']).commitment, e.version);
    if (e.type === 'DealStarted') {
      const d = e.data as E<'DealStarted'>['data'];
      const commitment = (d.shuffle as { commitment?: string | null } | undefined)?.commitment;
      if (!commitment) return fail('commitments', e.version, `deal ${d.deal} started without a commitment`);
      const at = committed.get(commitment);
      if (at === undefined || at > e.version) return fail('commitments', e.version, `deal ${d.deal} used a commitment that was not published before it`);
      if (used.has(commitment)) return fail('commitments', e.version, `deal ${d.deal} reused a commitment`);
      used.set(commitment, { deal: d.deal, version: e.version });
    }
    if (e.type === 'SeedRevealed') {
      const d = e.data as E<'SeedRevealed'>['data'];
      if (sha256Hex(d.seed) !== d.commitment) return fail('commitments', e.version, `the seed revealed for deal ${d.deal} does not hash to its commitment`);
      if (!used.has(d.commitment) && !committed.has(d.commitment)) return fail('commitments', e.version, `a seed was revealed for an unknown commitment`);
      checked++;
    }
  }
  const revealed = new Set(doc.events.filter((e) => e.type === 'SeedRevealed').map((e) => (e.data as E<'SeedRevealed'>['data']).commitment));
  for (const [commitment, use] of used) {
    if (scored.has(use.deal) && !revealed.has(commitment)) return fail('commitments', use.version, `deal ${use.deal} is scored but its seed was never revealed`);
  }
  return pass('commitments', `${used.size} decks each used a commitment published before it; ${checked} revealed seeds match their commitments`);
}

export function checkDecks(doc: ExportedMatch, scored: Set<number>): AuditCheck {
  // Only seeds that match their commitment re-derive decks; a bad reveal is the commitments check's finding.
  const seeds = new Map<string, string>();
  const badReveals = new Set<string>();
  for (const e of doc.events) {
    if (e.type !== 'SeedRevealed') continue;
    const { commitment, seed } = e.data as E<'SeedRevealed'>['data'];
    if (sha256Hex(seed) === commitment) seeds.set(commitment, seed);
    else badReveals.add(commitment);
  }
  let cut: string | null = null;
  let rederived = 0;
  let comparable = 0;
  for (const [i, e] of doc.events.entries()) {
    if (e.type === 'DeckCut') cut = (e.data as E<'DeckCut'>['data']).cut;
    if (e.type !== 'DealStarted') continue;
    const d = e.data as E<'DealStarted'>['data'];
    const shuffle = (d.shuffle ?? {}) as { index?: number; commitment?: string | null; cut?: string | null };
    if ((shuffle.cut ?? null) !== cut) return fail('decks', e.version, `deal ${d.deal} ignored the cut that was made before it`);
    cut = null;
    if (!scored.has(d.deal)) continue; // still secret: checked once the deal is scored
    comparable++;
    const deck = d.deck ?? [];
    if (deck.length !== 52) return fail('decks', e.version, `deal ${d.deal}'s deck is not in the log`);
    if (JSON.stringify(d.tableCards) !== JSON.stringify(deck.slice(0, 4))) return fail('decks', e.version, `deal ${d.deal}'s table cards are not the top of its deck`);
    const dealt = doc.events.slice(i + 1).find((x) => x.type === 'HandsDealt' || x.type === 'DealStarted');
    if (dealt?.type === 'HandsDealt') {
      const hands = (dealt.data as E<'HandsDealt'>['data']).hands;
      for (let k = 0; k < 48; k++) {
        const seat = (d.forehand + k) % 3;
        if (hands[seat]?.[Math.floor(k / 3)] !== deck[4 + k]) return fail('decks', dealt.version, `deal ${d.deal}'s hands are not dealt from its deck`);
      }
    }
    if (doc.seeded) continue; // the creator's seed is not published
    if (shuffle.commitment && badReveals.has(shuffle.commitment)) continue;
    const seed = shuffle.commitment ? seeds.get(shuffle.commitment) : undefined;
    if (seed === undefined || shuffle.index === undefined) return fail('decks', e.version, `deal ${d.deal}'s deck cannot be re-derived: no revealed seed`);
    if (JSON.stringify(shuffleDeck(deckKey(seed, shuffle.cut ?? null), shuffle.index)) !== JSON.stringify(deck)) {
      return fail('decks', e.version, `deal ${d.deal}'s deck is not the one its seed and cut give`);
    }
    rederived++;
  }
  return pass(
    'decks',
    doc.seeded
      ? `${comparable} scored decks dealt as recorded (seeded: the seed itself is not published)`
      : `${rederived} scored decks re-derived from seed and cut and equal to the cards dealt`,
  );
}

export function checkScores(events: ExportedEvent[]): AuditCheck {
  const totals = [0, 0, 0];
  let deals = 0;
  for (const e of events) {
    if (e.type === 'DealScored') {
      const d = e.data as E<'DealScored'>['data'];
      if (d.tricks.reduce((a, b) => a + b, 0) !== 16) return fail('scores', e.version, `deal ${d.deal} does not have 16 tricks`);
      for (let s = 0; s < 3; s++) totals[s] += d.points[s];
      if (JSON.stringify(d.totals) !== JSON.stringify(totals)) return fail('scores', e.version, `the running totals after deal ${d.deal} are not the sum of its points`);
      deals++;
    }
    if (e.type === 'MatchFinished') {
      const d = e.data as E<'MatchFinished'>['data'];
      const best = Math.max(...totals);
      const winners = [0, 1, 2].filter((s) => totals[s] === best);
      if (JSON.stringify(d.totals) !== JSON.stringify(totals) || JSON.stringify(d.winners) !== JSON.stringify(winners)) {
        return fail('scores', e.version, 'the final totals or winners are not those of the deals');
      }
    }
  }
  return pass('scores', `${deals} deals scored; totals ${JSON.stringify(totals)} are the sums of their points`);
}

/** Scored deals whose every attempt used a committed seed, a seat's cut, and a revealed seed. */
export function fairDeals(events: ExportedEvent[], scored: Set<number>): number[] {
  const revealed = new Set(events.filter((e) => e.type === 'SeedRevealed').map((e) => (e.data as E<'SeedRevealed'>['data']).commitment));
  const fair = new Map<number, boolean>();
  for (const e of events) {
    if (e.type !== 'DealStarted') continue;
    const d = e.data as E<'DealStarted'>['data'];
    const s = (d.shuffle ?? {}) as { commitment?: string | null; cut?: string | null };
    const ok = Boolean(s.commitment && revealed.has(s.commitment) && s.cut);
    fair.set(d.deal, (fair.get(d.deal) ?? true) && ok);
  }
  return [...fair].filter(([deal, ok]) => ok && scored.has(deal)).map(([deal]) => deal);
}
