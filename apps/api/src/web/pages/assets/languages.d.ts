// For the type checker only: the service writes /pages/assets/languages.js at start-up from its own
// list (apps/api/src/platform/i18n/language-list.ts; pages.controller.ts), so the browser imports it as
// './languages.js' and these are its types.
export { LANGUAGES, LANGUAGE_NAMES } from '../../../platform/i18n/language-list';
