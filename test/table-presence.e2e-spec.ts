/// <reference lib="dom" />
import { useTestApp } from './support/app';
import { useBrowser } from './support/browser';
import { lowContrast } from './support/page-text';
import { createMatch } from './support/player';
import { waitFor } from './support/wait';

// Presence at the table (issue 31): the page reads its seat's stream with the seat's token, so its
// seat is online to everyone while it is open; each person's seat shows "online" or "offline" in words,
// changed by the stream's `event: presence` with no read of the view.
const t = useTestApp();
const web = useBrowser(t);

const presenceOf = (page: import('playwright-core').Page, seat: number) => page.textContent(`[data-presence="${seat}"]`);

describe('presence at the table', () => {
  it("shows whose seat is online, makes its own seat online, and follows the others' streams live", async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    const astrid = await web.device(375);
    await astrid.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await astrid.page.waitForSelector('body[data-ready="true"]');
    // The page's own stream makes seat 0 connected, for everyone.
    await waitFor('seat 0 online', async () => ((await t.http().get(`/api/matches/${m.id}`)).body.connected[0] === true ? true : null), 30_000);
    await astrid.page.waitForFunction(() => document.querySelector('[data-presence="0"]')?.textContent === 'online');
    expect(await presenceOf(astrid.page, 1)).toBe('offline');
    expect(await presenceOf(astrid.page, 2)).toBe('offline');
    const version = await astrid.page.evaluate(() => document.body.dataset.version);

    // Bjørn opens his stream elsewhere: his seat turns online on Astrid's page, with no new version.
    const controller = new AbortController();
    const res = await fetch(`${web.base}/api/matches/${m.id}/events/stream`, { headers: { authorization: `Bearer ${m.seats[1].token}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    await astrid.page.waitForFunction(() => document.querySelector('[data-presence="1"]')?.textContent === 'online', undefined, { timeout: 30_000 });
    expect(await astrid.page.evaluate(() => document.body.dataset.version)).toBe(version);
    expect(await lowContrast(astrid.page)).toEqual([]);
    controller.abort();
    await astrid.page.waitForFunction(() => document.querySelector('[data-presence="1"]')?.textContent === 'offline', undefined, { timeout: 30_000 });

    // Astrid leaves: her seat is offline for the others.
    await astrid.page.close();
    await waitFor('seat 0 offline', async () => ((await t.http().get(`/api/matches/${m.id}`)).body.connected[0] === false ? true : null), 30_000);
    expect(astrid.errors).toEqual([]);
  }, 120_000);
});
