// The public API as the table calls it: JSON in and out, the seat's token only in a header, a refusal
// as a Problem (problem+json's title and detail), asked for in the page's language (Accept-Language).
import { language, t, tAttr } from '../../pages/assets/i18n.js';
/** @import { Args } from '../../pages/assets/i18n.js' */
/** @import { ProblemBody } from '../../pages/assets/types' */

/**
 * What a Problem is made from: a refusal's body (problem+json), or the page's own words for one.
 * @typedef {Partial<Pick<ProblemBody, 'title' | 'detail'>> & { code?: string, args?: Args }} ProblemParts
 */

export class Problem extends Error {
  /** @param {number} status @param {ProblemParts | null} body */
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.title = body?.title || `HTTP ${status}`;
    this.detail = body?.detail || '';
    this.code = body?.code;
    this.args = body?.args;
  }
}

/**
 * A problem of the page's own (no answer from the service), in the page's words: `code` names its message.
 * @param {string} code @param {Args} [args]
 */
export const pageProblem = (code, args = undefined) => new Problem(0, { code, args, title: t(messageOf(code), args), detail: tAttr(messageOf(code), 'detail', args) });

/** @param {string} code */
const messageOf = (code) => `problem-${String(code).toLowerCase().replace(/_/g, '-')}`;

/**
 * What a refusal says, in the page's language: the catalog's title for its code (else the service's,
 * asked for in that language); the detail in English as the service wrote it (it says more), else the
 * catalog's, or none rather than a developer's English sentence.
 * @param {unknown} error
 * @returns {{ title: string, detail: string }}
 */
export function problemText(error) {
  if (!(error instanceof Problem)) return { title: t('something-wrong'), detail: String((error instanceof Error && error.message) || error || '') };
  const id = error.code ? messageOf(error.code) : '';
  const known = id !== '' && t(id) !== id;
  const title = known && language() !== 'en' ? t(id, error.args) : error.title;
  const detail = language() === 'en' && error.status !== 0 ? error.detail : (known ? tAttr(id, 'detail', error.args) : error.detail);
  return { title, detail };
}

/** An error's HTTP status (0: the page's own problem), or null for anything else thrown. @param {unknown} error */
export const statusOf = (error) => (error instanceof Problem ? error.status : null);

// How far this browser's clock is from the service's, from the answers' Date headers (whole seconds,
// so a gap under two seconds is taken for none): a turn's deadline is the service's time.
let skew = 0;
export const serverNow = () => Date.now() + (Math.abs(skew) < 2000 ? 0 : skew);

/**
 * A request to the API. Its answer is what the OpenAPI document says that path answers: the caller
 * gives it that type (a JSDoc cast to one of pages/assets/types.d.ts).
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string, body?: unknown }} [options] the seat's token (sent in a header) and a JSON body
 * @returns {Promise<unknown>}
 */
export async function call(method, path, { token, body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', 'Accept-Language': language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw pageProblem('UNREACHABLE');
  }
  const date = Date.parse(res.headers.get('Date') ?? '');
  if (Number.isFinite(date)) skew = date + 500 - Date.now();
  /** @type {unknown} */
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Problem(res.status, /** @type {ProblemParts | null} */ (data));
  return data;
}

/** The token was refused: not this match's, or no longer valid. @param {unknown} error */
export const refusesToken = (error) => error instanceof Problem && (error.status === 401 || error.status === 403);
