/// <reference lib="dom" />
// The table follows each deal for a person playing against two bots (issue 32): the table cards seen
// before forehand takes them, the last trick and an end-of-deal summary held until the person moves
// on, a phone's hand of whole 44 px cards, and the scorecard reachable from the table; in each
// language, at 375 px and at 1920 px.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { seriousAxe } from './support/axe';
import { ARTIFACTS, useBrowser } from './support/browser';

// The bot forehand's pause before it takes the table cards, kept short but long enough to be seen.
const PAUSE_MS = '1500';
let pauseSet = false;
const t = useTestApp(() => {
  pauseSet = process.env.BOT_TABLE_CARDS_PAUSE_MS === undefined;
  if (pauseSet) process.env.BOT_TABLE_CARDS_PAUSE_MS = PAUSE_MS;
}, () => {
  if (pauseSet) delete process.env.BOT_TABLE_CARDS_PAUSE_MS;
});
const web = useBrowser(t);

/** Every language at a phone's width and at a wide screen's. */
const RUNS: [string, number, number][] = ['en', 'fi', 'nb', 'sv'].flatMap((lang) => [[lang, 375, 812], [lang, 1920, 1080]] as [string, number, number][]);

/** The tappable cards of the hand: each at least 44 px wide, no two tap areas overlapping. */
async function tapTargets(page: Page): Promise<{ narrow: number; overlaps: number; count: number }> {
  return page.evaluate(() => {
    const boxes = Array.from(document.querySelectorAll('#hand button:not([disabled])')).map((b) => b.getBoundingClientRect());
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
      }
    }
    return { narrow: boxes.filter((b) => b.width < 44).length, overlaps, count: boxes.length };
  });
}

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('a deal followed at the table', () => {
  it.each(RUNS)('plays a quick match against two bots in %s at %i px, each deal seen from its table cards to its summary', async (lang, width, height) => {
    const started = Date.now();
    const context = await web.browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript((l) => {
      localStorage.setItem('bismarck.lang', l);
      // Every table card drawn face up and visible, whatever the moment the test looks.
      const seen: string[] = ((window as any).tableCardsSeen = []);
      new MutationObserver(() => {
        // The four together (a card's code comes again in another deal's deck).
        const shown = Array.from(document.querySelectorAll('#tableCards [data-card]')).filter((c) => {
          const box = c.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(c).visibility !== 'hidden';
        }).map((c) => c.getAttribute('data-card')!).sort().join();
        if (!seen.includes(shown)) seen.push(shown);
      }).observe(document, { subtree: true, childList: true });
    }, lang);
    const shot = (phase: string) => page.screenshot({ path: join(ARTIFACTS, `table-deal-${lang}-${width}-${phase}.png`), fullPage: true });
    const axed = new Set<string>();
    const axe = async (phase: string) => {
      if (axed.has(phase)) return;
      axed.add(phase);
      expect({ phase, violations: await seriousAxe(page) }).toEqual({ phase, violations: [] });
      await shot(phase);
    };
    const noScroll = async () => expect(await scrollWidth(page)).toBeLessThanOrEqual(width);

    const res = await page.goto(`${web.base}/play?lang=${lang}`);
    expect(res!.status()).toBe(200);
    await page.waitForSelector('body[data-ready="lobby"]');
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    await noScroll();
    await axe('lobby');
    await page.fill('#name', 'Astrid');
    await page.click('#start');
    await page.waitForURL(/\/play\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const api = `/api/matches/${id}`;
    await page.waitForSelector('body[data-ready="true"]');

    // The scorecard from the top of the table, without scrolling away from it.
    const scrolled = await page.evaluate(() => window.scrollY);
    await page.click('#scorecardToggle');
    const sheet = await page.evaluate(() => {
      const b = document.querySelector('#scorecard-table')!.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, scrollY: window.scrollY, inner: window.innerHeight };
    });
    expect(sheet.top).toBeGreaterThanOrEqual(0);
    expect(sheet.top).toBeLessThan(sheet.inner);
    expect(sheet.scrollY).toBe(scrolled);
    expect(await page.getAttribute('#scorecardToggle', 'aria-expanded')).toBe('true');
    await noScroll();
    await page.keyboard.press('s');
    expect(await page.getAttribute('#scorecardToggle', 'aria-expanded')).toBe('false');

    const summaries: number[] = [];
    let steps = 0;
    for (;;) {
      await page.waitForFunction(() => document.querySelector('#summaryContinue') !== null
        || document.body.dataset.status === 'finished'
        || (document.body.dataset.legal !== 'none' && document.querySelector('#hand button:not([disabled]), #actions button:not([disabled])') !== null), undefined, { timeout: 30_000 });

      if (await page.isVisible('#summaryContinue')) {
        // The end of the deal: the summary, the last trick still on the table, the header on the scored deal.
        const deal = Number(await page.getAttribute('body', 'data-summary'));
        const scorecard = (await t.http().get(`${api}/scorecard`).expect(200)).body;
        const row = scorecard.deals.find((d: any) => d.number === deal);
        expect(row).toBeDefined();
        const shown = await page.evaluate(() => ({
          contract: document.querySelector('#summaryContract')!.getAttribute('data-contract'),
          trump: document.querySelector('#summaryContract')!.getAttribute('data-trump'),
          tricks: Array.from(document.querySelectorAll('#summaryTable [data-tricks]')).map((c) => Number(c.getAttribute('data-tricks'))),
          points: Array.from(document.querySelectorAll('#summaryTable [data-points]')).map((c) => Number(c.getAttribute('data-points'))),
          away: document.querySelectorAll('#summaryAway [data-summary-card]').length,
          hands: Array.from(document.querySelectorAll('#summaryHands .summaryHand')).map((h) => h.querySelectorAll('[data-summary-card]').length),
          cards: new Set(Array.from(document.querySelectorAll('#dealSummary [data-summary-card]')).map((c) => c.getAttribute('data-summary-card'))).size,
          trick: document.querySelectorAll('#trick [data-card]').length,
          info: document.querySelector('#info')!.textContent!,
          row: document.querySelector(`#scorecard tr[data-deal="${document.body.dataset.summary}"]`)?.textContent ?? '',
        }));
        expect(shown.contract).toBe(row.contract);
        expect(shown.trump).toBe(row.trump ?? '');
        expect(shown.tricks).toEqual(row.tricks);
        expect(shown.points).toEqual(row.points);
        expect(shown.away).toBe(4);
        expect(shown.hands).toEqual([16, 16, 16]);
        expect(shown.cards).toBe(52); // 3 hands of 16 and the 4 table cards: the whole deck
        expect(shown.trick).toBe(3);
        expect(shown.info).toContain(String(deal));
        expect(shown.row).not.toBe(''); // the scorecard's row of the deal has its numbers
        await noScroll();
        summaries.push(deal);
        // Axe on the last summary only: the next deal's table cards wait for no one.
        if (deal === 3) await axe('summary');
        await page.click('#summaryContinue');
        await page.waitForFunction((d) => document.body.dataset.summary !== String(d), deal);
        continue;
      }
      if ((await page.getAttribute('body', 'data-status')) === 'finished') break;

      const legal = (await page.getAttribute('body', 'data-legal'))!;
      const before = Number(await page.getAttribute('body', 'data-version'));
      switch (legal) {
        case 'deal':
          await axe('deal');
          await page.click('#dealBtn');
          break;
        case 'cut':
          await page.click('#cutBtn', { timeout: 2000 }).catch(() => undefined);
          break;
        case 'chooseContract':
          await page.keyboard.press('1');
          break;
        case 'discard': {
          expect(await page.$$eval('#hand button', (b) => b.length)).toBe(20);
          expect(await page.$$eval('#tableCards [data-card]', (c) => c.length)).toBe(4);
          const open = await page.$$eval('#hand button:not([disabled])', (bs) => bs.map((b) => b.getAttribute('data-card')!));
          for (const card of open.slice(0, 4)) await page.click(`#hand button[data-card="${card}"]`);
          if (width <= 375) {
            const taps = await tapTargets(page);
            expect(taps).toEqual({ narrow: 0, overlaps: 0, count: 20 });
            await noScroll();
          }
          await axe('lay-away');
          await page.click('#layAway');
          break;
        }
        case 'play': {
          if (width <= 375) {
            const taps = await tapTargets(page);
            expect(taps.narrow).toBe(0);
            expect(taps.overlaps).toBe(0);
            await noScroll();
          }
          await axe('play');
          const card = await page.$eval('#hand button:not([disabled])', (b) => b.getAttribute('data-card')!);
          await page.click(`#hand button[data-card="${card}"]`);
          break;
        }
        default:
          continue;
      }
      steps++;
      expect(steps).toBeLessThan(80);
      await page.waitForFunction((v) => Number(document.body.dataset.version) !== v || document.querySelector('#summaryContinue') !== null
        || !document.querySelector<HTMLElement>('#notice')!.hidden, before, { timeout: 15_000 });
    }

    expect(summaries).toEqual([1, 2, 3]);
    // Every deal's four table cards were on the screen before forehand took them.
    const events = (await t.http().get(`${api}/events?limit=1000`).expect(200)).body.events;
    const tableCards = events.filter((e: any) => e.type === 'DealStarted').map((e: any) => e.data.tableCards as string[]);
    const seen: string[] = await page.evaluate(() => (window as any).tableCardsSeen);
    expect(tableCards.map((cards: string[]) => seen.includes([...cards].sort().join()))).toEqual(tableCards.map(() => true));
    const scorecard = (await t.http().get(`${api}/scorecard`).expect(200)).body;
    expect(scorecard.finished).toBe(true);
    await page.waitForSelector('#winners');
    expect(await page.$$eval('#scorecard [data-total]', (cells) => cells.map((c) => Number(c.textContent)))).toEqual(scorecard.totals);
    await noScroll();
    await axe('finished');
    expect([...axed].sort()).toEqual(['deal', 'finished', 'lay-away', 'lobby', 'play', 'summary']);
    expect(errors).toEqual([]);
    // eslint-disable-next-line no-console
    console.log(`table-deal ${lang} ${width}: ${Date.now() - started} ms`);
    await context.close();
  }, 120_000);

  it('sends the table with a Content-Security-Policy that allows only its own scripts', async () => {
    const res = await t.http().get('/play').expect(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
