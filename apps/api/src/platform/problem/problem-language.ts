import { FluentBundle, FluentResource } from '@fluent/bundle';
import type { Request } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { askedLanguage, LANGUAGES, type Language } from '../i18n/languages';

// The same catalogs the pages load (apps/api/src/web/pages/assets/locales/<lang>/problems.ftl): read as
// files, so the answers and the pages can never word a problem differently.
const LOCALES = join(__dirname, '..', '..', 'web', 'pages', 'assets', 'locales');

const bundles = new Map<Language, FluentBundle>(LANGUAGES.map((lang) => {
  const bundle = new FluentBundle(lang, { useIsolating: false });
  bundle.addResource(new FluentResource(readFileSync(join(LOCALES, lang, 'problems.ftl'), 'utf8')));
  return [lang, bundle];
}));

/** The message id of a code's texts: MUST_FOLLOW_SUIT → problem-must-follow-suit. */
export const problemMessageId = (code: string): string => `problem-${code.toLowerCase().replace(/_/g, '-')}`;

/** The language a caller asks for in Accept-Language, among the service's (English when none fits). */
export const problemLanguage = (req: Request): Language => askedLanguage(req);

/**
 * The problem in `lang`: its title always, its detail where the catalog has the sentence a player
 * meets at a table. English bodies leave as the service wrote them (their details are more precise).
 */
export function localizeProblem<P extends { code: string; title: string; detail: string }>(body: P, lang: Language): P {
  if (lang === 'en') return body;
  const bundle = bundles.get(lang)!;
  const message = bundle.getMessage(problemMessageId(body.code));
  if (!message?.value) return body;
  const title = bundle.formatPattern(message.value);
  const detail = message.attributes.detail ? bundle.formatPattern(message.attributes.detail) : body.detail;
  return { ...body, title, detail };
}
