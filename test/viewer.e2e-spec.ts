/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, useTestApp } from './support/app';
import { brokenWords } from './support/page-text';
import { listenLocal } from './support/server';
import { createMatch, playOneAction, playToEnd, seededPick } from './support/player';

// Debian's Chromium, installed by scripts/ensure.sh (npm test runs it first).
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '..', 'test-artifacts');

// A small node budget for the analysis of scored deals: the viewer asks for it (some early cards stay unsolved).
const t = useTestApp(
  () => (process.env.ANALYSIS_MAX_NODES = '100000'),
  () => delete process.env.ANALYSIS_MAX_NODES,
);
let browser: Browser;
let base: string;

beforeAll(async () => {
  base = await listenLocal(t.app);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
}, 60_000);

/** Moves the slider to a version and waits until the page shows it. */
async function showVersion(page: Page, version: number): Promise<void> {
  await page.$eval('#slider', (s: HTMLInputElement, v: number) => {
    s.value = String(v);
    s.dispatchEvent(new Event('input'));
  }, version);
  await page.waitForFunction((v) => document.querySelector('#step')?.getAttribute('data-version') === String(v), version);
}

// A card code as the API writes it ('QH', 'TS'): none may reach the visible text.
const RAW_CARD = /\b[2-9TJQKA][SHDC]\b/;

/**
 * WCAG contrast of each element's own text (selected elements and their descendants that hold text)
 * against the background it is drawn on: the backgrounds of its ancestors laid over one another
 * (semi-transparent panels over the felt), the page white at the bottom. Returns the ratios.
 */
function contrasts(page: Page, selector: string): Promise<{ text: string; ratio: number }[]> {
  return page.$$eval(selector, (roots) => {
    const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number).concat(1).slice(0, 4);
    const over = (top: number[], under: number[]): number[] => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
    };
    const lum = (c: number[]): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element): number[] => {
      const chain: Element[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e);
      return chain.reduce((under, e) => over(rgba(getComputedStyle(e).backgroundColor), under), [255, 255, 255, 1]);
    };
    const withText = roots.flatMap((r) => [r, ...Array.from(r.querySelectorAll('*'))])
      .filter((e) => Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== ''))
      .filter((e) => (e as HTMLElement).offsetParent !== null || getComputedStyle(e).position === 'fixed');
    return withText.map((e) => {
      const fg = over(rgba(getComputedStyle(e).color), background(e));
      const [hi, lo] = [lum(fg), lum(background(e))].sort((a, b) => b - a);
      return { text: `${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${(e.textContent ?? '').trim().slice(0, 40)}`, ratio: (hi + 0.05) / (lo + 0.05) };
    });
  });
}

/**
 * Each card's box inside its seat panel's box (a card sticking out is listed). Queried and measured in
 * one evaluation: between two, a late answer may redraw the seats and detach the cards found.
 */
function cardsOutsideSeats(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.seat .card')].flatMap((c, i) => {
      const box = c.getBoundingClientRect();
      const seat = c.closest('.seat')!.getBoundingClientRect();
      const inside = box.left >= seat.left - 0.5 && box.right <= seat.right + 0.5 && box.top >= seat.top - 0.5 && box.bottom <= seat.bottom + 0.5;
      return inside ? [] : [`card ${i} of ${c.closest('.seat')!.id}: [${box.left},${box.right}] outside [${seat.left},${seat.right}]`];
    }),
  );
}

