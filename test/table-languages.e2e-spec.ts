/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { seriousAxe } from './support/axe';
import { openPage, useBrowser } from './support/browser';

// The table in Finnish, Norwegian and Swedish (issue 32): chosen by `?lang=`, by the browser's
// preference, or by the picker (kept after a reload); the game's own words, no English left over, and
// no serious accessibility violation in any of them.
const t = useTestApp();
const web = useBrowser(t);

const WORDS = {
  fi: { start: 'Aloita ottelu', greedy: 'ahne', forehand: 'etumies', trump: 'valtti', suit: /pata|hertta|ruutu|risti/ },
  nb: { start: 'Start et parti', greedy: 'grådig', forehand: 'forhånd', trump: 'trumf', suit: /spar|hjerter|ruter|kløver/ },
  sv: { start: 'Starta ett parti', greedy: 'girig', forehand: 'förhand', trump: 'trumf', suit: /spader|hjärter|ruter|klöver/ },
} as const;

// Distinctive English of the catalog (texts, then names and hints a screen reader reads).
const ENGLISH_TEXT = ['Start the match', 'The other two seats', 'Turn clock', 'Your name', 'Keyboard', 'Scorecard', 'Choose the contract', 'Quotas', 'show last trick', 'new match', 'replay viewer', 'Your seat’s link', 'to act'];
const ENGLISH_NAMES = ['of spades', 'of hearts', 'of diamonds', 'of clubs', 'face down', 'Your hand', 'Current trick', 'Table cards', 'the name the others see'];

/** The page's visible text and the accessible names and hints of its elements. */
const shown = (page: Page): Promise<{ text: string; names: string }> => page.evaluate(() => ({
  text: document.body.innerText,
  names: Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))
    .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? '')).join('\n'),
}));

async function expectNoEnglish(page: Page): Promise<void> {
  const { text, names } = await shown(page);
  expect(ENGLISH_TEXT.filter((s) => text.includes(s))).toEqual([]);
  expect(ENGLISH_NAMES.filter((s) => names.includes(s) || text.includes(s))).toEqual([]);
}

/** A modern match (forehand chooses the contract) of a person and two bots whose first dealer is seat 2, so that the person is forehand. */
async function forehandMatch(): Promise<any> {
  for (;;) {
    const m = (await t.http().post('/api/matches').send({ players: ['Aino', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'modern' } }).expect(201)).body;
    if (m.firstDealer === 2) return m;
  }
}

