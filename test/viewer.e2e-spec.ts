/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { useTestApp } from './support/app';
import { listenLocal } from './support/server';
import { createMatch, playOneAction, playToEnd, seededPick } from './support/player';

// Debian's Chromium, installed by scripts/ensure-chromium.sh (npm test runs it first).
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
});

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
    expect(await page.textContent('#audit')).toMatch(/^audit ok · provably fair deals 0\/3$/);
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
    expect(await page.textContent('#par')).toContain(`${analysis.par.tricks[0] ?? '?'}`);
    expect(await page.$$eval('#costly .card.costly', (c) => c.map((x) => x.getAttribute('data-card')))).toEqual(costly.map((c: any) => c.card));
    // The card just played, if costly, is marked on the table too.
    await page.waitForSelector(`#trick .card.costly[data-card="${target.card}"]`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-analysis.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
