/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LobbySweeper } from '../apps/api/src/game/lobby/lobby-sweeper.service';
import { startTestApp, useTestApp } from './support/app';
import { ARTIFACTS, openPage as openIn, useBrowser } from './support/browser';
import { brokenWords, lowContrast } from './support/page-text';
import { listenLocal } from './support/server';
import { bearer } from './support/player';

const t = useTestApp();
const web = useBrowser(t);

/** A page of a context of its own that records its script errors and every URL it asks for. */
const openPage = (width: number) => openIn(web.browser, width);

/** What the page shows face up (every face-up card carries data-card), and the view version it drew. */
const onScreen = (page: Page): Promise<{ version: number; legal: string; cards: string[]; hand: string[]; raised: string[] }> =>
  page.evaluate(() => ({
    version: Number(document.body.dataset.version),
    legal: document.body.dataset.legal!,
    cards: Array.from(document.querySelectorAll('[data-card]')).map((c) => c.getAttribute('data-card')!),
    hand: Array.from(document.querySelectorAll('#hand [data-card]')).map((c) => c.getAttribute('data-card')!),
    raised: Array.from(document.querySelectorAll('#hand .card.legal')).map((c) => c.getAttribute('data-card')!),
  }));

/** At 360 px nothing is wider than the window, the scorecard fits, and every hand card lies inside its panel. */
async function expectFitsAt360(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  const [scrollWidth, table, room, outside] = await page.evaluate(() => {
    const me = document.querySelector('#me')!.getBoundingClientRect();
    const outside = Array.from(document.querySelectorAll('#hand .card')).filter((c) => {
      const b = c.getBoundingClientRect();
      return b.left < me.left - 0.5 || b.right > me.right + 0.5;
    }).length;
    return [document.documentElement.scrollWidth, document.querySelector('#scorecard-table')?.scrollWidth ?? 0, document.querySelector('#scorecard')!.clientWidth, outside];
  });
  expect(scrollWidth).toBeLessThanOrEqual(360);
  expect(table).toBeLessThanOrEqual(room);
  expect(outside).toBe(0);
}

/** A quick match of two persons and a bot whose first dealer is seat 1 (Bjørn), so that seat 0 cuts: unseeded, drawn until that happens. */
async function dealtByBjorn(): Promise<any> {
  for (;;) {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', 'Bjørn', { bot: 'greedy' }], options: { schedule: 'quick' } }).expect(201)).body;
    if (m.firstDealer === 1) return m;
  }
}

