// The public API as this page reads it: the match id from the path, the seat token (if any), and
// requests in the page's language (so that the service's problems speak it too).
import { language, t } from '../../pages/assets/i18n.js';

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

/** An error of the service's answer: its own (translated) words, with the status and code. */
export function problem(res, body) {
  return Object.assign(new Error(body?.detail || body?.title || `${res.status}`), { status: res.status, code: body?.code });
}

export async function get(path) {
  const res = await fetch(path, { headers: headers() }).catch(() => { throw new Error(t('error-unreachable')); });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw problem(res, body);
  return body;
}
