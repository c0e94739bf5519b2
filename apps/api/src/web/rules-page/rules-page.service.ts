import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LANGUAGES, type Language } from '../../platform/i18n/languages';
import { renderRules } from './markdown';

/**
 * The project's folder: the nearest one above this file with package.json and docs/rules.md. The code
 * runs from the sources (jest) or from dist/ (built), wherever the project is installed, so the
 * number of levels up is not fixed.
 */
export function projectRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'docs', 'rules.md'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no project folder (with docs/rules.md) above ${from}`);
  }
}

/** What the page itself says, besides the rules, in each language. */
const WORDS: Record<Language, { name: string; languages: string; play: string; table: string }> = {
  en: { name: 'English', languages: 'Language', play: 'Play Bismarck', table: 'Table' },
  fi: { name: 'Suomi', languages: 'Kieli', play: 'Pelaa Bismarckia', table: 'Taulukko' },
  nb: { name: 'Norsk bokmål', languages: 'Språk', play: 'Spill Bismarck', table: 'Tabell' },
  sv: { name: 'Svenska', languages: 'Språk', play: 'Spela Bismarck', table: 'Tabell' },
};

const FILES: Record<Language, string> = { en: 'rules.md', fi: 'rules.fi.md', nb: 'rules.nb.md', sv: 'rules.sv.md' };

export const RULES_CSS_PATH = '/rules/rules.css';

/** The rules pages, each language read from docs/ and rendered once at start-up, and their style sheet. */
@Injectable()
export class RulesPageService {
  private readonly pages: Map<Language, Buffer>;
  readonly css: Buffer;

  constructor() {
    const root = projectRoot();
    this.pages = new Map(LANGUAGES.map((lang) => [lang, Buffer.from(page(lang, readFileSync(join(root, 'docs', FILES[lang]), 'utf8')))]));
    this.css = readFileSync(join(__dirname, 'assets', 'rules.css'));
  }

  page(lang: Language): Buffer {
    return this.pages.get(lang)!;
  }
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(lang: Language, markdown: string): string {
  const words = WORDS[lang];
  const { title, html } = renderRules(markdown, words.table);
  const switcher = LANGUAGES.map((l) => {
    const current = l === lang ? ' aria-current="page"' : '';
    return `<li><a href="/rules?lang=${l}" hreflang="${l}" lang="${l}"${current}>${WORDS[l].name}</a></li>`;
  }).join('');
  const alternates = LANGUAGES.map((l) => `<link rel="alternate" hreflang="${l}" href="/rules?lang=${l}">`).join('\n');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="${RULES_CSS_PATH}">
${alternates}
</head>
<body>
<header class="bar">
<a class="play" href="/play">${words.play}</a>
<nav aria-label="${words.languages}"><ul class="langs">${switcher}</ul></nav>
</header>
<main>
${html}</main>
</body>
</html>
`;
}
