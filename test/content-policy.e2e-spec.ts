import { HTML_POLICY, htmlPolicy } from '../apps/api/src/platform/edge/edge';
import { useTestApp } from './support/app';
import { useBrowser, watchPolicy } from './support/browser';
import { bearer, createMatch, playToEnd, seededPick } from './support/player';

// Every HTML page answers with a strict Content-Security-Policy (docs/security.md), decided by the
// answer's type rather than a list of paths, and the pages work under it: no violation in Chromium.
const t = useTestApp();
const web = useBrowser(t);

const policyOf = (header: string | undefined): Map<string, string[]> =>
  new Map((header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name, sources]));

describe('the Content-Security-Policy of the HTML pages', () => {
  let finished: string;
  let playing: { id: string; token: string };
  beforeAll(async () => {
    const m = await createMatch(t.http, { options: { schedule: 'quick' } });
    await playToEnd(t.http, m, seededPick(5));
    finished = m.id;
    const p = (await t.http().post('/api/matches').send({ players: ['Astrid', { bot: 'random' }, { bot: 'random' }], options: { schedule: 'quick' } }).expect(201)).body;
    playing = { id: p.id, token: p.seats[0].token };
  }, 120_000);

  const pages = (): string[] => ['/play', `/play/${playing.id}`, `/viewer/${finished}`, '/docs', '/docs/', '/rules'];

  it('every HTML answer carries the strict policy; the API keeps its own, narrower one', async () => {
    let html = 0;
    for (const path of pages()) {
      const res = await t.http().get(path);
      // A page another change adds (/rules) is checked once it is served; /docs sends on to /docs/.
      if (res.status === 404 || res.status === 301) continue;
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const policy = policyOf(res.headers['content-security-policy']);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      // Nothing inline but what a hash names (Swagger UI's own styles on /docs).
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      if (!path.startsWith('/docs')) expect(res.headers['content-security-policy']).toBe(HTML_POLICY);
      html++;
    }
    expect(html).toBeGreaterThanOrEqual(4);
    const api = await t.http().get(`/api/matches/${finished}`).expect(200);
    expect(api.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('any HTML answer is covered, not a list of paths: an HTML error page, a page written by writeHead', async () => {
    // Express's own answer to a malformed path is HTML nobody listed (a 400 from its router).
    const bad = await t.http().get('/play/%E0%A4%A');
    if (/^text\/html/.test(String(bad.headers['content-type']))) expect(bad.headers['content-security-policy']).toBe(HTML_POLICY);
    // The hook itself, with the type given to writeHead only, on a bare Node server.
    const { createServer } = await import('node:http');
    const hook = htmlPolicy(HTML_POLICY);
    const server = createServer((req, res) => hook(req as never, res as never, () => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>probe</title>');
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/anywhere`);
      expect(res.headers.get('content-security-policy')).toBe(HTML_POLICY);
    } finally {
      server.close();
    }
    const json = await t.http().get('/asyncapi.json').expect(200);
    expect(json.headers['content-security-policy']).toBeUndefined();
  });

  it('in Chromium, /play, a table, the viewer and /docs load and work with no violation', async () => {
    const errors: string[] = [];
    const context = await web.context();
    const page = await context.newPage();
    await watchPolicy(page, errors);
    page.on('pageerror', (e) => errors.push(String(e)));

    await page.goto(`${web.base}/play`);
    await page.waitForSelector('body[data-ready="lobby"]');

    await page.goto(`${web.base}/play/${playing.id}#token=${encodeURIComponent(playing.token)}`);
    await page.waitForSelector('body[data-ready="true"]');
    // Play a few moves through the page's own buttons: the table redraws as the bots answer.
    for (let moves = 0; moves < 3; ) {
      const view = (await t.http().get(`/api/matches/${playing.id}/view`).set(...bearer(playing.token)).expect(200)).body;
      if (!view.legal || view.legal.action === 'cut') {
        await page.waitForTimeout(50);
        continue;
      }
      const before = view.version;
      if (view.legal.action === 'play') await page.click(`[data-card="${view.legal.cards[0]}"]`);
      else await t.http().post(`/api/matches/${playing.id}/${view.legal.action === 'chooseContract' ? 'contract' : view.legal.action}`).set(...bearer(playing.token)).send(view.legal.action === 'chooseContract' ? { contract: view.legal.contracts[0], ...(view.legal.contracts[0] === 'trump' ? { trump: view.legal.trumps[0] } : {}) } : view.legal.action === 'discard' ? { cards: view.hand.slice(0, view.legal.count) } : undefined);
      await page.waitForFunction((v) => Number(document.body.dataset.version ?? 0) > v, before, { timeout: 15_000 }).catch(() => undefined);
      moves++;
    }

    await page.goto(`${web.base}/viewer/${finished}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');

    await page.goto(`${web.base}/docs`);
    await page.waitForSelector('.swagger-ui .opblock');
    await page.click('.swagger-ui .opblock .opblock-summary');
    await page.waitForSelector('.swagger-ui .opblock-body');

    const rules = await t.http().get('/rules');
    if (rules.status === 200) {
      await page.goto(`${web.base}/rules`);
      await page.waitForLoadState('load');
    }
    await page.waitForTimeout(200);
    expect(errors).toEqual([]);
  }, 120_000);
});
