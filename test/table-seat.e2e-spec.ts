/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { ARTIFACTS, openPage, useBrowser } from './support/browser';
import { lowContrast } from './support/page-text';
import { createMatch, playToEnd } from './support/player';

// A seat that survives a closed tab (issue 30): the seat's own link, the browser's memory of the seat,
// and the lobby's turn clock.
const t = useTestApp();
const web = useBrowser(t);

/** What this browser's local storage holds for the match (the page's entry), or null. */
const heldSeat = (page: Page, id: string): Promise<{ seat: number; token: string } | null> =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), `bismarck.seat.${id}`);

const fitsAt = (page: Page, width: number): Promise<boolean> => page.evaluate((w) => document.documentElement.scrollWidth <= w, width);

describe('a seat at the table survives a closed tab', () => {
  it('shows the seat\'s own link with a copy button and what it is for; opened in another browser, it seats the person', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    const token = m.seats[0].token;
    const context = await web.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });
    const { page, errors, urls } = await openPage(context, 375);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    const link = `${web.base}/play/${m.id}#token=${encodeURIComponent(token)}`;
    expect(await page.textContent('#seatTools h2')).toBe('Your seat’s link');
    expect(await page.inputValue('#seatLink')).toBe(link);
    expect(await page.textContent('#seatLinkHelp')).toMatch(/^Open it on any device to take your seat back.*do not share it/);
    await page.click('#copySeatLink');
    await page.waitForFunction(() => document.querySelector('#copySeatLink')!.textContent === 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    // At 375 px the link and its button stay inside the window, and every text reads at 4.5:1.
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'play-seat-link-375.png'), fullPage: true });
    // No request carried the token in its address: only the link the page was opened with held it.
    expect(urls.filter((u) => u.includes(token))).toEqual([link]);

    // Another device: the link seats Astrid there too.
    const other = await openPage(await web.context(), 375);
    await other.page.goto(link);
    await other.page.waitForSelector('body[data-ready="true"]');
    expect(await other.page.textContent('#myInfo h2')).toContain('Astrid (you)');
    expect(await other.page.evaluate(() => location.href)).toBe(`${web.base}/play/${m.id}`);
    expect(errors.concat(other.errors)).toEqual([]);
  }, 60_000);

  it('offers the seat back when the shared link is opened again in the same browser, and forgets it when the match ends', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const context = await web.context();
    const first = await openPage(context, 375);
    await first.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await first.page.waitForSelector('body[data-ready="true"]');
    expect(await heldSeat(first.page, m.id)).toEqual(expect.objectContaining({ seat: 0, token: m.seats[0].token }));
    await first.page.close();

    // A new tab of the same browser, on the table's shared address (no token in it).
    const again = await openPage(context, 375);
    await again.page.goto(`${web.base}/play/${m.id}`);
    await again.page.waitForSelector('body[data-ready="offer"]');
    expect(await again.page.textContent('#offerWho')).toBe('This browser held Astrid’s seat at this table (seat 0).');
    expect(await fitsAt(again.page, 375)).toBe(true);
    expect(await lowContrast(again.page)).toEqual([]);
    await again.page.screenshot({ path: join(ARTIFACTS, 'play-seat-offer-375.png'), fullPage: true });
    await again.page.click('#takeBack');
    await again.page.waitForSelector('body[data-ready="true"]');
    expect(await again.page.textContent('#myInfo h2')).toContain('Astrid (you)');
    expect(again.urls.filter((u) => u.includes(m.seats[0].token))).toEqual([]);

    // Another browser never held the seat: nothing is offered there.
    const stranger = await openPage(await web.context(), 375);
    await stranger.page.goto(`${web.base}/play/${m.id}`);
    await stranger.page.waitForSelector('body[data-ready="no-token"]');
    expect(await stranger.page.isVisible('#offer')).toBe(false);

    // The match ends (played through the API): the open table forgets the seat in this browser.
    await playToEnd(t.http, m);
    await again.page.waitForSelector('body[data-status="finished"]', { timeout: 15_000 });
    await again.page.waitForFunction((key) => localStorage.getItem(key) === null, `bismarck.seat.${m.id}`);
    expect(await again.page.isVisible('#seatTools')).toBe(false);
    const later = await openPage(context, 375);
    await later.page.goto(`${web.base}/play/${m.id}`);
    await later.page.waitForSelector('body[data-ready="no-token"]');
    expect(first.errors.concat(again.errors, stranger.errors, later.errors)).toEqual([]);
  }, 90_000);

  it('forgets the seat when the person says it is not theirs, and when the service refuses its token', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const context = await web.context();
    const first = await openPage(context, 1280);
    await first.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[1].token)}`);
    await first.page.waitForSelector('body[data-ready="true"]');
    await first.page.close();
    const shared = await openPage(context, 1280);
    await shared.page.goto(`${web.base}/play/${m.id}`);
    await shared.page.waitForSelector('body[data-ready="offer"]');
    expect(await shared.page.textContent('#offerWho')).toContain('Bjørn’s seat');
    await shared.page.click('#forgetSeat');
    await shared.page.waitForSelector('body[data-ready="no-token"]');
    expect(await heldSeat(shared.page, m.id)).toBeNull();

    // A seat kept with a token the service does not know: taken, refused, and kept no more.
    await shared.page.evaluate(([key, value]) => localStorage.setItem(key, value), [`bismarck.seat.${m.id}`, JSON.stringify({ seat: 2, token: 'not-a-token', saved: Date.now() })]);
    const stale = await openPage(context, 1280);
    await stale.page.goto(`${web.base}/play/${m.id}`);
    await stale.page.waitForSelector('body[data-ready="offer"]');
    await stale.page.click('#takeBack');
    await stale.page.waitForSelector('body[data-ready="failed"]');
    expect(await stale.page.textContent('#notice .title')).toBe('A valid seat token is required');
    expect(await heldSeat(stale.page, m.id)).toBeNull();
    expect(await stale.page.evaluate((key) => sessionStorage.getItem(key), `bismarck.seat-token.${m.id}`)).toBeNull();
    expect(first.errors.concat(shared.errors, stale.errors)).toEqual([]);
  }, 60_000);
});

describe('the lobby\'s turn clock', () => {
  it('sends the clock chosen (none against two bots, 60 s by default with friends), and fits at 375 px', async () => {
    const { page, errors } = await web.device(375);
    await page.goto(`${web.base}/play`);
    await page.waitForSelector('body[data-ready="lobby"]');
    expect(await page.$$eval('#clock option', (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]))).toEqual([
      ['', 'off'], ['30', '30 s a turn'], ['60', '60 s a turn'], ['120', '2 min a turn'],
    ]);
    expect(await page.inputValue('#clock')).toBe('');
    await page.selectOption('#others', 'friends');
    expect(await page.inputValue('#clock')).toBe('60');
    await page.selectOption('#others', 'friend');
    expect(await page.inputValue('#clock')).toBe('60');
    await page.selectOption('#others', 'bots');
    expect(await page.inputValue('#clock')).toBe('');
    // Once the person chose a clock, the seats' choice leaves it alone.
    await page.selectOption('#clock', '30');
    await page.selectOption('#others', 'friends');
    expect(await page.inputValue('#clock')).toBe('30');
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'play-lobby-clock-375.png'), fullPage: true });
    await page.fill('#name', 'Astrid');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/matches') && r.method() === 'POST');
    await page.click('#start');
    expect(JSON.parse((await sent).postData()!)).toEqual({ players: ['Astrid', null, null], options: { schedule: 'quick', clock: { turnSeconds: 30, onTimeout: 'standIn' } } });
    expect(errors).toEqual([]);
  }, 60_000);
});
