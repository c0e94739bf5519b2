// Where the page keeps a seat's token. Two places, for two promises:
// - the tab's session storage (`bismarck.seat-token.{id}`): a reload of this tab sits down again at once;
// - the browser's local storage (`bismarck.seat.{id}` → { seat, token, saved }): a closed tab is not a
//   lost seat; the table's shared link, opened again in this browser, offers the seat back.
// The browser's entry is written once the service accepted the token (a view was read with it) and
// removed when the match ends or the service refuses the token. Neither ever goes into an address.

/** @param {string} id */
const tabKey = (id) => `bismarck.seat-token.${id}`;
/** @param {string} id */
const browserKey = (id) => `bismarck.seat.${id}`;
// An entry unused this long is dropped (a match left for good must not keep its token for ever).
const KEEP_MS = 30 * 24 * 3600 * 1000;

/**
 * Some browsers (storage off, a private window's quota) throw on any use of storage: then it holds nothing.
 * @template T, F
 * @param {() => T} fn @param {F} fallback
 * @returns {T | F}
 */
export function attempt(fn, fallback) {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * Keeps the token for this tab; false when storage is off (the page then holds it in memory only).
 * @param {string} id @param {string} token
 */
export const rememberInTab = (id, token) => attempt(() => { sessionStorage.setItem(tabKey(id), token); return true; }, false);
/** @param {string} id */
export const tabToken = (id) => attempt(() => sessionStorage.getItem(tabKey(id)), null);

/** Keeps the seat for this browser (any tab, after this one is closed). @param {string} id @param {number} seat @param {string} token */
export const rememberInBrowser = (id, seat, token) =>
  attempt(() => { localStorage.setItem(browserKey(id), JSON.stringify({ seat, token, saved: Date.now() })); return true; }, false);

/** A seat this browser keeps: @typedef {{ seat: number, token: string, saved: number }} HeldSeat */

/** The seat this browser held at the match, if any. @param {string} id @returns {HeldSeat | null} */
export function browserSeat(id) {
  /** @type {Partial<HeldSeat> | null} */
  const entry = attempt(() => JSON.parse(localStorage.getItem(browserKey(id)) ?? 'null'), null);
  return typeof entry?.token === 'string' && Number.isInteger(entry.seat) ? /** @type {HeldSeat} */ (entry) : null;
}

/** The match is over: no tab or link need offer its seat again (this tab's copy goes with the tab). @param {string} id */
export const forgetInBrowser = (id) => attempt(() => localStorage.removeItem(browserKey(id)), undefined);

/** The service refused the token: kept nowhere. @param {string} id */
export function forgetEverywhere(id) {
  forgetInBrowser(id);
  attempt(() => sessionStorage.removeItem(tabKey(id)), undefined);
}

/** Drops the browser's entries older than KEEP_MS. */
export function pruneBrowserSeats(now = Date.now()) {
  attempt(() => {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (!key?.startsWith('bismarck.seat.')) continue;
      const saved = attempt(() => JSON.parse(localStorage.getItem(key) ?? 'null').saved, 0);
      if (!(now - saved < KEEP_MS)) localStorage.removeItem(key);
    }
  }, undefined);
}

/** The seat's own link: the table's address with the token in the fragment, which no browser sends to a server. @param {string} id @param {string} token */
export const seatLink = (id, token) => `${location.origin}/play/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`;
