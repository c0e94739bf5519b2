import { LANGUAGE_NAMES, LANGUAGES } from '../apps/api/src/platform/i18n/languages';
import { useTestApp } from './support/app';

// The API's problems in the caller's language (Accept-Language), and what the pages share: the
// language module, the list of languages (the service's own), the Fluent library, the catalogs and the icon.
const t = useTestApp();

describe('problems in the caller\'s language', () => {
  it.each([
    ['fi-FI,fi;q=0.9,en;q=0.5', 'fi', 'Ottelua ei ole', 'Tällaista ottelua ei ole: tarkista linkki.'],
    ['nb', 'nb', 'Partiet finnes ikke', 'Det finnes ikke noe slikt parti: sjekk lenken.'],
    ['no', 'nb', 'Partiet finnes ikke', 'Det finnes ikke noe slikt parti: sjekk lenken.'],
    ['nn-NO', 'nb', 'Partiet finnes ikke', 'Det finnes ikke noe slikt parti: sjekk lenken.'],
    ['sv-SE', 'sv', 'Partiet finns inte', 'Det finns inget sådant parti: kontrollera länken.'],
  ])('Accept-Language %s answers in %s, with the same code, status and type', async (header, lang, title, detail) => {
    const english = await t.http().get('/api/matches/no-such-match').expect(404);
    const res = await t.http().get('/api/matches/no-such-match').set('Accept-Language', header).expect(404);
    expect(res.headers['content-language']).toBe(lang);
    expect(res.headers.vary).toMatch(/Accept-Language/i);
    expect(res.body).toEqual({ ...english.body, title, detail });
  });

  it('answers in English, as written, without a header or for a language it does not speak', async () => {
    for (const header of [undefined, 'de-DE,de;q=0.9', 'en-GB', '*']) {
      const req = t.http().get('/api/matches/no-such-match');
      const res = await (header ? req.set('Accept-Language', header) : req).expect(404);
      expect(res.headers['content-language']).toBe('en');
      expect(res.body.title).toBe('No such match');
      expect(res.body.detail).toMatch(/^There is no such match/);
    }
  });

  it('keeps a developer\'s detail as written when it names the API\'s fields, with the title translated', async () => {
    const res = await t.http().post('/api/matches').set('Accept-Language', 'fi').send({ players: 'x' }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.title).toBe('Pyyntö on virheellinen');
    expect(res.body.detail).toMatch(/players/);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('translates a rule\'s refusal at the table', async () => {
    const created = await t.http().post('/api/matches').send({ players: ['Aino', 'Bjørn', 'Cecilia'] }).expect(201);
    const { id, seats } = created.body as { id: string; seats: { token: string }[] };
    const views = await Promise.all(seats.map((s) => t.http().get(`/api/matches/${id}/view`).set('Authorization', `Bearer ${s.token}`).expect(200)));
    const waiting = views.findIndex((v) => v.body.legal === null);
    expect(waiting).toBeGreaterThanOrEqual(0);
    const res = await t.http().post(`/api/matches/${id}/deal`).set('Authorization', `Bearer ${seats[waiting].token}`).set('Accept-Language', 'sv').expect(409);
    expect(res.body).toMatchObject({ code: 'NOT_YOUR_TURN', title: 'Det är inte din tur', detail: 'Vänta på din tur.' });
  });
});

describe('what the pages share', () => {
  it.each([
    ['/pages/assets/i18n.js', /javascript/],
    ['/pages/assets/languages.js', /javascript/],
    ['/pages/assets/dom.js', /javascript/],
    ['/pages/assets/fluent/index.js', /javascript/],
    ['/pages/assets/locales/fi/problems.ftl', /text\/plain/],
    ['/favicon.svg', /image\/svg\+xml/],
    ['/favicon.ico', /image\/svg\+xml/],
  ])('%s is served', async (path, type) => {
    const res = await t.http().get(path).expect(200);
    expect(res.headers['content-type']).toMatch(type);
  });

  it('serves the service\'s list of languages as the module the pages import, cached like the other scripts', async () => {
    const res = await t.http().get('/pages/assets/languages.js').expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const constant = (name: string): unknown => JSON.parse(new RegExp(`^export const ${name} = (.*);$`, 'm').exec(res.text)?.[1] ?? 'null');
    expect(constant('LANGUAGES')).toEqual([...LANGUAGES]);
    expect(constant('LANGUAGE_NAMES')).toEqual(LANGUAGE_NAMES);
    // The pages keep no list of their own: i18n.js imports this one.
    const i18n = await t.http().get('/pages/assets/i18n.js').expect(200);
    expect(i18n.text).toMatch(/^import \{ LANGUAGE_NAMES, LANGUAGES \} from '\.\/languages\.js';$/m);
  });

  it.each(['/pages/assets/nope.js', '/pages/assets/locales/de/problems.ftl', '/pages/assets/locales/fi/..%2Fen%2Fproblems.ftl', '/pages/assets/fluent/constructor'])('%s is a 404 problem', async (path) => {
    const res = await t.http().get(path).expect(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
