// The browser of the page tests: Debian's Chromium (installed by scripts/ensure.sh; npm test runs it first).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestApp } from './app';
import { listenLocal } from './server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the page tests save their screenshots. */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

export interface WatchedPage {
  page: Page;
  /** The page's script errors. */
  errors: string[];
  /** Every URL the page asked for or showed. */
  urls: string[];
}

/** A page (of a context of its own, or of `context`: the same storage, as another tab) that records its script errors and URLs. */
export async function openPage(from: Browser | BrowserContext, width: number): Promise<WatchedPage> {
  const page = 'newContext' in from ? await from.newPage({ viewport: { width, height: 900 } }) : await from.newPage();
  if (!('newContext' in from)) await page.setViewportSize({ width, height: 900 });
  const errors: string[] = [];
  const urls: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await watchPolicy(page, errors);
  page.on('request', (r) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  return { page, errors, urls };
}

/**
 * Counts a Content-Security-Policy violation as an error of the page: every HTML page runs under a
 * strict policy (docs/security.md), and what it refuses (an inline style, a script) no longer works.
 * Chromium reports each one as a `securitypolicyviolation` event and a console error.
 */
export async function watchPolicy(page: Page, errors: string[]): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error' && /CSP violation|Content Security Policy/.test(m.text())) errors.push(m.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} ${e.sample}`)),
  );
}

export interface WebHandle {
  /** The browser the file's tests share. */
  browser: Browser;
  /** The test app's address (http://127.0.0.1:port). */
  base: string;
  /** A browser context of its own (a person's device, its own storage), closed after the test. */
  context(): Promise<BrowserContext>;
  /** A page in a context of its own (another person's device), closed after the test. */
  device(width: number): Promise<{ context: BrowserContext } & WatchedPage>;
}

/** For one test file: its app listening on a local port, and a browser, from `beforeAll` to `afterAll`. */
export function useBrowser(t: TestApp): WebHandle {
  let contexts: BrowserContext[] = [];
  const web = {
    async context() {
      const context = await web.browser.newContext();
      contexts.push(context);
      return context;
    },
    async device(width: number) {
      const context = await web.context();
      return { context, ...(await openPage(context, width)) };
    },
  } as WebHandle;
  // Closing contexts and the browser takes seconds on a busy machine: more than jest's default 5 s for a hook.
  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  }, 60_000);
  beforeAll(async () => {
    web.base = await listenLocal(t.app);
    web.browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await web.browser?.close();
  }, 60_000);
  return web;
}
