/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useTestApp } from './support/app';
import { seriousAxe } from './support/axe';
import { ARTIFACTS, openPage, useBrowser } from './support/browser';
import { lowContrast } from './support/page-text';
import { bearer } from './support/player';

// The table's player panel (issue 31): a player created or signed in on /play, its matches listed
// with its turns first, its seats played with its token on any device, and a revoked token forgotten.
const t = useTestApp();
const web = useBrowser(t);

const KEY = 'bismarck.player';
const held = (page: Page): Promise<string | null> => page.evaluate((key) => localStorage.getItem(key), KEY);
const fitsAt = (page: Page, width: number): Promise<boolean> => page.evaluate((w) => document.documentElement.scrollWidth <= w, width);

/** One move of the seat, as a person makes it with the page's buttons, whatever the seat may do now. */
async function playOneMove(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]:not([data-legal="none"])', { timeout: 20_000 });
  const before = await page.evaluate(() => document.body.dataset.version);
  const legal = await page.evaluate(() => document.body.dataset.legal);
  if (legal === 'deal') await page.click('#dealBtn');
  else if (legal === 'cut') await page.click('#cutBtn');
  else if (legal === 'chooseContract') await page.click('#actions button.contract');
  else if (legal === 'discard') {
    for (let i = 0; i < 4; i++) await page.click('#hand button.legal');
    await page.click('#layAway');
  } else await page.click('#hand button:not([disabled])');
  await page.waitForFunction((v) => document.body.dataset.version !== v, before);
}

describe('a player at the table', () => {
  it('creates a player in the page, starts a match against two bots as that player, and plays it from a second device signed in with the same token', async () => {
    const first = await web.device(375);
    await first.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });
    const { page } = first;
    await page.goto(`${web.base}/play`);
    await page.waitForSelector('#createPlayer');
    expect(await page.textContent('#player h2')).toBe('Player');
    expect(await seriousAxe(page)).toEqual([]);
    // By keyboard: the new player's name, then Enter.
    const created = page.waitForResponse((r) => r.url().endsWith('/api/players') && r.request().method() === 'POST');
    await page.focus('#playerName');
    await page.keyboard.type('Astrid');
    await page.keyboard.press('Enter');
    const { tokenId } = await (await created).json();
    await page.waitForSelector('#newPlayerToken');
    const token = await page.inputValue('#newPlayerToken');
    expect(token).toMatch(/^bskp_/);
    expect(await held(page)).toBe(token);
    expect(await page.textContent('#newPlayerTokenHelp')).toMatch(/shown only now.*key for every device.*Keep it like a password/);
    await page.click('#copyPlayerToken');
    await page.waitForFunction(() => document.querySelector('#copyPlayerToken')!.textContent === 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect(await page.textContent('#playerWho')).toBe('Astrid');
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    expect(await seriousAxe(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'play-player-token-375.png'), fullPage: true });
    await page.click('#tokenKept');
    expect(await page.isVisible('#newPlayerToken')).toBe(false);
    const me = (await t.http().get('/api/players/me').set(...bearer(token)).expect(200)).body;

    // Signed in, the form asks no name: the person's seat is bound to the player.
    expect(await page.isVisible('#name')).toBe(false);
    expect(await page.textContent('#playsAs')).toContain('You play as Astrid');
    expect(await page.textContent('#lobbyHelp')).toContain('“My matches” above lists the table');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/matches') && r.method() === 'POST');
    await page.click('#start');
    const request = await sent;
    expect(JSON.parse(request.postData()!)).toEqual({ players: [{ player: me.id }, { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } });
    expect(request.headers().authorization).toBe(`Bearer ${token}`);
    await page.waitForURL(/\/play\/[^/#]+$/);
    await page.waitForSelector('body[data-ready="true"]');
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    expect(await page.textContent('#myInfo h2')).toContain('Astrid (you)');
    // Played with the player's token: no seat link, and no seat token kept for the match.
    expect(await page.textContent('#seatTools h2')).toBe('Your seat on other devices');
    expect(await page.textContent('#seatLinkHelp')).toMatch(/bound to your player, Astrid.*No seat link is needed/);
    expect(await page.$('#seatLink')).toBeNull();
    expect(await page.evaluate((key) => localStorage.getItem(key), `bismarck.seat.${id}`)).toBeNull();

    // Back on /play: the match is in "My matches", marked as the player's turn once the bots have moved.
    await page.goto(`${web.base}/play`);
    const link = `a[data-match="${id}"]`;
    const item = `#myMatches ${link}`;
    await page.waitForSelector(item);
    const seats = (await t.http().get(`/api/matches/${id}`).expect(200)).body.seats;
    expect(await page.textContent(item)).toBe(`with ${seats[1].name} and ${seats[2].name}`);
    await page.waitForSelector(`#myMatches li:has(${link}) .badge.turn`, { timeout: 20_000 });
    expect(await page.textContent(`#myMatches li:has(${link}) .badge.turn`)).toBe('your turn');
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    expect(await seriousAxe(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'play-player-matches-375.png'), fullPage: true });

    // A second device: signs in with the token (pasted), opens the match from the list, and plays a move there.
    const second = await web.device(375);
    await second.page.goto(`${web.base}/play`);
    await second.page.waitForSelector('#signIn');
    await second.page.fill('#playerTokenIn', 'bskp_not-a-token-of-anyone-at-all');
    await second.page.click('#signInBtn');
    await second.page.waitForFunction(() => /does not know this token/.test(document.querySelector('#playerMessage')!.textContent!));
    expect(await held(second.page)).toBeNull();
    await second.page.fill('#playerTokenIn', token);
    await second.page.press('#playerTokenIn', 'Enter');
    await second.page.waitForSelector(item);
    expect(await second.page.textContent('#playerWho')).toBe('Astrid');
    await second.page.click(item);
    await second.page.waitForSelector('body[data-ready="true"]');
    expect(await second.page.textContent('#myInfo h2')).toContain('Astrid (you)');
    const { version } = (await t.http().get(`/api/matches/${id}`).expect(200)).body;
    await playOneMove(second.page);
    expect((await t.http().get(`/api/matches/${id}`).expect(200)).body.version).toBeGreaterThan(version);
    expect(await fitsAt(second.page, 375)).toBe(true);
    expect(await seriousAxe(second.page)).toEqual([]);
    await second.page.screenshot({ path: join(ARTIFACTS, 'play-player-second-device-375.png'), fullPage: true });

    // Sign out forgets the token in that browser; the sign-in is shown again.
    await second.page.goto(`${web.base}/play`);
    await second.page.waitForSelector('#signOut');
    await second.page.click('#signOut');
    await second.page.waitForSelector('#signIn');
    expect(await held(second.page)).toBeNull();
    expect(await second.page.textContent('#playerMessage')).toContain('Signed out');
    // Without the token the table is the shared one again: no seat for this browser.
    await second.page.goto(`${web.base}/play/${id}`);
    await second.page.waitForSelector('body[data-ready="no-token"]');

    // The token revoked through the API: the first device shows the sign-in again, with why, and forgets it.
    await t.http().delete(`/api/players/me/tokens/${tokenId}`).set(...bearer(token)).expect(204);
    await page.reload();
    await page.waitForSelector('#signIn');
    expect(await page.textContent('#playerMessage')).toMatch(/token was refused/);
    expect(await held(page)).toBeNull();
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await seriousAxe(page)).toEqual([]);

    // The player's token never went into an address.
    expect(first.urls.concat(second.urls).filter((u) => u.includes(token))).toEqual([]);
    expect(first.errors.concat(second.errors)).toEqual([]);
  }, 120_000);
});