describe.each(Object.keys(WORDS) as (keyof typeof WORDS)[])('the table in %s', (lang) => {
  const words = WORDS[lang];

  it('shows the lobby in the language asked for, with the bots and the rules explained', async () => {
    const { page, errors } = await openPage(web.browser, 1280);
    await page.goto(`${web.base}/play?lang=${lang}`);
    await page.waitForSelector('body[data-ready="lobby"]');
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.textContent('#lobby-title')).toBe(words.start);
    expect(await page.textContent('#bot option[value="greedy"]')).toBe(words.greedy);
    expect(await page.textContent('#botHelp')).toContain(words.greedy);
    expect(await page.getAttribute('#bot', 'aria-describedby')).toBe('botHelp');
    for (const link of ['#rulesLink', '#lobbyRules']) expect(await page.getAttribute(link, 'href')).toBe(`/rules?lang=${lang}`);
    expect(await page.inputValue('#language')).toBe(lang);
    await expectNoEnglish(page);
    expect(await seriousAxe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('plays the table in the language: the game\'s words, the cards\' names, nothing in English', async () => {
    const m = await forehandMatch();
    const { page, errors } = await openPage(web.browser, 1280);
    await page.goto(`${web.base}/play/${m.id}?lang=${lang}#token=${encodeURIComponent(m.seats[0].token)}`);
    await page.waitForSelector('body[data-legal="chooseContract"]', { timeout: 20_000 });
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.textContent('#myInfo')).toContain(words.forehand);
    expect(await page.textContent('#contractHelp')).toContain(words.trump);
    // The table cards are images named in the language.
    expect(await page.getAttribute('#tableCards [data-card]', 'role')).toBe('img');
    expect(await page.getAttribute('#tableCards [data-card]', 'aria-label')).toMatch(words.suit);
    await expectNoEnglish(page);
    expect(await seriousAxe(page)).toEqual([]);
    // The hand's buttons: each name begins with what the button shows, then the card in words.
    await page.click('#actions button.contract');
    await page.waitForSelector('body[data-legal="discard"]', { timeout: 20_000 });
    const names = await page.$$eval('#hand button', (bs) => bs.map((b) => [b.textContent, b.getAttribute('aria-label')]));
    expect(names).toHaveLength(20);
    for (const [text, name] of names) {
      expect(name!.startsWith(`${text},`)).toBe(true);
      expect(name).toMatch(words.suit);
    }
    await expectNoEnglish(page);
    expect(await seriousAxe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});

describe('the language of the table', () => {
  it('follows the browser\'s preference, and the picker\'s choice is kept after a reload', async () => {
    const fi = await web.browser.newContext({ locale: 'fi-FI' });
    try {
      const page = await fi.newPage();
      await page.goto(`${web.base}/play`);
      await page.waitForSelector('body[data-ready="lobby"]');
      expect(await page.getAttribute('html', 'lang')).toBe('fi');
      expect(await page.textContent('#lobby-title')).toBe(WORDS.fi.start);
      // The picker: the page reloads in Swedish, and stays so (this browser keeps the choice).
      await Promise.all([page.waitForNavigation(), page.selectOption('#language', 'sv')]);
      await page.waitForSelector('body[data-ready="lobby"]');
      expect(await page.getAttribute('html', 'lang')).toBe('sv');
      await page.reload();
      await page.waitForSelector('body[data-ready="lobby"]');
      expect(await page.getAttribute('html', 'lang')).toBe('sv');
      expect(await page.textContent('#lobby-title')).toBe(WORDS.sv.start);
      await expectNoEnglish(page);
    } finally {
      await fi.close();
    }
  }, 60_000);

  it('says the cut\'s rule before anything is typed, and keeps a refused cut as typed with the problem in the language', async () => {
    // Seat 1 (a person who waits) deals, so seat 0 cuts.
    let m: any;
    do m = (await t.http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    while (m.firstDealer !== 1);
    const { page, errors } = await openPage(web.browser, 375);
    await page.goto(`${web.base}/play/${m.id}?lang=nb#token=${encodeURIComponent(m.seats[0].token)}`);
    await page.waitForSelector('body[data-legal="cut"]');
    expect(await page.isVisible('#cutHint')).toBe(true);
    expect(await page.textContent('#cutHint')).toContain('1 til 64');
    expect(await page.getAttribute('#cutText', 'aria-describedby')).toBe('cutHint');
    expect(await page.inputValue('#cutText')).toBe('');
    expect(await seriousAxe(page)).toEqual([]);
    // Too long, counted as a person counts (one "ø" is one character): said at once, nothing sent.
    await page.fill('#cutText', 'ø'.repeat(65));
    await page.click('#cutBtn');
    expect(await page.textContent('#notice .title')).toBe('Et avtak har høyst 64 tegn');
    expect(await page.inputValue('#cutText')).toBe('ø'.repeat(65));
    // Refused by the service (a control character): the text stays, the problem is said in Norwegian.
    const refused = 'lykke\u0007til';
    await page.fill('#cutText', refused);
    const before = await page.evaluate(() => document.body.dataset.version);
    await page.click('#cutBtn');
    await page.waitForFunction(() => document.querySelector('#notice .title')?.textContent !== 'Et avtak har høyst 64 tegn');
    expect(await page.textContent('#notice .title')).toBe('Forespørselen er ugyldig');
    expect(await page.inputValue('#cutText')).toBe(refused);
    expect(await page.evaluate(() => document.body.dataset.version)).toBe(before);
    // Accepted: the typed cut is the one mixed into the deck.
    await page.fill('#cutText', 'lykke-til');
    await page.click('#cutBtn');
    await page.waitForFunction(() => document.body.dataset.legal !== 'cut');
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    expect(events.find((e: any) => e.type === 'DeckCut')?.data).toEqual(expect.objectContaining({ seat: 0, cut: 'lykke-til' }));
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