describe('the table\'s files', () => {
  it('serves the lobby and the table as HTML, its scripts and style sheet from memory, and nothing else', async () => {
    for (const path of ['/play', '/play/some-match']) {
      const res = await t.http().get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<script type="module" src="/play/assets/play.js"></script>');
      // No page sends its address (a table's id) on to another site.
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    // Every module the page imports, from play.js down, is served.
    const modules = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (modules.has(file)) return;
      modules.add(file);
      const res = await t.http().get(`/play/assets/${file}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      for (const [, imported] of res.text.matchAll(/^import .* from '\.\/([a-z-]+\.js)';$/gm)) await visit(imported);
    };
    await visit('play.js');
    expect(modules.size).toBeGreaterThan(5);
    expect((await t.http().get('/play/assets/play.css').expect(200)).headers['content-type']).toMatch(/^text\/css/);
    for (const name of ['play.html', 'constructor', '__proto__', '..%2Fplay.controller.js', 'viewer.js', '.hidden']) {
      const res = await t.http().get(`/play/assets/${name}`).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // The viewer links to the lobby.
    expect((await t.http().get('/viewer/some-match').expect(200)).text).toContain('<a id="playLink" href="/play"');
  });
});

describe('the playable table in a real browser', () => {
  it('starts a quick match against two bots from /play and plays it to the end with only what the page offers, never showing a card the seat may not see', async () => {
    const { page, errors, urls } = await openPage(1280);
    // Every time the page draws a new version, what it shows face up then (checked at the end).
    await page.addInitScript(() => {
      const drawn: { version: number; cards: string[] }[] = ((window as any).drawn = []);
      new MutationObserver(() => {
        drawn.push({ version: Number(document.body.dataset.version), cards: Array.from(document.querySelectorAll('[data-card]')).map((c) => c.getAttribute('data-card')!) });
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'] });
    });
    await page.goto(`${web.base}/play`);
    await page.waitForSelector('body[data-ready="lobby"]');
    expect(await page.inputValue('#schedule')).toBe('quick');
    expect(await page.inputValue('#bot')).toBe('greedy');
    expect(await page.$$eval('#bot option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['greedy', 'strong', 'random']);
    expect(await lowContrast(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(ARTIFACTS, 'play-lobby-360.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.fill('#name', 'Astrid');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/matches') && r.request().method() === 'POST');
    await page.click('#start');
    const answer = await created;
    expect(answer.status()).toBe(201);
    expect(JSON.parse(answer.request().postData()!)).toEqual({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'quick' } });
    // The page goes on to the table at once (so the answer's body is gone with the lobby): the match id
    // is in the new address, the seat's token in the tab's session storage, where the page keeps it.
    await page.waitForURL(/\/play\/[0-9a-f-]{36}$/);
    const match = { id: page.url().split('/').pop()! };
    const token = (await page.evaluate((id) => sessionStorage.getItem(`bismarck.seat-token.${id}`), match.id))!;
    expect(token).toBeTruthy();
    const { seat, seats } = (await t.http().get(`/api/matches/${match.id}/view`).set(...bearer(token)).expect(200)).body;
    expect(seat).toBe(0);
    expect(seats.map((s: { name: string; bot: string | null }) => [s.name, s.bot])).toEqual([['Astrid', null], [expect.any(String), 'greedy'], [expect.any(String), 'greedy']]);
    await page.waitForSelector('body[data-ready="true"]');
    // The lobby handed the token over in the tab's storage: the address never held it.
    expect(await page.evaluate(() => location.href)).toBe(`${web.base}/play/${match.id}`);
    expect(await page.textContent(`#opp-a h2`)).toContain('bot: greedy');

    const api = `/api/matches/${match.id}`;
    /** The seat's own view right after event `version` (GET …/replay with its token). */
    const views = new Map<number, Promise<any>>();
    const seatViewAt = (version: number): Promise<any> => {
      if (!views.has(version)) views.set(version, t.http().get(`${api}/replay?version=${version}`).set(...bearer(token)).expect(200).then((r) => r.body.view));
      return views.get(version)!;
    };
    /** The cards the seat may see face up in that view: its hand and lay-away, the table cards, the trick and the last trick. */
    const visible = (view: any) => new Set<string>([...view.hand, ...(view.laidAway ?? []), ...view.tableCards, ...view.trick.map((p: any) => p.card), ...(view.lastTrick?.cards ?? []).map((p: any) => p.card)]);
    const seen = new Set<string>();
    let steps = 0;
    let checked = 0;
    let stillOnTable = 0;
    let shot360 = false;
    let shot1280 = false;
    for (;;) {
      // Wait until this seat has something to do (a control is enabled), or the match is over.
      await page.waitForFunction(() => document.body.dataset.status === 'finished'
        || document.querySelector('#summaryContinue') !== null
        || (document.body.dataset.legal !== 'none' && document.querySelector('#hand button:not([disabled]), #actions button:not([disabled])') !== null), undefined, { timeout: 30_000 });
      // A deal's end waits for the person (test/table-deal.e2e-spec.ts checks it): moved on from at once here.
      if (await page.isVisible('#summaryContinue')) {
        await page.click('#summaryContinue');
        continue;
      }

      // Every face-up card on the page is one this seat may see at the version the page drew.
      const shown = await onScreen(page);
      const view = await seatViewAt(shown.version);
      expect(view.seat).toBe(seat);
      expect(shown.cards.filter((c) => !visible(view).has(c))).toEqual([]);
      expect([...shown.hand].sort()).toEqual([...view.hand].sort());
      if (view.legal?.action === 'play') {
        // The legal cards raised and enabled, every other one dimmed and disabled.
        expect([...shown.raised].sort()).toEqual([...view.legal.cards].sort());
        const dimmed = await page.$$eval('#hand button.dim', (bs) => bs.map((b) => [b.getAttribute('data-card'), (b as HTMLButtonElement).disabled]));
        expect(dimmed.map(([c]) => c).sort()).toEqual(view.hand.filter((c: string) => !view.legal.cards.includes(c)).sort());
        expect(dimmed.every(([, disabled]) => disabled)).toBe(true);
      }
      // A trick just taken stays on the table, with who took it, until the next card is led.
      if (view.phase === 'play' && view.trick.length === 0 && view.lastTrick) {
        expect(await page.$$eval('#trick [data-card]', (cs) => cs.map((c) => c.getAttribute('data-card')))).toEqual(view.lastTrick.cards.map((p: any) => p.card));
        const w = view.lastTrick.winner;
        const twin = view.seats.filter((x: any) => x.name === view.seats[w].name).length > 1; // two "Greedy bot"s: told apart by seat
        expect(await page.textContent('#trick .takenBy')).toBe(`taken by ${w === seat ? 'you' : `${view.seats[w].name}${twin ? ` (seat ${w})` : ''}`}`);
        stillOnTable++;
      }
      checked++;
      if (view.status === 'finished' || (await page.getAttribute('body', 'data-status')) === 'finished') break;

      const legal = shown.legal;
      expect(legal).toBe(view.legal?.action ?? 'none');
      seen.add(legal);
      const before = shown.version;
      const byKeyboard = steps % 2 === 1;
      if (legal === 'play' && view.lastTrick && !shot1280) {
        // The last trick on demand (L), and the table at 1280 px, checked for contrast.
        await page.keyboard.press('l');
        await page.waitForSelector('#lastTrick:not([hidden]) [data-card]');
        expect(await lowContrast(page)).toEqual([]);
        await page.screenshot({ path: join(ARTIFACTS, 'play-1280.png'), fullPage: true });
        shot1280 = true;
        // A phone: the same moment at 360 px.
        await expectFitsAt360(page);
        expect(await lowContrast(page)).toEqual([]);
        await page.screenshot({ path: join(ARTIFACTS, 'play-360.png'), fullPage: true });
        shot360 = true;
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      switch (legal) {
        case 'play': {
          const open = await page.$$eval('#hand button:not([disabled])', (bs) => bs.map((b) => b.getAttribute('data-card')!));
          const n = steps % open.length;
          if (byKeyboard) {
            // The first raised card has the focus (or Home puts it there); → moves along, Enter plays.
            await page.keyboard.press('Home');
            for (let i = 0; i < n; i++) await page.keyboard.press('ArrowRight');
            await page.keyboard.press('Enter');
          } else await page.click(`#hand button[data-card="${open[n]}"]`);
          break;
        }
        case 'discard': {
          expect(shown.hand).toHaveLength(20);
          expect(await page.isDisabled('#layAway')).toBe(true);
          // Two cards picked with the mouse, two with the keyboard (Space), then A to lay them away.
          const open = await page.$$eval('#hand button:not([disabled])', (bs) => bs.map((b) => b.getAttribute('data-card')!));
          await page.click(`#hand button[data-card="${open[0]}"]`);
          await page.click(`#hand button[data-card="${open[5]}"]`);
          await page.focus('#hand button[data-card]:not(.picked)');
          await page.keyboard.press('End');
          await page.keyboard.press(' ');
          await page.keyboard.press('ArrowLeft');
          await page.keyboard.press(' ');
          expect(await page.$$eval('#hand .card.picked', (c) => c.length)).toBe(4);
          expect(await page.isDisabled('#layAway')).toBe(false);
          if (byKeyboard) await page.keyboard.press('a');
          else await page.click('#layAway');
          break;
        }
        case 'deal':
          if (byKeyboard) await page.keyboard.press('d');
          else await page.click('#dealBtn');
          break;
        case 'cut':
          // Optional, and raced by a dealer bot that may deal first: a refusal then shows in words.
          await page.click('#cutBtn', { timeout: 2000 }).catch(() => undefined);
          break;
        case 'chooseContract':
          await page.keyboard.press('1');
          break;
        case 'none':
          continue; // the offer went between the wait and the look (a dealer bot dealt before this seat cut)
        default:
          throw new Error(`the page offers an unknown action ${legal} at version ${shown.version}`);
      }
      steps++;
      await page.waitForFunction((v) => Number(document.body.dataset.version) > v || !document.querySelector<HTMLElement>('#notice')!.hidden, before, { timeout: 15_000 });
      if (!(await page.isHidden('#notice'))) {
        // Only the cut may lose a race; its refusal is in words (problem+json title and detail).
        expect(legal).toBe('cut');
        expect((await page.textContent('#notice .title'))!.length).toBeGreaterThan(3);
      }
      expect(steps).toBeLessThan(120);
    }

    // The whole quick match: a lay-away as forehand, a deal as dealer, and cards to the end.
    expect([...seen]).toEqual(expect.arrayContaining(['play', 'discard', 'deal']));
    expect(checked).toBeGreaterThan(48);
    expect(stillOnTable).toBeGreaterThan(0);
    const scorecard = (await t.http().get(`${api}/scorecard`).expect(200)).body;
    expect(scorecard.finished).toBe(true);
    await page.waitForSelector('#winners');
    expect(await page.textContent('#scorecard h2')).toBe('Final scorecard');
    expect(await page.$$eval('[data-total]', (cells) => cells.map((c) => Number(c.textContent)))).toEqual(scorecard.totals);
    expect(await page.$$eval('#scorecard tr[data-deal]', (rows) => rows.length)).toBe(3);
    expect(await page.textContent('#info')).toMatch(/^Match over · winners?: /);
    // Two bots of one strength share a name: the page tells them apart by their seat.
    const label = (s: number) => (s === 0 ? 'Astrid' : `${scorecard.seats[s].name} (seat ${s})`);
    expect(await page.textContent('#winners')).toBe(`Winner${scorecard.winners.length > 1 ? 's' : ''}: ${scorecard.winners.map(label).join(', ')}`);
    expect(await page.$$eval('#scorecard thead th', (th) => th.slice(3).map((c) => c.textContent))).toEqual(['Astrid (you)', label(1), label(2)]);
    expect(await page.$$('#hand button')).toHaveLength(0);
    await page.screenshot({ path: join(ARTIFACTS, 'play-final-1280.png'), fullPage: true });
    await expectFitsAt360(page);
    await page.screenshot({ path: join(ARTIFACTS, 'play-final-360.png'), fullPage: true });
    expect(shot360 && shot1280).toBe(true);

    // Not only where the seat acted: at every version the page drew, live, each face-up card was one it may see.
    const drawn: { version: number; cards: string[] }[] = await page.evaluate(() => (window as any).drawn);
    expect(new Set(drawn.map((d) => d.version)).size).toBeGreaterThan(checked);
    const unseen = await Promise.all(drawn.map(async (d) => {
      const view = await seatViewAt(d.version);
      return { version: d.version, cards: d.cards.filter((c) => !visible(view).has(c)) };
    }));
    expect(unseen.filter((u) => u.cards.length > 0)).toEqual([]);

    // The token went only in headers: no URL the page asked for or showed carries it.
    expect(urls.filter((u) => u.includes(token))).toEqual([]);
    expect(urls.some((u) => u.includes(`${api}/events/stream`))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('keeps the seat token out of the address bar, reloads from the tab, and says in words what the API refuses', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'random' }, { bot: 'random' }], options: { schedule: 'quick' } }).expect(201)).body;
    const token = m.seats[0].token;
    const { page, errors, urls } = await openPage(360);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.evaluate(() => [location.href, location.hash])).toEqual([`${web.base}/play/${m.id}`, '']);
    expect(await page.textContent('#myInfo h2')).toContain('Astrid (you)');
    // A reload finds the token again in the tab's session storage.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#myInfo h2')).toContain('Astrid (you)');
    // Only the link it was opened with held the token: no request, nor the page after it, did.
    expect(urls.filter((u) => u.includes(token))).toEqual([`${web.base}/play/${m.id}#token=${encodeURIComponent(token)}`]);
    expect(errors).toEqual([]);
    await page.close();

    // Another tab without the fragment has no token: it says how to get one, and offers nothing to do.
    const bare = await openPage(360);
    await bare.page.goto(`${web.base}/play/${m.id}`);
    await bare.page.waitForSelector('body[data-ready="no-token"]');
    expect(await bare.page.textContent('#notice .title')).toBe('This table needs your seat’s link');
    expect(await bare.page.getAttribute('#notice a[href="/play"]', 'href')).toBe('/play');
    expect(await bare.page.isVisible('#game')).toBe(false);
    await bare.page.close();

    // A token the service does not know, and a match that does not exist: the problem's title and detail.
    for (const [id, bad, title] of [[m.id, 'not-a-token', 'A valid seat token is required'], ['00000000-0000-4000-8000-000000000000', token, 'No such match']]) {
      const p = await openPage(360);
      await p.page.goto(`${web.base}/play/${id}#token=${bad}`);
      await p.page.waitForSelector('body[data-ready="failed"]');
      const problem = (await t.http().get(`/api/matches/${id}/view`).set(...bearer(bad)))!.body;
      expect(problem.title).toBe(title);
      expect(await p.page.textContent('#notice .title')).toBe(problem.title);
      expect(await p.page.textContent('#notice .detail')).toBe(` ${problem.detail}`);
      expect(p.errors).toEqual([]);
      await p.page.close();
    }
  }, 60_000);

  it('offers forehand of a modern match exactly the contracts the rules allow, chosen with a digit', async () => {
    // A seeded match whose first dealer is seat 2, so that seat 0 (the person) is forehand of deal 1.
    let m: any;
    for (let i = 0; !m || m.firstDealer !== 2; i++) {
      m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'modern' }, seed: `play-contract-${i}` }).expect(201)).body;
    }
    const token = m.seats[0].token;
    const { page, errors } = await openPage(1280);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(token)}`);
    await page.waitForSelector('body[data-legal="chooseContract"]', { timeout: 20_000 });
    const view = (await t.http().get(`/api/matches/${m.id}/view`).set(...bearer(token)).expect(200)).body;
    expect(view.legal.action).toBe('chooseContract');
    const offered = await page.$$eval('#contracts button', (bs) => bs.map((b) => [b.getAttribute('data-key'), b.getAttribute('data-contract'), b.getAttribute('data-trump')]));
    const expected = view.legal.contracts.flatMap((c: string) => (c === 'trump' ? view.legal.trumps.map((s: string) => [c, s]) : [[c, null]]));
    expect(offered).toEqual(expected.map(([c, s]: [string, string | null], i: number) => [String(i + 1), c, s]));
    // Each button reads differently ("spades" is not "free trump ♠"), and a line says what each contract is.
    const labels = await page.$$eval('#contracts button', (bs) => bs.map((b) => b.textContent!.replace(/^\d\s*/, '')));
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual(expect.arrayContaining(['spades (♠ trumps)', 'free trump ♠'])); // deal 1 of a modern match: every contract open
    expect(await page.textContent('#contractHelp')).toContain('free trump: you name the trump suit (♠ too: the same cards, but another contract)');
    expect(await page.textContent('#contractHelp')).toContain('Each forehand plays each contract once in the match');
    // Blind (the default): forehand sees the four table cards, not yet a hand.
    expect(view.hand).toEqual([]);
    expect(await page.$$eval('#hand [data-card]', (c) => c.length)).toBe(0);
    expect(await page.textContent('#actions p')).toBe('Choose the contract (blind: from the four table cards; your hand comes after):');
    expect(await page.$$eval('#tableCards [data-card]', (c) => c.map((x) => x.getAttribute('data-card')))).toEqual(view.tableCards);
    await page.screenshot({ path: join(ARTIFACTS, 'play-contract-1280.png'), fullPage: true });
    const digit = String(offered.length);
    const [, contract, trump] = offered[offered.length - 1];
    await page.keyboard.press(digit);
    await page.waitForFunction(() => document.body.dataset.legal !== 'chooseContract');
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    const chosen = events.find((e: any) => e.type === 'ContractChosen');
    expect(chosen.data).toEqual(expect.objectContaining({ seat: 0, contract, trump }));
    // The lay-away follows: its button, not usable before four cards are picked, still reads at 4.5:1.
    await page.waitForSelector('body[data-legal="discard"]', { timeout: 15_000 });
    expect(await page.isDisabled('#layAway')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('seats three people from three browser windows: a table with open seats, its link, a name, and a bot for a seat', async () => {
    const astrid = await openPage(1280);
    await astrid.page.goto(`${web.base}/play`);
    await astrid.page.waitForSelector('body[data-ready="lobby"]');
    await astrid.page.fill('#name', 'Astrid');
    await astrid.page.selectOption('#others', 'friends');
    expect(await astrid.page.isVisible('#bot')).toBe(false); // no bot to choose
    await astrid.page.click('#start');
    await astrid.page.waitForSelector('#inviteLink');
    const link = await astrid.page.inputValue('#inviteLink');
    const id = new URL(link).pathname.split('/').pop()!;
    expect(link).toBe(`${web.base}/play/${id}`); // the table's address, no token in it
    expect(await astrid.page.textContent('#info')).toBe('Waiting for players to take the open seats');
    expect(await astrid.page.$$eval('.seat .name', (ns) => ns.map((n) => n.textContent))).toEqual(['open seat 1', 'open seat 2']);
    // Two friends open the link in their own windows, each types a name and takes a seat.
    const friends = [];
    for (const who of ['Bjørn', 'Cecilia']) {
      const friend = await openPage(375);
      await friend.page.goto(link);
      await friend.page.waitForSelector('body[data-ready="join"]');
      expect(await friend.page.textContent('#joinWho')).toContain('Astrid');
      await friend.page.fill('#joinName', who);
      await friend.page.keyboard.press('Enter');
      await friend.page.waitForSelector('body[data-ready="true"]');
      expect(await friend.page.textContent('#myInfo h2')).toContain(`${who} (you)`);
      friends.push(friend);
    }
    // The match starts in every window, live: each sees the other two by name.
    for (const [p, others] of [[astrid, ['Bjørn', 'Cecilia']], [friends[0], ['Cecilia', 'Astrid']], [friends[1], ['Astrid', 'Bjørn']]] as const) {
      await p.page.waitForSelector('body[data-status="playing"]', { timeout: 15_000 });
      expect(await p.page.$$eval('.seat .name', (ns) => ns.map((n) => n.textContent))).toEqual(others);
      expect(p.errors).toEqual([]);
    }
    const seats = (await t.http().get(`/api/matches/${id}`).expect(200)).body.seats.map((s: any) => s.name);
    expect(seats).toEqual(['Astrid', 'Bjørn', 'Cecilia']);
    // A fourth window finds no open seat: the page asks for the seat's link.
    const late = await openPage(375);
    await late.page.goto(link);
    await late.page.waitForSelector('body[data-ready="no-token"]');
    for (const p of [astrid, ...friends, late]) await p.page.close();

    // A table for a friend and a bot; the friend does not come, so a second bot takes the seat.
    const lonely = await openPage(375);
    await lonely.page.goto(`${web.base}/play`);
    await lonely.page.waitForSelector('body[data-ready="lobby"]');
    await lonely.page.selectOption('#others', 'friend');
    // No name yet (there is no default one, like "You", that the others would see as a player's): no match.
    expect(await lonely.page.inputValue('#name')).toBe('');
    await lonely.page.click('#start');
    expect(await lonely.page.evaluate(() => (document.querySelector('#name') as HTMLInputElement).validity.valueMissing)).toBe(true);
    expect(await lonely.page.getAttribute('body', 'data-ready')).toBe('lobby');
    await lonely.page.fill('#name', 'Ann');
    await lonely.page.click('#start');
    await lonely.page.waitForSelector('button.botSeat');
    expect(await lonely.page.$$eval('button.botSeat', (bs) => bs.map((b) => b.getAttribute('data-seat')))).toEqual(['1']);
    await lonely.page.click('button.botSeat');
    await lonely.page.waitForSelector('body[data-status="playing"]', { timeout: 15_000 });
    expect(await lonely.page.$$eval('.seat .badge.bot', (bs) => bs.length)).toBe(2);
    expect(await lowContrast(lonely.page)).toEqual([]);
    expect(lonely.errors).toEqual([]);
    await lonely.page.close();
  }, 90_000);

  it('says a lobby table nobody filled in time was closed, to a visitor and to the person who opened it', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Astrid', null, null], options: { schedule: 'quick' } }).expect(201)).body;
    // A second api whose lobby tables age in a second; its sweep closes this one.
    Object.assign(process.env, { LOBBY_TTL_MS: '1000', LOBBY_SWEEP_MS: '3600000' });
    const sweeper = await startTestApp(t.db).finally(() => { delete process.env.LOBBY_TTL_MS; delete process.env.LOBBY_SWEEP_MS; });
    try {
      await new Promise((r) => setTimeout(r, 1300));
      expect(await sweeper.app.get(LobbySweeper).sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      await sweeper.stopApp();
    }
    expect((await t.http().get(`/api/matches/${m.id}`).expect(200)).body.status).toBe('abandoned');
    const visitor = await openPage(375);
    await visitor.page.goto(`${web.base}/play/${m.id}`);
    await visitor.page.waitForSelector('body[data-ready="abandoned"]');
    expect(await visitor.page.textContent('#notice .title')).toBe('This table was closed');
    expect(await visitor.page.isVisible('#join')).toBe(false);
    const host = await openPage(375);
    await host.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await host.page.waitForSelector('body[data-ready="true"]');
    expect(await host.page.textContent('#info')).toBe('This table was closed: nobody took its open seats in time');
    expect(await host.page.getAttribute('#actions a', 'href')).toBe('/play');
    expect(visitor.errors.concat(host.errors)).toEqual([]);
    await visitor.page.close();
    await host.page.close();
  }, 60_000);

  it('keeps the scorecard\'s headings and deal numbers whole at 375 px, with twelve deals and a long name', async () => {
    const m = (await t.http().post('/api/matches').send({ players: ['Maria-Magdalena Johansson-Lindqvist', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule: 'modern' } }).expect(201)).body;
    const { page, errors } = await openPage(375);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.$$eval('#scorecard tbody tr', (rs) => rs.length)).toBe(12);
    expect(await brokenWords(page, '#scorecard thead th:nth-child(-n+3), #scorecard tbody td:first-child, #scorecard tfoot td:first-child')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.querySelector('#scorecard-table')!.scrollWidth <= document.querySelector('#scorecard')!.clientWidth)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'play-scorecard-375.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('says under the scorecard how this match is scored (quick: only tricks over the quota; modern: zero-sum)', async () => {
    for (const [schedule, scoring, words] of [['quick', 'overOnly', 'falling short costs nothing'], ['modern', 'zeroSum', 'less those you fall short of it']]) {
      const m = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'greedy' }, { bot: 'greedy' }], options: { schedule } }).expect(201)).body;
      expect(m.options.scoring).toBe(scoring);
      const { page, errors } = await openPage(1280);
      await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
      await page.waitForSelector('body[data-ready="true"]');
      const text = await page.textContent('#scoring');
      expect(text).toContain(words);
      expect(text).toContain('Quotas: forehand 8, the others 4; in pass forehand at most 4, the others at most 6.');
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 60_000);

  it('lets the seat on the dealer\'s right cut a provably fair deal, with its own string', async () => {
    // Seat 1 deals (a person who waits), so seat 0 cuts.
    const m = await dealtByBjorn();
    const { page, errors } = await openPage(360);
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
    await page.waitForSelector('body[data-legal="cut"]');
    expect(await page.$$eval('#hand [data-card]', (c) => c.length)).toBe(0);
    await page.fill('#cutText', 'astrid-was-here');
    await page.keyboard.press('Tab'); // leave the field (letters typed there are the cut): keys act on the page again
    await page.keyboard.press('u');
    await page.waitForSelector('body[data-legal="none"]');
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    expect(events.find((e: any) => e.type === 'DeckCut').data).toEqual(expect.objectContaining({ seat: 0, cut: 'astrid-was-here' }));
    // The person who deals: the dealer's table shows the deal, and deals it.
    const dealer = await openPage(360);
    await dealer.page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[1].token)}`);
    await dealer.page.waitForSelector('body[data-legal="deal"]');
    await dealer.page.click('#dealBtn');
    await dealer.page.waitForFunction(() => document.body.dataset.legal !== 'deal');
    // Seat 0's page follows live (no reload) and now holds its dealt cards.
    await page.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 16, undefined, { timeout: 15_000 });
    expect(errors.concat(dealer.errors)).toEqual([]);
    await page.close();
    await dealer.page.close();
  }, 60_000);

  it('says when the service cannot be reached, and carries on live by itself once it is back (a restart)', async () => {
    // A second api on the same database, on a port of its own, stopped and started again under the page.
    let other = await startTestApp(t.db);
    const port = Number(new URL(await listenLocal(other.app)).port);
    try {
      const m = await dealtByBjorn();
      const { page, errors, urls } = await openPage(360);
      await page.goto(`http://127.0.0.1:${port}/play/${m.id}#token=${encodeURIComponent(m.seats[0].token)}`);
      await page.waitForSelector('body[data-legal="cut"]');
      await other.stopApp();
      await page.waitForSelector('#notice:not([hidden])', { timeout: 15_000 });
      expect(await page.textContent('#notice .title')).toBe('The service cannot be reached');
      other = await startTestApp(t.db);
      await other.app.listen(port, '127.0.0.1');
      // The notice goes by itself, and the page listens live again: Bjørn's deal reaches it.
      await page.waitForSelector('#notice', { state: 'hidden', timeout: 15_000 });
      await t.http().post(`/api/matches/${m.id}/deal`).set(...bearer(m.seats[1].token)).expect(200);
      await page.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 16, undefined, { timeout: 15_000 });
      expect(urls.filter((u) => u.includes('/events/stream')).length).toBeGreaterThanOrEqual(2);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await other.stopApp();
    }
  }, 60_000);

  it('keeps its controls off while a move is on its way, even when the table moves meanwhile', async () => {
    // Seat 1 deals; its deal is held on the way while seat 0 cuts, so the page draws a newer version
    // with the deal still unanswered: the button must not come back (a second deal, a click on nothing).
    const m = await dealtByBjorn();
    const { page, errors } = await openPage(1280);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/matches/*/deal', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${web.base}/play/${m.id}#token=${encodeURIComponent(m.seats[1].token)}`);
    await page.waitForSelector('body[data-legal="deal"]');
    const before = Number(await page.getAttribute('body', 'data-version'));
    await page.click('#dealBtn');
    await t.http().post(`/api/matches/${m.id}/cut`).set(...bearer(m.seats[0].token)).send({ cut: 'while-the-deal-travels' }).expect(200);
    await page.waitForFunction((v) => Number(document.body.dataset.version) > v, before, { timeout: 15_000 });
    expect(await page.$$eval('#actions button, #hand button', (bs) => bs.filter((b) => !(b as HTMLButtonElement).disabled).length)).toBe(0);
    release();
    await page.waitForFunction(() => document.body.dataset.legal === 'none' && document.querySelectorAll('#hand [data-card]').length === 16, undefined, { timeout: 15_000 });
    const events = (await t.http().get(`/api/matches/${m.id}/events?limit=1000`).expect(200)).body.events;
    expect(events.filter((e: any) => e.type === 'DealStarted')).toHaveLength(1);
    expect(await page.isHidden('#notice')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

