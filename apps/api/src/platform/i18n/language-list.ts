// The one list of the languages the service speaks. It imports nothing, so that the pages' type
// checking reads it too (apps/api/src/web/pages/assets/languages.d.ts), and the browser gets it as
// /pages/assets/languages.js, written from it at start-up (web/pages/pages.controller.ts).

/** The languages the pages and the API's problem texts speak. */
export const LANGUAGES = ['en', 'fi', 'nb', 'sv'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language named in itself, as the pages' language picker shows them. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', fi: 'suomi', nb: 'norsk bokmål', sv: 'svenska' };
