// The pages' languages: messages in Fluent catalogs (one folder a language, a file a page), formatted
// by @fluent/bundle in the browser. The language is `?lang=` for this visit, else the one picked on
// this browser, else the browser's own preference, else English; `<html lang>` follows.
import { FluentBundle, FluentResource } from './fluent/index.js';
import { el } from './dom.js';
// The service's list (platform/i18n), served as a module: the pages keep no copy of it.
import { LANGUAGE_NAMES, LANGUAGES } from './languages.js';

/** @typedef {(typeof LANGUAGES)[number]} Language */
/** A message's arguments: `$name` in the catalog is `args.name`. @typedef {Record<string, import('./fluent/index.js').FluentVariable>} Args */

const PICKED = 'bismarck.lang';

/** @type {FluentBundle | null} */
let bundle = null;
/** @type {FluentBundle | null} */
let english = null;
/** @type {Language} */
let current = 'en';

/**
 * A language tag as the service knows it ('no' and 'nn' read as bokmål, the only Norwegian here), or null.
 * @param {unknown} tag
 * @returns {Language | null}
 */
export function known(tag) {
  const base = String(tag ?? '').toLowerCase().split(/[-_]/)[0];
  if (base === 'no' || base === 'nn') return 'nb';
  return LANGUAGES.find((lang) => lang === base) ?? null;
}

function picked() {
  try { return known(localStorage.getItem(PICKED)); } catch { return null; }
}

/** The language of this visit. @returns {Language} */
export function chooseLanguage() {
  return known(new URLSearchParams(location.search).get('lang'))
    ?? picked()
    ?? navigator.languages.map(known).find((lang) => lang !== null)
    ?? 'en';
}

/** The language the page speaks (also sent to the API as Accept-Language, so its problems speak it too). */
export const language = () => current;

/** @param {Language} lang @param {string[]} parts */
async function bundleOf(lang, parts) {
  const b = new FluentBundle(lang, { useIsolating: false });
  const texts = await Promise.all(parts.map(async (part) => {
    const res = await fetch(`/pages/assets/locales/${lang}/${part}.ftl`);
    if (!res.ok) throw new Error(`The ${lang} texts (${part}) did not load: ${res.status}.`);
    return res.text();
  }));
  for (const text of texts) {
    const errors = b.addResource(new FluentResource(text));
    if (errors.length > 0) console.warn(errors);
  }
  return b;
}

/**
 * Loads the catalogs of `parts` (e.g. ['common', 'table']) in the visit's language, with English
 * behind it for a message a translation lacks; then translates the page's marked elements.
 * @param {string[]} parts
 */
export async function loadMessages(parts) {
  current = chooseLanguage();
  const [own, en] = await Promise.all([bundleOf(current, parts), current === 'en' ? null : bundleOf('en', parts)]);
  bundle = own;
  english = en ?? own;
  document.documentElement.lang = current;
  localize(document);
  return current;
}

/**
 * The text of message `id` with `args` (numbers plural as the language says); the id itself if no catalog has it.
 * @param {string} id @param {Args} [args]
 */
export function t(id, args = undefined) {
  for (const b of [bundle, english]) {
    const message = b?.getMessage(id);
    if (b && message?.value) return b.formatPattern(message.value, args);
  }
  return id;
}

/**
 * An attribute of message `id` (e.g. an aria-label kept next to a visible text), or ''.
 * @param {string} id @param {string} attr @param {Args} [args]
 */
export function tAttr(id, attr, args = undefined) {
  for (const b of [bundle, english]) {
    const pattern = b?.getMessage(id)?.attributes[attr];
    if (b && pattern) return b.formatPattern(pattern, args);
  }
  return '';
}

const ATTRIBUTES = ['aria-label', 'placeholder', 'title', 'alt', 'content'];

/**
 * Translates every element under `root` marked `data-l10n-id` (args as JSON in `data-l10n-args`):
 * the message's value becomes its text (so mark an element holding text only, e.g. a span inside a
 * label), its attributes the element's attributes of those names.
 * @param {ParentNode} root
 */
export function localize(root) {
  for (const node of root.querySelectorAll('[data-l10n-id]')) {
    const id = node.getAttribute('data-l10n-id') ?? '';
    const argsText = node.getAttribute('data-l10n-args');
    /** @type {Args | undefined} */
    const args = argsText !== null ? JSON.parse(argsText) : undefined;
    const b = bundle?.getMessage(id) ? bundle : english;
    const message = b?.getMessage(id);
    if (!b || !message) continue;
    if (message.value) node.textContent = b.formatPattern(message.value, args);
    for (const attr of ATTRIBUTES) {
      const pattern = message.attributes[attr];
      if (pattern) node.setAttribute(attr, b.formatPattern(pattern, args));
    }
  }
}

/** A language picker: the choice is kept on this browser and the page reloads in it. */
export function languagePicker() {
  const select = el('select', { id: 'language', 'aria-label': t('language-picker') },
    ...LANGUAGES.map((tag) => el('option', { value: tag, lang: tag, selected: tag === current }, LANGUAGE_NAMES[tag])));
  select.addEventListener('change', () => {
    try { localStorage.setItem(PICKED, select.value); } catch { /* storage off: this visit only */ }
    const url = new URL(location.href);
    url.searchParams.delete('lang');
    location.replace(url.pathname + url.search + url.hash);
  });
  return select;
}
