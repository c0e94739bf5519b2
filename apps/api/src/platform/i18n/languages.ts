import type { Request } from 'express';
import { LANGUAGES, type Language } from './language-list';

export { LANGUAGES, LANGUAGE_NAMES, type Language } from './language-list';

/** The language of a tag ('no' and 'nn' read as bokmål, the only Norwegian here), or null. */
export function languageOf(tag: unknown): Language | null {
  const base = String(tag ?? '').toLowerCase().split(/[-_]/)[0];
  if (base === 'no' || base === 'nn') return 'nb';
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : null;
}

const ASKED = [...LANGUAGES, 'no', 'nn'];

/** The language a request asks for: `chosen` (a page's ?lang=) if it names one, else Accept-Language's best, else English. */
export function askedLanguage(req: Request, chosen?: unknown): Language {
  return languageOf(chosen) ?? (req.headers?.['accept-language'] ? languageOf(req.acceptsLanguages(ASKED)) : null) ?? 'en';
}