/** The four step buttons stand on one line, every card inside its seat, and nothing is wider than the window. */
async function expectLayoutHolds(page: Page): Promise<void> {
  const tops = await page.$$eval('#stepper button', (bs) => bs.map((b) => (b as HTMLElement).offsetTop));
  expect(tops).toHaveLength(4);
  expect(new Set(tops).size).toBe(1);
  expect(await cardsOutsideSeats(page)).toEqual([]);
  const [scrollWidth, width, table, room] = await page.evaluate(() => [
    document.documentElement.scrollWidth, window.innerWidth,
    document.querySelector('#scorecard-table')!.scrollWidth, document.querySelector('#scorecard')!.clientWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(width);
  expect(table).toBeLessThanOrEqual(room); // the scorecard fits, no column cut off
}

describe('the replay viewer in a real browser', () => {
  it('opens a finished match, steps through it, and shows the same scorecard as the API', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playToEnd(t.http, m, seededPick(3));
    const api = (await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body;
    const latest = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version;

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');

    // At the end: the scorecard's totals are the API's, and the info line names the winners.
    const totals = await page.$$eval('[data-total]', (cells) => cells.map((c) => Number(c.textContent)));
    expect(totals).toEqual(api.totals);
    expect(await page.textContent('#info')).toMatch(/Finished/);
    expect(await page.textContent('#audit')).toMatch(/^audit passed · provably fair deals 0\/3$/);
    expect(await page.getAttribute('#step', 'data-version')).toBe(String(latest));
    // Finished: every deal is scored, so nothing is secret and every hand is drawn face up (no card backs).
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#step')?.getAttribute('data-version') === '1');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#step')?.getAttribute('data-version') === '13');
    await page.click('#prev');
    await page.waitForFunction(() => document.querySelector('#step')?.getAttribute('data-version') === '12');
    // Somewhere in the first deal's play: cards are drawn on the table.
    await page.$eval('#slider', (s: HTMLInputElement) => {
      s.value = String(Math.floor(Number(s.max) / 4));
      s.dispatchEvent(new Event('input'));
    });
    await page.waitForFunction(() => document.querySelectorAll('#seat-0 .card[data-card]').length > 0);
    expect(await page.$$eval('.card.back', (c) => c.length)).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'viewer.png'), fullPage: true });
    expect(await page.$('#forked-from')).toBeNull();

    // A fork of it says where it comes from and links there (no token in the link).
    const fork = (await t.http().post(`/api/matches/${m.id}/fork?version=0`).send({}).expect(201)).body;
    await page.goto(`${base}/viewer/${fork.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#forked-from')).toBe(`a fork of ${m.id.slice(0, 8)}… at step 0`);
    await Promise.all([page.waitForURL(`${base}/viewer/${m.id}`), page.click('#forked-from')]);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#audit')).toMatch(/^audit passed/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('plays on from the moment on screen of a finished match: a fork, with a link to each person\'s seat at the table', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playToEnd(t.http, m, seededPick(5));
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    // The card that completes the first trick: its TrickTaken comes in the same move, so the fork is made just before.
    const inside = events.find((e: any) => e.type === 'TrickTaken').version - 1;
    const refused = (await t.http().post(`/api/matches/${m.id}/fork?version=${inside}`).expect(422)).body;
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#forkBtn')).toBe(true);
    await showVersion(page, inside);
    await page.click('#forkBtn');
    await page.waitForSelector('#forkResult[data-fork]');
    const forkId = (await page.getAttribute('#forkResult', 'data-fork'))!;
    const fork = (await t.http().get(`/api/matches/${forkId}`).expect(200)).body;
    expect(fork.forkedFrom).toEqual({ matchId: m.id, version: refused.nearestForkable.before });
    expect(await page.textContent('#forkResult')).toContain(`from step ${refused.nearestForkable.before}`);
    const seats = await page.$$eval('#forkResult a.fork-seat', (as) => as.map((a) => a.textContent));
    expect(seats).toEqual(m.seats.map((s) => `play ${s.name}'s seat`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // A seat's link opens the fork's table for that seat.
    await page.click('#forkResult a.fork-seat');
    await page.waitForSelector('body[data-ready="true"]');
    expect(page.url()).toBe(`${base}/play/${forkId}`);
    expect(await page.textContent('#myInfo h2')).toContain(`${m.seats[0].name} (you)`);
    // A match in play cannot be forked: no button.
    const playing = await createMatch(t.http, { options: { schedule: 'quick' } });
    await page.goto(`${base}/viewer/${playing.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#forkBtn')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('follows a match in play through its event stream, to the end', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    for (let i = 0; i < 4; i++) await playOneAction(t.http, m);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const streamed = page.waitForResponse((r) => r.url().includes(`/api/matches/${m.id}/events/stream`));
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    // The browser's EventSource reads the stream the api answers from a socket of its own.
    const stream = await streamed;
    expect(stream.status()).toBe(200);
    expect(stream.headers()['content-type']).toMatch(/^text\/event-stream/);
    const shows = (version: number) => page.waitForFunction((v) => document.querySelector('#step')?.getAttribute('data-version') === String(v), version, { timeout: 20_000 });
    await playOneAction(t.http, m);
    await shows((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version);
    await playToEnd(t.http, m, seededPick(8));
    await shows((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version);
    expect(await page.textContent('#info')).toMatch(/Finished/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('says when the service cannot be reached, and follows live again by itself once it is back (a restart)', async () => {
    // A second api on the same database, on a port of its own, stopped and started again under the page.
    let other = await startTestApp(t.db);
    const port = Number(new URL(await listenLocal(other.app)).port);
    try {
      const m = await createMatch(t.http, { options: { schedule: 'quick' } });
      for (let i = 0; i < 4; i++) await playOneAction(t.http, m);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`http://127.0.0.1:${port}/viewer/${m.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      await other.stopApp();
      await page.waitForFunction(() => document.querySelector('#error')!.textContent !== '', undefined, { timeout: 15_000 });
      expect(await page.textContent('#error')).toMatch(/^The service cannot be reached\./);
      other = await startTestApp(t.db);
      await other.app.listen(port, '127.0.0.1');
      await page.waitForFunction(() => document.querySelector('#error')!.textContent === '', undefined, { timeout: 15_000 });
      // Live again: the next move shows without a reload.
      await playOneAction(t.http, m);
      const version = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version;
      await page.waitForFunction((v) => document.querySelector('#step')?.getAttribute('data-version') === String(v), version, { timeout: 15_000 });
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await other.stopApp();
    }
  }, 60_000);

  it('follows live again after End (or ▶|), having stepped back in a match in play', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    for (let i = 0; i < 4; i++) await playOneAction(t.http, m);
    const page = await browser.newPage();
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    const shows = async (version: number) => page.waitForFunction((v) => document.querySelector('#step')?.getAttribute('data-version') === String(v), version, { timeout: 15_000 });
    const latest = async () => (await t.http().get(`/api/matches/${m.id}`).expect(200)).body.version;
    await page.keyboard.press('Home');
    await shows(1);
    expect(await page.isChecked('#live')).toBe(false);
    await page.keyboard.press('End');
    await shows(await latest());
    expect(await page.isChecked('#live')).toBe(true);
    await playOneAction(t.http, m);
    await shows(await latest());
    await page.close();
  }, 60_000);

  it('takes a seat\'s token from the link, keeps it out of the address bar, and shows that seat\'s cards after a reload', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick', contractChoice: 'informed' } });
    for (let i = 0; i < 3; i++) await playOneAction(t.http, m);
    const seat = m.seats[0];
    const hand = (await t.http().get(`/api/matches/${m.id}/view`).set('Authorization', `Bearer ${seat.token}`).expect(200)).body.hand;
    expect(hand.length).toBeGreaterThan(0);
    const page = await browser.newPage();
    await page.goto(`${base}/viewer/${m.id}#token=${encodeURIComponent(seat.token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.evaluate(() => location.href)).toBe(`${base}/viewer/${m.id}`);
    const own = () => page.$$eval('#seat-0 .hand .card[data-card]:not(.away)', (cs) => cs.map((c) => c.getAttribute('data-card')));
    expect((await own()).sort()).toEqual([...hand].sort());
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect((await own()).sort()).toEqual([...hand].sort());
    await page.close();
  }, 60_000);

  it('shows a spectator only card backs for the hands of a deal in play', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick', contractChoice: 'informed' } });
    for (let i = 0; i < 6; i++) await playOneAction(t.http, m);
    const page = await browser.newPage();
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$$eval('.seat .card[data-card]', (c) => c.length)).toBe(0);
    expect(await page.$$eval('.seat .card.back', (c) => c.length)).toBeGreaterThan(40);
    // No analysis of a deal in play (it would be refused): the section stays hidden.
    expect(await page.$eval('#analysis', (a) => (a as HTMLElement).hidden)).toBe(true);
    await page.close();
  }, 60_000);

  it('marks the costly cards of a scored deal and shows its par, as the analysis says', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'viewer-analysis' });
    const pick = seededPick(4);
    while ((await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body.deals.length < 1) await playOneAction(t.http, m, pick);
    let analysis: any;
    for (let res; (res = await t.http().get(`/api/matches/${m.id}/analysis?deal=1`)).status !== 200; await new Promise((r) => setTimeout(r, 200))) {
      expect(res.status).toBe(202);
    }
    analysis = (await t.http().get(`/api/matches/${m.id}/analysis?deal=1`).expect(200)).body;
    const costly = analysis.cards.filter((c: any) => c.cost !== null && c.cost >= 1);
    expect(costly.length).toBeGreaterThan(0); // seeded: this deal has costly cards

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    // The newest version is in deal 2 (or just after deal 1's score); step to the middle of deal 1's last tricks.
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    const target = costly[costly.length - 1];
    const version = events.find((e: any) => e.type === 'CardPlayed' && e.data.deal === 1 && e.data.card === target.card).version;
    await page.$eval('#slider', (s: HTMLInputElement, v: number) => {
      s.value = String(v);
      s.dispatchEvent(new Event('input'));
    }, version);
    await page.waitForSelector('#par');
    const par = await page.textContent('#par');
    if (analysis.par.tricks.every((x: number | null) => x === null)) expect(par).toBe('What each player could have made from the first lead: the computer could not finish searching this position within its budget, so there is no verdict.');
    else expect(par).toContain(`${analysis.par.tricks[0] ?? 'no verdict'}`);
    expect(par).not.toContain('?');
    expect(await page.$$eval('#costly .card.costly', (c) => c.map((x) => x.getAttribute('data-card')))).toEqual(costly.map((c: any) => c.card));
    // The card just played, if costly, is marked on the table too.
    await page.waitForSelector(`#trick .card.costly[data-card="${target.card}"]`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-analysis.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('tells two seats of one name apart, and at 375 px keeps the scorecard\'s headings and deal numbers whole', async () => {
    // Two persons named Bo (as two bots of one strength are both "Greedy bot"); deal 1 scored.
    const m = await createMatch(t.http, { players: ['Bo', 'Bo', 'Cecilia'], options: { schedule: 'modern' } });
    for (let scored = false; !scored; ) {
      await playOneAction(t.http, m, seededPick(3));
      scored = (await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body.deals.length > 0;
    }
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(`${base}/viewer/${m.id}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$$eval('.seat h2', (hs) => hs.map((h) => h.firstChild!.textContent))).toEqual(['Bo (seat 1)', 'Bo (seat 0)', 'Cecilia']);
    expect(await page.$$eval('#scorecard thead th', (ths) => ths.slice(3).map((th) => th.textContent))).toEqual(['Bo (seat 0)', 'Bo (seat 1)', 'Cecilia']);
    const { view } = (await t.http().get(`/api/matches/${m.id}/replay?version=${await page.getAttribute('#step', 'data-version')}`).expect(200)).body;
    if (view.turn === 0 || view.turn === 1) expect(await page.textContent('#info')).toContain(`turn: Bo (seat ${view.turn})`);
    // No word of a heading, of a deal number or of the totals' label is broken over two lines.
    expect(await brokenWords(page, '#scorecard thead th, #scorecard tbody td:first-child, #scorecard tfoot td:first-child')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.close();
  }, 60_000);

  describe('what a new user met (issue 14)', () => {
    let m: Awaited<ReturnType<typeof createMatch>>;
    let events: { version: number; type: string; data: any }[];
    beforeAll(async () => {
      m = await createMatch(t.http, { options: { schedule: 'quick' }, seed: 'viewer-fixes' });
      await playToEnd(t.http, m, seededPick(5));
      events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    }, 60_000);

    it('shows at each moment only the deals scored by then and their totals, never the final ones before the end', async () => {
      const final = (await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body;
      const scored = events.filter((e) => e.type === 'DealScored').map((e) => e.version);
      expect(scored).toHaveLength(3);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/viewer/${m.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      // Event 27 (deal 1 in play), the moment deal 1 is scored, and one in deal 2; then the end.
      for (const version of [27, scored[0], scored[0] + 10, scored[1], events.length]) {
        await showVersion(page, version);
        const expected = (await t.http().get(`/api/matches/${m.id}/replay?version=${version}`).expect(200)).body.view.totals;
        const onScreen = () => page.$$eval('[data-total]', (cells) => cells.map((c) => Number(c.textContent)));
        expect(await onScreen()).toEqual(expected);
        const seatTotals = await page.$$eval('.seat', () => [0, 1, 2].map((s) => Number(/total (-?\d+)/.exec(document.querySelector(`#seat-${s} .stats`)?.textContent ?? '')?.[1])));
        expect(seatTotals).toEqual(expected);
        const rows = await page.$$eval('#scorecard tr[data-scored]', (r) => r.map((x) => Number(x.getAttribute('data-deal'))));
        expect(rows).toEqual(final.deals.map((d: any) => d.number).slice(0, scored.filter((v) => v <= version).length));
        const label = await page.textContent('#scorecard tfoot td');
        if (version < events.length) {
          expect(expected).not.toEqual(final.totals); // the seeded match makes the check bite: no spoiler
          expect(label).toBe(`totals at step ${version}`);
        } else expect(label).toBe('final');
      }
      await page.close();
    }, 120_000);

    it('writes cards and suits with symbols (hearts and diamonds red), never as codes', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/viewer/${m.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      const firstTrick = events.find((e) => e.type === 'TrickTaken')!;
      let sawRed = false;
      for (let version = 1; version <= events.length; version += 3) {
        await showVersion(page, version);
        const text = await page.innerText('body');
        expect({ version, raw: RAW_CARD.exec(text)?.[0] ?? null }).toEqual({ version, raw: null });
        if (version > firstTrick.version && version < events.findIndex((e) => e.type === 'DealScored') + 1) {
          const { view } = (await t.http().get(`/api/matches/${m.id}/replay?version=${version}`).expect(200)).body;
          const last = view.lastTrick;
          const symbol = (code: string) => `${code[0] === 'T' ? '10' : code[0]}${{ S: '♠', H: '♥', D: '♦', C: '♣' }[code[1]]}`;
          expect(await page.textContent('#lastTrick')).toBe(`${view.seats[last.winner].name} took the last trick: ${last.cards.map((p: any) => symbol(p.card)).join(' ')}`);
          const colours = await page.$$eval('#lastTrick .played', (ps) => ps.map((p) => [p.getAttribute('data-card')!, getComputedStyle(p).color]));
          for (const [code, colour] of colours) expect({ code, colour }).toEqual({ code, colour: /[HD]$/.test(code) ? 'rgb(192, 38, 45)' : 'rgb(27, 27, 27)' });
          sawRed ||= colours.some(([code]) => /[HD]$/.test(code));
        }
      }
      expect(sawRed).toBe(true);
      // The scorecard writes each deal's trump as a symbol too (red for hearts and diamonds).
      await showVersion(page, events.length);
      const deals = (await t.http().get(`/api/matches/${m.id}/scorecard`).expect(200)).body.deals;
      for (const d of deals) {
        const cell = await page.$eval(`#scorecard tr[data-deal="${d.number}"] td:nth-child(3)`, (c) => ({ text: c.textContent, red: c.querySelector('.sym.red') !== null }));
        const symbol = d.trump ? ` ${{ S: '♠', H: '♥', D: '♦', C: '♣' }[d.trump as string]}` : '';
        expect(cell).toEqual({ text: `${d.contract === 'notrump' ? 'no trump' : d.contract}${symbol}`, red: d.trump === 'H' || d.trump === 'D' });
      }
      await page.close();
    }, 180_000);

    it('draws the last trick and every text on the page at a contrast of at least 4.5:1 (WCAG AA)', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${base}/viewer/${m.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      const version = events.findIndex((e) => e.type === 'TrickTaken') + 3;
      await showVersion(page, version);
      await page.waitForSelector('#lastTrick:not(:empty)');
      const last = await contrasts(page, '#lastTrick');
      expect(last.length).toBeGreaterThanOrEqual(4); // the line and its three cards
      expect(last.filter((c) => c.ratio < 4.5)).toEqual([]);
      const low = (await contrasts(page, 'body')).filter((c) => c.ratio < 4.5);
      expect(low).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'viewer-1280.png'), fullPage: true });
      await page.close();
    }, 60_000);

    it('holds at 360 px wide: the step buttons on one line, every card inside its seat, nothing wider than the window', async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const finished = await browser.newPage({ viewport: { width: 360, height: 800 } });
      await finished.goto(`${base}/viewer/${m.id}`);
      await finished.waitForSelector('body[data-ready="true"]');
      await showVersion(finished, events.findIndex((e) => e.type === 'TrickTaken') + 3);
      await expectLayoutHolds(finished);
      await finished.screenshot({ path: join(ARTIFACTS, 'viewer-360.png'), fullPage: true });
      await finished.close();

      // In play: card backs, and forehand holding 20 cards while it lays away (rows wrap in the panel).
      const playing = await createMatch(t.http, { options: { schedule: 'quick', contractChoice: 'informed' } });
      for (let i = 0; i < 3; i++) await playOneAction(t.http, playing);
      for (const width of [360, 1280]) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        await page.goto(`${base}/viewer/${playing.id}`);
        await page.waitForSelector('body[data-ready="true"]');
        expect(await page.$$eval('.seat .card.back', (c) => c.length)).toBeGreaterThan(40);
        await expectLayoutHolds(page);
        await page.screenshot({ path: join(ARTIFACTS, `viewer-playing-${width}.png`), fullPage: true });
        await page.close();
      }

      // A bot's badge still shows, and its seat's heading wraps inside the panel.
      const withBot = await createMatch(t.http, { players: ['Astrid', { bot: 'greedy' }, 'Cecilia'], options: { schedule: 'quick' } });
      const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
      await page.goto(`${base}/viewer/${withBot.id}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.textContent('#seat-1 h2')).toContain('bot: greedy');
      await expectLayoutHolds(page);
      await page.close();
    }, 120_000);

    it('says at the top that there is no such match, for an unknown id and for one that is not a match id', async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-match']) {
        const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`${base}/viewer/${id}`);
        await page.waitForSelector('body[data-ready="missing"]');
        expect(await page.textContent('#notice h2')).toBe(`No match “${id}”`);
        expect(await page.$$eval('#notice a', (as) => as.map((a) => a.getAttribute('href')))).toEqual(['/play', '/docs']);
        const box = (await page.$('#notice'))!;
        expect((await box.boundingBox())!.y).toBeLessThan(150); // at the top, under the header
        expect(await page.isVisible('#table')).toBe(false);
        expect(await page.isVisible('#scorecard')).toBe(false);
        expect(await page.textContent('#error')).toBe(''); // not a second time at the bottom
        expect(errors).toEqual([]);
        if (id === 'not-a-match') await page.screenshot({ path: join(ARTIFACTS, 'viewer-missing-360.png'), fullPage: true });
        await page.close();
      }
    }, 60_000);
  });
});
