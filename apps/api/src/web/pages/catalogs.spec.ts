import { FluentResource } from '@fluent/bundle';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_STATUS } from '../../platform/problem/problem';
import { problemMessageId } from '../../platform/problem/problem-language';
import { LANGUAGES } from '../../platform/i18n/languages';

// The message catalogs: every language has every message, with the same attributes and the same
// placeholders, and every message the pages or the API ask for exists.
const LOCALES = join(__dirname, 'assets', 'locales');
const PAGE_FOLDERS = ['pages', 'play', 'viewer'].map((d) => join(__dirname, '..', d, 'assets'));

type Node = unknown;
/** The $variables a pattern uses, through selectors, variants and function arguments. */
function variables(node: Node, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) variables(n, into);
  else if (node && typeof node === 'object') {
    const n = node as Record<string, unknown>;
    if (n.type === 'var') into.add(String(n.name));
    for (const key of ['selector', 'variants', 'value', 'args', 'key']) if (key in n) variables(n[key], into);
  }
  return into;
}

interface Entry { value: boolean; attributes: Record<string, string[]>; variables: string[] }
function catalog(lang: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const file of readdirSync(join(LOCALES, lang)).filter((f) => f.endsWith('.ftl')).sort()) {
    const resource = new FluentResource(readFileSync(join(LOCALES, lang, file), 'utf8'));
    for (const message of resource.body) {
      const id = `${file}:${message.id}`;
      expect(entries.has(id)).toBe(false);
      entries.set(id, {
        value: message.value !== null,
        attributes: Object.fromEntries(Object.entries(message.attributes).map(([k, p]) => [k, [...variables(p)].sort()])),
        variables: [...variables(message.value)].sort(),
      });
    }
  }
  return entries;
}

const catalogs = Object.fromEntries(LANGUAGES.map((lang) => [lang, catalog(lang)]));

describe('the message catalogs', () => {
  it('parse without errors, a folder for each language with the same files', () => {
    const files = (lang: string) => readdirSync(join(LOCALES, lang)).sort();
    for (const lang of LANGUAGES) {
      expect(files(lang)).toEqual(files('en'));
      for (const file of files(lang)) {
        // FluentResource skips what it cannot parse: count the messages a line starts against those parsed.
        const text = readFileSync(join(LOCALES, lang, file), 'utf8');
        const starts = text.split('\n').filter((line) => /^-?[a-zA-Z][\w-]*\s*=/.test(line)).length;
        expect([lang, file, new FluentResource(text).body.length]).toEqual([lang, file, starts]);
      }
    }
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every message of English and no other, with the same attributes and placeholders', (lang) => {
    const en = catalogs.en;
    const own = catalogs[lang];
    expect([...own.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [id, entry] of en) expect({ id, ...own.get(id) }).toEqual({ id, ...entry });
  });

  it('has a title for every problem code', () => {
    for (const code of Object.keys(PROBLEM_STATUS)) expect(catalogs.en.get(`problems.ftl:${problemMessageId(code)}`)?.value).toBe(true);
  });

  it('has every message the pages ask for', () => {
    const ids = new Set([...catalogs.en.keys()].map((k) => k.split(':')[1]));
    const asked = new Set<string>();
    for (const dir of PAGE_FOLDERS) {
      for (const file of readdirSync(dir).filter((f) => /\.(js|html)$/.test(f))) {
        const text = readFileSync(join(dir, file), 'utf8');
        for (const m of text.matchAll(/\bt(?:Attr)?\(\s*'([a-z][\w-]*)'/g)) asked.add(m[1]);
        for (const m of text.matchAll(/data-l10n-id="([a-z][\w-]*)"/g)) asked.add(m[1]);
        for (const m of text.matchAll(/'data-l10n-id':\s*'([a-z][\w-]*)'/g)) asked.add(m[1]);
      }
    }
    expect(asked.size).toBeGreaterThan(0);
    expect([...asked].filter((id) => !ids.has(id))).toEqual([]);
  });
});
