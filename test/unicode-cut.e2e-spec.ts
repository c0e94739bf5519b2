import { deckKey, shuffleDeck } from '@bismarck/rules';
import { useTestApp } from './support/app';
import { bearer, createMatch, playOneAction, seededPick, type CreatedMatch } from './support/player';

// A cut is any printable Unicode (docs/fairness.md §7): recorded in its NFC form, which is what the
// shuffle used, so the audit recomputes the deck from the recorded text alone.
const t = useTestApp();

interface PageEvent {
  version: number;
  type: string;
  data: Record<string, any>;
}

const events = async (match: CreatedMatch): Promise<PageEvent[]> =>
  (await t.http().get(`/api/matches/${match.id}/events?after=0&limit=1000`).expect(200)).body.events;

const cutter = (match: CreatedMatch): number => (match.firstDealer + 2) % 3;

describe('a cut beyond ASCII, through HTTP', () => {
  it('is recorded in its NFC form, dealt from that form, and the audit verifies the deal', async () => {
    const match = await createMatch(t.http, { options: { schedule: 'quick' } });
    // "Bjørn" is precomposed in NFC; "ö" typed as o + U+0308 is not, nor is "å" as a + U+030A.
    const typed = 'Bjo\u0308rn ha\u030Aper 🍀';
    const normal = 'Bj\u00F6rn h\u00E5per 🍀';
    await t.http().post(`/api/matches/${match.id}/cut`).set(...bearer(match.seats[cutter(match)].token)).send({ cut: typed }).expect(200);

    const deckCut = (await events(match)).find((e) => e.type === 'DeckCut');
    expect(deckCut?.data.cut).toBe(normal);
    const view = (await t.http().get(`/api/matches/${match.id}`).expect(200)).body;
    expect(view.fairness.cut).toBe(normal);

    const pick = seededPick(11);
    while (!(await events(match)).some((e) => e.type === 'SeedRevealed')) await playOneAction(t.http, match, pick);
    const log = await events(match);
    const started = log.find((e) => e.type === 'DealStarted')!;
    const seed = log.find((e) => e.type === 'SeedRevealed')!.data.seed as string;
    expect(started.data.shuffle.cut).toBe(normal);
    // The recorded deck is hidden until the deal is scored; its table cards are public: the deck's top 4.
    const deck = shuffleDeck(deckKey(seed, normal), started.data.shuffle.index);
    expect(started.data.tableCards).toEqual(deck.slice(0, 4));

    const audit = (await t.http().get(`/api/matches/${match.id}/audit`).expect(200)).body;
    expect(audit.ok).toBe(true);
    expect(audit.checks.find((c: { name: string }) => c.name === 'decks')).toMatchObject({ ok: true });
    expect(audit.provablyFairDeals).toContain(1);
  });

  it.each([
    ['a bidi override', 'abc\u202Edef'],
    ['a zero-width space', 'a\u200Bb'],
    ['a control character', 'a\u0007b'],
    ['only spaces', '   '],
    ['65 characters', 'ø'.repeat(65)],
  ])('refuses %s: 400 VALIDATION_FAILED that states the rule', async (_name, cut) => {
    const match = await createMatch(t.http);
    const res = await t.http().post(`/api/matches/${match.id}/cut`).set(...bearer(match.seats[cutter(match)].token)).send({ cut }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body)).toContain('1 to 64 printable characters');
    expect((await events(match)).some((e) => e.type === 'DeckCut')).toBe(false);
  });
});
