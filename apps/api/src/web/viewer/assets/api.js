// The public API as this page reads it: the match id from the path, the seat token (if any), and
// requests in the page's language (so that the service's problems speak it too).
import { language, t } from '../../pages/assets/i18n.js';
/** @import { ProblemBody } from '../../pages/assets/types' */
/** A refusal as this page throws it: the service's words, its status and code. @typedef {Error & { status: number, code: string | undefined }} ViewerProblem */

export const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
export const api = `/api/matches/${encodeURIComponent(id)}`;

// A seat's token, as on the table: from the fragment, then kept in this tab's session storage (under
// the table's key, so that the table's "replay viewer" link shows the seat's own cards) and removed
// from the address bar, so that a copied link never carries it.
const tokenKey = `bismarck.seat-token.${id}`;
const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  try { sessionStorage.setItem(tokenKey, fromHash); } catch { /* storage off: memory only */ }
  history.replaceState(history.state, '', location.pathname + location.search);
}
export const token = fromHash ?? (() => { try { return sessionStorage.getItem(tokenKey); } catch { return null; } })();

/** The headers of every request: the seat's token, the page's language. */
export const headers = () => ({ 'Accept-Language': language(), ...(token ? { Authorization: `Bearer ${token}` } : {}) });

/**
 * An error of the service's answer: its own (translated) words, with the status and code.
 * @param {Response} res @param {Partial<ProblemBody> | null} body
 * @returns {ViewerProblem}
 */
export function problem(res, body) {
  return Object.assign(new Error(body?.detail || body?.title || `${res.status}`), { status: res.status, code: body?.code });
}

/** The HTTP status of an error `problem` made, else null. @param {unknown} error */
export const statusOf = (error) => (error instanceof Error && 'status' in error && typeof error.status === 'number' ? error.status : null);

/** What went wrong, in words (an error's message). @param {unknown} error */
export const messageOf = (error) => String((error instanceof Error && error.message) || error);

/**
 * Reads `path` (JSON). Its answer is what the OpenAPI document says that path answers: the caller
 * gives it that type (a JSDoc cast to one of pages/assets/types.d.ts).
 * @param {string} path
 * @returns {Promise<unknown>}
 */
export async function get(path) {
  const res = await fetch(path, { headers: headers() }).catch(() => { throw new Error(t('error-unreachable')); });
  /** @type {unknown} */
  const body = await res.json().catch(() => null);
  if (!res.ok) throw problem(res, /** @type {Partial<ProblemBody> | null} */ (body));
  return body;
}