describe('a player at a friends\' table', () => {
  it('takes an open seat with the player\'s token and no name, keeps no seat token for it, and the host\'s seat link stays a seat link', async () => {
    const player = (await t.http().post('/api/players').send({ name: 'Bjørn' }).expect(201)).body;
    const host = (await t.http().post('/api/matches').send({ players: ['Astrid', null, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    const { page, errors, urls } = await web.device(375);
    // Signed in on this device already (the token pasted earlier): the browser's storage holds it.
    await page.goto(`${web.base}/play`);
    await page.evaluate(([key, token]) => localStorage.setItem(key, token), [KEY, player.token]);
    await page.goto(`${web.base}/play/${host.id}`);
    await page.waitForSelector('body[data-ready="join"]');
    expect(await page.isVisible('#joinName')).toBe(false);
    expect(await page.textContent('#joinAs')).toBe('You take it as Bjørn, your player.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('joinBtn');
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    expect(await seriousAxe(page)).toEqual([]);
    const sent = page.waitForRequest((r) => r.url().endsWith(`/api/matches/${host.id}/seats/1/join`));
    await page.keyboard.press('Enter');
    const join = await sent;
    expect(JSON.parse(join.postData()!)).toEqual({});
    expect(join.headers().authorization).toBe(`Bearer ${player.token}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#myInfo h2')).toContain('Bjørn (you)');
    const pub = (await t.http().get(`/api/matches/${host.id}`).expect(200)).body;
    expect(pub.seats[1]).toEqual({ seat: 1, name: 'Bjørn', bot: null, player: player.id });
    expect(await page.textContent('#seatTools h2')).toBe('Your seat on other devices');
    // No seat token of this match kept in the browser: the player's token is the key.
    expect(await page.evaluate((id) => [localStorage.getItem(`bismarck.seat.${id}`), sessionStorage.getItem(`bismarck.seat-token.${id}`)], host.id)).toEqual([null, null]);

    // Astrid's seat, opened with its seat link, stays a seat link's table.
    const astrid = await web.device(375);
    await astrid.page.goto(`${web.base}/play/${host.id}#token=${encodeURIComponent(host.seats[0].token)}`);
    await astrid.page.waitForSelector('body[data-ready="true"]');
    expect(await astrid.page.$('#seatLink')).not.toBeNull();
    expect(await astrid.page.$('#seatPlayerHelp')).toBeNull();
    expect(urls.filter((u) => u.includes(player.token))).toEqual([]);
    expect(errors.concat(astrid.errors)).toEqual([]);
  }, 60_000);

  it('plays a bound seat opened with its seat token: the link is shown, with a word that the player\'s token works too', async () => {
    const player = (await t.http().post('/api/players').send({ name: 'Cecilia' }).expect(201)).body;
    const m = (await t.http().post('/api/matches').set(...bearer(player.token)).send({ players: [{ player: player.id }, { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    const { page, errors } = await web.device(375);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.inputValue('#seatLink')).toContain('#token=bsk_');
    expect(await page.textContent('#seatPlayerHelp')).toMatch(/also bound to your player/);
    expect(await fitsAt(page, 375)).toBe(true);
    expect(await seriousAxe(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
