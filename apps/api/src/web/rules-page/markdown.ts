// marked is ES modules only: Node 20.19+ requires it as it is; jest compiles it (jest.config.js).
import { Marked } from 'marked';


const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const stripTags = (html: string): string => html.replace(/<[^>]*>/g, '');
const decode = (s: string): string =>
  s.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot);/gi, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ({ amp: '&', lt: '<', gt: '>', quot: '"' } as Record<string, string>)[e.toLowerCase()],
  );

/** GitHub's heading ids, so that an anchor written for the repository's view works here too. */
export function slug(text: string): string {
  return text.toLowerCase().trim().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/**
 * Where a relative link of the rules may go on this service: another language's rules page, or
 * nowhere (the other docs are not served, so their links become plain text rather than a 404).
 */
function servedHref(href: string): string | null {
  if (/^(#|https?:|mailto:)/i.test(href)) return href;
  const [path, hash] = href.split('#', 2);
  const rules = /(?:^|\/)rules(?:\.(fi|nb|sv))?\.md$/.exec(path);
  if (!rules) return null;
  return `/rules?lang=${rules[1] ?? 'en'}${hash ? `#${hash}` : ''}`;
}

export interface RenderedDoc {
  /** The first heading's text (the page's title). */
  title: string;
  html: string;
}

/** One rules document as HTML: ids on headings, links that resolve here, tables in scrolling regions. */
export function renderRules(markdown: string, tableLabel: string): RenderedDoc {
  let title = '';
  let lastHeading = '';
  const seen = new Map<string, number>();
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const text = decode(stripTags(inner));
        if (!title) title = text;
        lastHeading = text;
        const base = slug(text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        return `<h${depth} id="${escape(n ? `${base}-${n}` : base)}">${inner}</h${depth}>\n`;
      },
      link({ href, title: linkTitle, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const to = servedHref(href);
        if (to === null) return inner;
        return `<a href="${escape(to)}"${linkTitle ? ` title="${escape(linkTitle)}"` : ''}>${inner}</a>`;
      },
      table(token) {
        // A wide table scrolls inside its region (named, and focusable so a keyboard can scroll it)
        // instead of widening the page on a phone.
        const head = `<tr>${token.header.map((cell) => `<th scope="col">${this.parser.parseInline(cell.tokens)}</th>`).join('')}</tr>`;
        const rows = token.rows.map((row) => `<tr>${row.map((cell) => `<td>${this.parser.parseInline(cell.tokens)}</td>`).join('')}</tr>`).join('\n');
        const label = `${tableLabel}: ${lastHeading}`;
        return `<div class="table-wrap" role="region" tabindex="0" aria-label="${escape(label)}">\n<table>\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>\n</div>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { title, html };
}
