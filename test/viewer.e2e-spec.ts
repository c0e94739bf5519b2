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

const t = useTestApp();
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
    await page.close();
  }, 60_000);
});
