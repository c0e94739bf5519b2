/// <reference lib="dom" />
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { ARTIFACTS, openPage, useBrowser, type WatchedPage } from './support/browser';
import { lowContrast } from './support/page-text';
import { actionRequest, bearer, type CreatedMatch } from './support/player';
import { waitFor } from './support/wait';

// The table with a turn clock (issue 30): the countdown, the seats a stand-in bot plays for, the way
// back, at a table of three friends too (to its "Play again"). A test clock of a few seconds (`turnSeconds` is 5 at least).
const t = useTestApp();
const web = useBrowser(t);

const clock = (turnSeconds: number) => ({ turnSeconds, onTimeout: 'standIn' });
const events = async (id: string): Promise<any[]> => (await t.http().get(`/api/matches/${id}/events?limit=1000`).expect(200)).body.events;

/** The countdown the page shows: its seconds and whether it warns. */
const countdown = (page: Page, selector: string): Promise<{ seconds: number; text: string; low: boolean } | null> =>
  page.$eval(selector, (box) => {
    const timer = box.querySelector<HTMLElement>('[role="timer"]');
    return timer ? { seconds: Number(timer.dataset.seconds), text: timer.textContent!, low: timer.classList.contains('low') } : null;
  });

describe('the turn clock at the table', () => {
  it('counts down the person\'s time, warns under 10 s, lets the stand-in play, and brings the person back from away', async () => {
    // 20 s: the page may come up seconds after the turn began on a busy machine, and still show over 10 s.
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick', clock: clock(20) } }).expect(201)).body;
    const astrid = await web.device(375);
    await astrid.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    // The clock runs for a person only: the countdown comes with Astrid's first turn.
    await astrid.page.waitForSelector('#myInfo [role="timer"]', { timeout: 20_000 });
    const start = (await countdown(astrid.page, '#myInfo'))!;
    expect(start.seconds).toBeGreaterThan(9);
    expect(start.seconds).toBeLessThanOrEqual(20);
    expect(start.text).toMatch(/^0:[12]\d$/);
    expect(start.low).toBe(false);
    expect(await astrid.page.title()).toBe('● Your turn — Bismarck');
    // It ticks down (a busy page may show a second late, or skip one), and under 10 s the countdown warns.
    await astrid.page.waitForFunction((s) => Number(document.querySelector<HTMLElement>('#myInfo [role="timer"]')?.dataset.seconds) < s, start.seconds, { timeout: 5_000 });
    await astrid.page.waitForSelector('#myInfo [role="timer"].low', { timeout: 25_000 });
    expect(await lowContrast(astrid.page)).toEqual([]);
    expect(await astrid.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await astrid.page.screenshot({ path: join(ARTIFACTS, 'play-clock-low-375.png'), fullPage: true });

    // Astrid never acts: the stand-in plays her turns, and after two in a row she is away.
    await astrid.page.waitForSelector('#backBar:not([hidden]) #backBtn', { timeout: 90_000 });
    expect(await astrid.page.textContent('#backBar p')).toBe('You were away: a bot is playing for you. It plays at once until you come back.');
    const timedOut = (await events(m.id)).filter((e) => e.type === 'TurnTimedOut');
    expect(timedOut.length).toBeGreaterThanOrEqual(2);
    expect(timedOut.every((e) => e.data.seat === 0)).toBe(true);
    expect(await lowContrast(astrid.page)).toEqual([]);
    expect(await astrid.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await astrid.page.screenshot({ path: join(ARTIFACTS, 'play-away-375.png'), fullPage: true });
    await astrid.page.click('#backBtn');
    await astrid.page.waitForSelector('#backBar', { state: 'hidden' });
    expect((await events(m.id)).filter((e) => e.type === 'SeatReturned').map((e) => e.data.seat)).toEqual([0]);
    expect(astrid.errors).toEqual([]);
  }, 200_000);

  it('tells the others, in words, whose seat a bot plays while that person is away', async () => {
    const m: CreatedMatch = (await t.http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', { bot: 'greedy' }], options: { schedule: 'quick', clock: clock(5) } }).expect(201)).body;
    const astrid = await web.device(375);
    await astrid.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await astrid.page.waitForSelector('body[data-ready="true"]');
    // Astrid acts at once whenever it is her turn (through the API); Bjørn never does.
    let playing = true;
    const astridActs = (async () => {
      while (playing) {
        const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(m.seats[0].token)).expect(200)).body;
        if (view.status !== 'playing') return;
        if (view.legal && view.legal.action !== 'cut') await actionRequest(t.http, m, 0, view.legal, view.hand, (xs) => xs[0]);
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      await astrid.page.waitForSelector('.seat[data-seat="1"] .awayNote', { timeout: 40_000 });
      expect(await astrid.page.textContent('.seat[data-seat="1"] .awayNote')).toBe('Bjørn is away — a bot is playing for them');
      expect(await astrid.page.$$('.seat[data-seat="2"] .awayNote')).toHaveLength(0);
      expect(await lowContrast(astrid.page)).toEqual([]);
      expect(await astrid.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // Bjørn comes back (his button, on his own device): the note goes from Astrid's table.
      const bjorn = await web.device(375);
      await bjorn.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[1].token)}`);
      await bjorn.page.click('#backBtn');
      await astrid.page.waitForSelector('.seat[data-seat="1"] .awayNote', { state: 'detached', timeout: 10_000 });
      expect(astrid.errors.concat(bjorn.errors)).toEqual([]);
    } finally {
      playing = false;
      await astridActs;
    }
  }, 90_000);
});

describe('three friends at a table with a 5-second clock', () => {
  it('goes on without a closed tab, seats its person again from the shared link, finishes without one who never acts, and plays again', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick', clock: clock(5) } }).expect(201)).body;
    const shared = `${web.base}/play/${m.id}`;
    const astrid = await web.device(1280);
    await astrid.page.goto(`${shared}#token=${encodeURIComponent(m.seats[0].token)}`);
    await astrid.page.waitForSelector('#inviteLink');
    const friends: Record<string, { context: BrowserContext } & WatchedPage> = {};
    for (const who of ['Bjørn', 'Cecilia']) {
      friends[who] = await web.device(375);
      await friends[who].page.goto(shared);
      await friends[who].page.fill('#joinName', who);
      await friends[who].page.click('#joinBtn');
      await friends[who].page.waitForSelector('body[data-ready="true"]');
    }
    await astrid.page.waitForSelector('body[data-status="playing"]', { timeout: 15_000 });

    // Cecilia closes her tab: the deal goes on, her turns played by the stand-in when her time is up.
    const before = (await events(m.id)).length;
    await friends.Cecilia.page.close();
    await waitFor('a turn of Cecilia\'s timed out', async () => (await events(m.id)).find((e) => e.type === 'TurnTimedOut' && e.data.seat === 2), 30_000);
    expect((await events(m.id)).length).toBeGreaterThan(before);
    // She opens the table's shared link again in the same browser: her seat is offered, and taken.
    const back = await openPage(friends.Cecilia.context, 375);
    await back.page.goto(shared);
    await back.page.waitForSelector('body[data-ready="offer"]');
    await back.page.click('#takeBack');
    await back.page.waitForSelector('body[data-ready="true"]');
    expect(await back.page.textContent('#myInfo h2')).toContain('Cecilia (you)');
    if (await back.page.isVisible('#backBtn')) await back.page.click('#backBtn');

    // Nobody acts any more (Bjørn never did): the stand-ins finish the match.
    for (const page of [astrid.page, friends.Bjørn.page, back.page]) await page.waitForSelector('body[data-status="finished"]', { timeout: 150_000 });
    for (const page of [astrid.page, friends.Bjørn.page, back.page]) expect(await page.textContent('#playAgain')).toBe('Play again');
    // "Play again" at Astrid's table: every table moves to the rematch, each person in their own seat.
    const asked = astrid.page.waitForResponse((r) => r.url().endsWith(`/api/matches/${m.id}/rematch`));
    await astrid.page.click('#playAgain');
    expect((await asked).status()).toBe(201);
    const { rematch } = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    expect(typeof rematch).toBe('string');
    for (const [page, who] of [[astrid.page, 'Astrid'], [friends.Bjørn.page, 'Bjørn'], [back.page, 'Cecilia']] as const) {
      await page.waitForURL(`${web.base}/play/${rematch}`, { timeout: 20_000 });
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.textContent('#myInfo .name')).toBe(`${who} (you)`);
    }
    const next = (await t.http().get(`/api/matches/${rematch}`).expect(200)).body;
    expect(next.seats.map((s: { name: string }) => s.name)).toEqual(['Astrid', 'Bjørn', 'Cecilia']);
    expect(next.options.clock).toEqual(clock(5));
    expect(astrid.errors.concat(friends.Bjørn.errors, back.errors)).toEqual([]);
  }, 240_000);
});
