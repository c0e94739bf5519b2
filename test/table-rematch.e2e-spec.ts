/// <reference lib="dom" />
import { useTestApp } from './support/app';
import { useBrowser, type WatchedPage } from './support/browser';
import { createMatch, playToEnd } from './support/player';

// "Play again" at the table (issue 30): one seat asks for the rematch, every table at the finished
// match moves to it, each person in their own seat. Three pages draw every card of a whole match: on a
// loaded two-core machine that alone outlasts 90 s, so the test has three minutes.
const t = useTestApp();
const web = useBrowser(t);

describe('Play again', () => {
  it('moves every table of the finished match to the rematch, each person in their own seat; a table opened later offers the way there', async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const names = ['Astrid', 'Bjørn', 'Cecilia'];
    const tables: WatchedPage[] = [];
    for (const seat of [0, 1, 2]) {
      const table = await web.device(375);
      await table.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[seat].token)}`);
      await table.page.waitForSelector('body[data-ready="true"]');
      tables.push(table);
    }
    await playToEnd(t.http, m);
    for (const { page } of tables) expect(await (await page.waitForSelector('#playAgain', { timeout: 30_000 })).textContent()).toBe('Play again');
    expect(await tables[0].page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const asked = tables[1].page.waitForResponse((r) => r.url().endsWith(`/api/matches/${m.id}/rematch`));
    await tables[1].page.click('#playAgain');
    expect((await asked).status()).toBe(201);
    const { rematch } = (await t.http().get(`/api/matches/${m.id}`).expect(200)).body;
    expect(typeof rematch).toBe('string');
    for (const [seat, { page }] of tables.entries()) {
      await page.waitForURL(`${web.base}/play/${rematch}`, { timeout: 30_000 });
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.textContent('#myInfo .name')).toBe(`${names[seat]} (you)`);
    }
    const next = (await t.http().get(`/api/matches/${rematch}`).expect(200)).body;
    expect(next.seats.map((s: { name: string }) => s.name)).toEqual(names);

    // Astrid's seat link of the finished match, opened now: the table stays, its button leads on.
    const late = await web.device(375);
    await late.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await late.page.waitForSelector('body[data-status="finished"]');
    expect(await late.page.textContent('#playAgain')).toBe('Join the rematch');
    expect(late.page.url()).toBe(`${web.base}/play/${m.id}`);
    await late.page.click('#playAgain');
    await late.page.waitForURL(`${web.base}/play/${rematch}`);
    await late.page.waitForSelector('body[data-ready="true"]');
    expect(await late.page.textContent('#myInfo .name')).toBe('Astrid (you)');
    // No address any page asked for or showed held a token.
    for (const { urls, errors } of [...tables, late]) {
      expect(urls.filter((u) => m.seats.some((s) => u.includes(s.token)) && !u.includes('#token='))).toEqual([]);
      expect(errors).toEqual([]);
    }
  }, 180_000);
});
