import { join } from 'node:path';
import { useTestApp } from './support/app';
import { seriousAxe } from './support/axe';
import { ARTIFACTS, useBrowser } from './support/browser';

// GET /rules: the rules of docs/rules*.md as one page per language, chosen by ?lang, else
// Accept-Language, else English; every link on it leads somewhere, and it reads on a phone.

const t = useTestApp();
const web = useBrowser(t);

const langOf = (html: string): string | undefined => /<html lang="([a-z]+)">/.exec(html)?.[1];
const WORD = { en: 'Words at the table', fi: 'patavaltti', nb: 'forhånd', sv: 'förhand' } as const;

describe('GET /rules', () => {
  it.each(Object.entries(WORD))('answers %s with its lang attribute and a word of the glossary', async (lang, word) => {
    const res = await t.http().get(`/rules?lang=${lang}`).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-language']).toBe(lang);
    expect(langOf(res.text)).toBe(lang);
    expect(res.text).toContain(word);
    expect(res.text).toMatch(/<title>[^<]+<\/title>/);
    expect(res.text).toContain(`<a href="/rules?lang=${lang}" hreflang="${lang}" lang="${lang}" aria-current="page">`);
    expect(res.text).toContain('<a class="play" href="/play">');
    expect(res.text).toContain('<link rel="icon" href="/favicon.svg">');
    // The service's Content-Security-Policy allows no inline style or script.
    expect(res.text).not.toMatch(/<style|<script|\sstyle=|\son[a-z]+=/i);
  });

  it('picks the language of Accept-Language, reads no/nn as bokmål, and lets ?lang win over it', async () => {
    const of = async (header: string, query = ''): Promise<string | undefined> => langOf((await t.http().get(`/rules${query}`).set('Accept-Language', header).expect(200)).text);
    expect(await of('fi-FI,fi;q=0.9,en;q=0.5')).toBe('fi');
    expect(await of('sv-SE')).toBe('sv');
    expect(await of('nb-NO')).toBe('nb');
    expect(await of('nn-NO, de;q=0.5')).toBe('nb');
    expect(await of('no')).toBe('nb');
    expect(await of('de-DE')).toBe('en');
    expect(await of('sv-SE', '?lang=fi')).toBe('fi');
    const res = await t.http().get('/rules?lang=nb').set('Accept-Language', 'sv');
    expect(res.headers.vary).toMatch(/Accept-Language/i);
  });

  it('falls back to English for an unknown or repeated lang', async () => {
    expect(langOf((await t.http().get('/rules').expect(200)).text)).toBe('en');
    expect(langOf((await t.http().get('/rules?lang=de').expect(200)).text)).toBe('en');
    expect(langOf((await t.http().get('/rules?lang=fi&lang=sv').expect(200)).text)).toBe('en');
    expect(langOf((await t.http().get('/rules?lang=de').set('Accept-Language', 'sv').expect(200)).text)).toBe('sv');
  });

  it('serves its style sheet', async () => {
    const res = await t.http().get('/rules/rules.css').expect(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.text).toContain('.table-wrap');
  });

  it('has no link that 404s: another doc becomes text, a translation links to the rules page, anchors name a heading', async () => {
    for (const lang of Object.keys(WORD)) {
      const html = (await t.http().get(`/rules?lang=${lang}`).expect(200)).text;
      // docs/fairness.md is linked in every language but not served: plain text, not a dead link.
      expect(html).toContain('docs/fairness.md');
      expect(html).not.toMatch(/href="[^"]*\.md/);
      const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
      const hrefs = [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1].replace(/&#38;/g, '&'));
      expect(hrefs.filter((h) => h.startsWith('#')).length).toBeGreaterThanOrEqual(3);
      for (const href of hrefs) {
        if (href.startsWith('#')) expect({ lang, href, found: ids.has(decodeURIComponent(href.slice(1))) }).toEqual({ lang, href, found: true });
        else if (href.startsWith('/')) {
          // /play and /favicon.svg belong to other modules: only the rules' own links are followed here.
          if (!href.startsWith('/rules')) continue;
          expect({ href, status: (await t.http().get(href.split('#')[0])).status }).toEqual({ href, status: 200 });
        } else throw new Error(`unexpected link ${href} in ${lang}`);
      }
    }
    // The translations' first line links to the English reference.
    expect((await t.http().get('/rules?lang=fi')).text).toContain('<a href="/rules?lang=en">docs/rules.md</a>');
  });

  it.each(['en', 'fi'])('in Chromium at 375 px (%s): no serious or critical axe violation, no sideways scroll, styled under a strict CSP', async (lang) => {
    const { context, page } = await web.device(375);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // The policy the service's pages are to get, added here so that an inline style or script would show.
    await context.route('**/rules*', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, headers: { ...res.headers(), 'content-security-policy': "default-src 'self'; style-src 'self'; script-src 'self'" } });
    });
    await page.goto(`${web.base}/rules?lang=${lang}`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    const [scrollWidth, clientWidth, maxWidth, wraps] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
      getComputedStyle(document.querySelector('main')!).maxWidth,
      [...document.querySelectorAll('.table-wrap')].map((w) => getComputedStyle(w).overflowX),
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(maxWidth).not.toBe('none');
    expect(wraps.length).toBe(3);
    expect(new Set(wraps)).toEqual(new Set(['auto']));
    expect(violations).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `rules-${lang}-375.png`), fullPage: false });
    // axe's script is injected inline: lift the test's own policy first.
    await context.unroute('**/rules*');
    await page.reload();
    expect(await seriousAxe(page)).toEqual([]);
  }, 60_000);
});
