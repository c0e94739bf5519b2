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
  }, 60_000); // a whole deal, one request per action: seconds on a busy machine

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

// Each kind of text a client developer tried, through the document's pattern as a client's validator reads it
// (ECMAScript with the `u` flag, as Ajv does) and through the service: the two answer alike, for a cut and for
// a name (`POST /api/players`). Every text here is in NFC already, as nearly all typed text is.
const KINDS: [string, string][] = [
  ['ASCII', 'lykke til'],
  ['letters beyond ASCII', 'Bjørn håper'],
  ['an emoji beyond the BMP', '🃏 lykke til 🍀'],
  ['a control character', 'a\u0007b'],
  ['a bidi override (U+202E)', 'abc\u202Edef'],
  ['a zero-width space (U+200B)', 'a\u200Bb'],
  ['only no-break spaces (U+00A0)', '\u00A0\u00A0'],
  ['only ideographic spaces (U+3000)', '\u3000\u3000'],
  ['a no-break space inside (U+00A0)', 'a\u00A0b'],
  ['a private-use character (U+E000)', 'a\uE000'],
  ['a private-use character of plane 15 (U+F0000)', 'a\u{F0000}'],
  ['a noncharacter (U+FFFF)', 'a\uFFFF'],
  ['an unassigned code point (U+0378)', 'a\u0378'],
  ['a tag character (U+E0041)', 'a\u{E0041}'],
  ['a shorthand format control (U+1BCA0)', 'a\u{1BCA0}'],
  ['a musical format control (U+1D173)', 'a\u{1D173}'],
  ['a letter and four combining marks', 'x\u0301\u0302\u0303\u0304'],
  ['a letter and five combining marks', 'x\u0301\u0302\u0303\u0304\u0305'],
  ['a letter and 63 variation selectors', `a${'\u{E0100}'.repeat(63)}`],
  ['a heart and its variation selector', '\u2764\uFE0F'],
];

describe('the document\'s patterns and the service, on every kind of text', () => {
  type Json = Record<string, any>;
  let doc: Json;
  const schemaOf = (ref: string): Json => doc.components.schemas[ref.split('/').pop()!];
  const patternOf = (path: string, field: string): RegExp => {
    const body = doc.paths[path].post.requestBody.content['application/json'].schema;
    const property = schemaOf(body.$ref).properties[field];
    return new RegExp(property.pattern, 'u');
  };
  const documented = (pattern: RegExp, text: string, max: number): boolean => [...text].length <= max && pattern.test(text);
  beforeAll(async () => {
    doc = (await t.http().get('/docs/openapi.json').expect(200)).body;
  });

  it.each(KINDS)('a cut of %s: the pattern accepts it exactly when the service does', async (_name, cut) => {
    expect(cut.normalize('NFC')).toBe(cut);
    const match = await createMatch(t.http);
    const res = await t.http().post(`/api/matches/${match.id}/cut`).set(...bearer(match.seats[cutter(match)].token)).send({ cut });
    expect([200, 400]).toContain(res.status);
    if (res.status === 400) expect(res.body.code).toBe('VALIDATION_FAILED');
    expect({ cut, accepted: res.status === 200 }).toEqual({ cut, accepted: documented(patternOf('/api/matches/{id}/cut', 'cut'), cut, 64) });
  });

  it.each(KINDS)('a name of %s: the pattern accepts it exactly when the service does', async (_name, name) => {
    const res = await t.http().post('/api/players').send({ name });
    expect([201, 400]).toContain(res.status);
    if (res.status === 400) expect(res.body.code).toBe('VALIDATION_FAILED');
    expect({ name, accepted: res.status === 201 }).toEqual({ name, accepted: documented(patternOf('/api/players', 'name'), name, 40) });
  });

  it('refuses long runs of marks in a cut and in a name, with a problem that states the rule', async () => {
    const hidden = `a${'\u{E0100}'.repeat(63)}`;
    const match = await createMatch(t.http);
    const cut = await t.http().post(`/api/matches/${match.id}/cut`).set(...bearer(match.seats[cutter(match)].token)).send({ cut: hidden }).expect(400);
    expect(cut.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(cut.body.detail).toContain('at most 4 combining marks in a row');
    const name = await t.http().post('/api/players').send({ name: hidden }).expect(400);
    expect(name.body.code).toBe('VALIDATION_FAILED');
    const seat = await t.http().post('/api/matches').send({ players: [hidden, 'Bob', 'Cyd'] }).expect(400);
    expect(seat.body.code).toBe('VALIDATION_FAILED');
  });
});
