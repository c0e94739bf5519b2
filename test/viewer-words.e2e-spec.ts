/// <reference lib="dom" />
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FluentResource } from '@fluent/bundle';
import { chromium, type Browser, type Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { seriousAxe } from './support/axe';
import { listenLocal } from './support/server';
import { createMatch, playToEnd, seededPick } from './support/player';

// The replay viewer in players' words and in their languages (issue 32): the step line, the jumps by
// trick and by deal, the fairness badge explained, the phone layout, and axe in every language.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOCALES = join(__dirname, '..', 'apps', 'api', 'src', 'web', 'pages', 'assets', 'locales');
const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const symbol = (code: string) => `${code[0] === 'T' ? '10' : code[0]}${SUITS[code[1]]}`;

const t = useTestApp(
  () => (process.env.ANALYSIS_MAX_NODES = '100000'),
  () => delete process.env.ANALYSIS_MAX_NODES,
);
let browser: Browser;
let base: string;
let m: Awaited<ReturnType<typeof createMatch>>;
let events: { version: number; type: string; data: any }[];

beforeAll(async () => {
  base = await listenLocal(t.app);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  m = await createMatch(t.http, { options: { schedule: 'quick' } });
  await playToEnd(t.http, m, seededPick(7));
  events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
}, 120_000);

afterAll(async () => {
  await browser?.close();
}, 60_000);

async function open(path: string, width = 1280, height = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}${path}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

async function showVersion(page: Page, version: number): Promise<void> {
  await page.$eval('#slider', (s: HTMLInputElement, v: number) => {
    s.value = String(v);
    s.dispatchEvent(new Event('input'));
  }, version);
  await shows(page, version);
}
const shows = (page: Page, version: number) => page.waitForFunction((v) => document.querySelector('#step')?.getAttribute('data-version') === String(v), version);
const onScreen = async (page: Page) => Number(await page.getAttribute('#step', 'data-version'));

// The first event of each trick (its lead) and of each deal, from the log itself.
const trickStarts = () => events.filter((e, i) => e.type === 'CardPlayed' && !(events[i - 1]?.type === 'CardPlayed' && events[i - 1].data.trick === e.data.trick)).map((e) => e.version);
const dealStarts = () => events.filter((e) => e.type === 'DealStarted').map((e) => e.version);

describe('the replay viewer in players\' words', () => {
  it('writes each step as players say it: a card play names the player and the card, never an event type', async () => {
    const { page, errors } = await open(`/viewer/${m.id}`);
    const played = events.filter((e) => e.type === 'CardPlayed');
    const names = m.seats.map((s) => s.name);
    for (const e of [played[0], played[4], played[played.length - 1]]) {
      await showVersion(page, e.version);
      expect(await page.textContent('#step')).toBe(`Deal ${e.data.deal} · trick ${e.data.trick} · ${names[e.data.seat]} plays ${symbol(e.data.card)}`);
    }
    const taken = events.find((e) => e.type === 'TrickTaken')!;
    await showVersion(page, taken.version);
    expect(await page.textContent('#step')).toBe(`Deal ${taken.data.deal} · trick ${taken.data.trick} · ${names[taken.data.winner]} takes the trick`);
    const chosen = events.find((e) => e.type === 'ContractChosen');
    if (chosen?.data.contract === 'trump') {
      await showVersion(page, chosen.version);
      expect(await page.textContent('#step')).toBe(`Deal ${chosen.data.deal} · ${names[chosen.data.seat]} chooses trump ${SUITS[chosen.data.trump]}`);
    }
    const scored = events.find((e) => e.type === 'DealScored')!;
    await showVersion(page, scored.version);
    expect(await page.textContent('#step')).toBe(`Deal ${scored.data.deal} scored`);
    // Every step: no developer's words (an event type, "event 96 / 214", a dash for a missing deal).
    for (let version = 1; version <= events.length; version += 5) {
      await showVersion(page, version);
      const line = `${await page.textContent('#step')} | ${await page.textContent('#info')}`;
      expect({ version, line, bad: /[A-Z][a-z]+[A-Z][a-z]+|\bevent\b|[–—]/.test(line) }).toEqual({ version, line, bad: false });
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('jumps by trick to the first card of the next and previous trick, and by deal to the next and previous deal, by button and by key', async () => {
    const { page, errors } = await open(`/viewer/${m.id}`);
    const tricks = trickStarts();
    const deals = dealStarts();
    expect(tricks).toHaveLength(48);
    expect(deals).toHaveLength(3);
    // From the middle of deal 1's third trick.
    await showVersion(page, tricks[2] + 1);
    await page.click('#nextTrick');
    await shows(page, tricks[3]);
    await page.click('#prevTrick');
    await shows(page, tricks[2]);
    await page.click('#prevTrick');
    await shows(page, tricks[1]);
    await page.keyboard.press(']');
    await shows(page, tricks[2]);
    await page.keyboard.press('PageDown');
    await shows(page, tricks[3]);
    await page.keyboard.press('[');
    await shows(page, tricks[2]);
    // Deal 1's last trick: the next trick is deal 2's first.
    await showVersion(page, tricks[15] + 2);
    await page.click('#nextTrick');
    await shows(page, tricks[16]);
    // By deal: to deal 2 and deal 3, and back.
    await page.click('#nextDeal');
    await shows(page, deals[2]);
    await page.click('#prevDeal');
    await shows(page, deals[1]);
    await page.keyboard.press('Shift+BracketLeft');
    await shows(page, deals[0]);
    await page.keyboard.press('Shift+BracketRight');
    await shows(page, deals[1]);
    await page.keyboard.press('Shift+PageDown');
    await shows(page, deals[2]);
    expect(await page.isDisabled('#nextDeal')).toBe(true);
    // Each landing is where the log says that trick or deal starts.
    const at = await onScreen(page);
    expect(events[at - 1].type).toBe('DealStarted');
    expect(events[at - 1].data.deal).toBe(3);
    // The one-step buttons still step one event, and the slider stays.
    await page.click('#next');
    await shows(page, deals[2] + 1);
    expect(await page.isVisible('#slider')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('explains the fairness badge in a sentence and links to the match\'s audit', async () => {
    const { page } = await open(`/viewer/${m.id}`);
    expect(await page.textContent('#audit')).toMatch(/^audit passed · provably fair deals \d\/3$/);
    const sentence = await page.textContent('#fairness');
    expect(sentence).toMatch(/provably fair deal/);
    expect(sentence).toMatch(/before a player cut/);
    expect(sentence).toMatch(/anyone can check/);
    const href = await page.getAttribute('#audit-link', 'href');
    expect(href).toBe(`/api/matches/${m.id}/audit`);
    await t.http().get(href!).expect(200);
    await page.close();
  }, 60_000);

  it('keeps the step buttons and the scorecard at hand on a phone (375 × 812): fixed controls, 44 px targets, no sideways scroll', async () => {
    const { page } = await open(`/viewer/${m.id}`, 375, 812);
    await showVersion(page, trickStarts()[5] + 1);
    const boxes = await page.$$eval('#controls button', (bs) => bs.map((b) => { const r = b.getBoundingClientRect(); return { id: b.id, w: r.width, h: r.height, bottom: r.bottom }; }));
    expect(boxes).toHaveLength(8);
    for (const b of boxes) expect({ id: b.id, big: b.w >= 44 && b.h >= 44, inView: b.bottom <= 812 }).toEqual({ id: b.id, big: true, inView: true });
    // The table's top seat is on screen together with the buttons, and stays with them when the page scrolls.
    expect(await page.$eval('#controls', (c) => getComputedStyle(c).position)).toBe('fixed');
    expect(await page.$eval('#seat-1', (s) => s.getBoundingClientRect().top)).toBeLessThan(812 / 2);
    await page.click('#nextTrick');
    await shows(page, trickStarts()[6]);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    mkdirSync(join(__dirname, '..', 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(__dirname, '..', 'test-artifacts', 'viewer-phone-375.png') });
    // The scorecard: one link away, and it fits the width.
    await page.click('#toScorecard');
    await page.waitForFunction(() => { const r = document.querySelector('#scorecard')!.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; });
    const [scrollWidth, table, room] = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector('#scorecard-table')!.scrollWidth, document.querySelector('#scorecard')!.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(375);
    expect(table).toBeLessThanOrEqual(room);
    await page.close();
  }, 60_000);
});

// The English catalog's plain messages (no placeable), to find any left untranslated on a page.
function plainMessages(lang: string): Map<string, string> {
  const res = new FluentResource(readFileSync(join(LOCALES, lang, 'viewer.ftl'), 'utf8'));
  return new Map(res.body.flatMap((msg: any) => (msg.value && typeof msg.value === 'string' ? [[msg.id, msg.value]] : msg.value?.elements?.length === 1 && msg.value.elements[0].value ? [[msg.id, msg.value.elements[0].value]] : [])));
}

describe.each([
  ['fi', 'tikki', 'Jako'],
  ['nb', 'stikk', 'Giv'],
  ['sv', 'stick', 'Giv'],
])('the replay viewer in %s', (lang, trickWord, dealWord) => {
  it('speaks the language by ?lang=: html lang, the game\'s words, no English text left, and the API asked in it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const asked: string[] = [];
    // Every fetch of the API (an EventSource cannot set a header: the stream only wakes the page up).
    page.on('request', (r) => { if (r.url().includes('/api/') && !r.url().includes('/events/stream')) asked.push(r.headers()['accept-language'] ?? ''); });
    await page.goto(`${base}/viewer/${m.id}?lang=${lang}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    const card = events.filter((e) => e.type === 'CardPlayed')[7];
    await showVersion(page, card.version);
    await page.waitForSelector('#par');
    const step = (await page.textContent('#step'))!;
    expect(step.startsWith(`${dealWord} ${card.data.deal} · ${trickWord} ${card.data.trick} · `)).toBe(true);
    expect(step).toContain(symbol(card.data.card));
    const text = await page.innerText('body');
    const own = plainMessages(lang);
    const english = [...plainMessages('en')].filter(([id, value]) => own.get(id) !== value && value.length >= 4);
    expect(english.length).toBeGreaterThan(20);
    const left = english.filter(([, value]) => new RegExp(`(^|[^\\p{L}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(text));
    expect(left).toEqual([]);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((h) => h !== lang)).toEqual([]);
    expect(await page.$eval('#language', (s: HTMLSelectElement) => s.value)).toBe(lang);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe.each(['en', 'fi', 'nb', 'sv'])('axe on the replay viewer in %s', (lang) => {
  it.each([375, 1920])('has no serious or critical violation at %i px, nor a sideways scroll', async (width) => {
    const { page } = await open(`/viewer/${m.id}?lang=${lang}`, width, width === 375 ? 812 : 1080);
    await showVersion(page, trickStarts()[20] + 1); // deal 2, its analysis and a costly card or two
    await page.waitForSelector('#par');
    expect(await seriousAxe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.close();
  }, 60_000);
});
