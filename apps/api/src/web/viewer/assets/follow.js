// Follow a live match: the event stream wakes the page (polling when there is none, or with a seat's
// token, which an EventSource cannot send); the log stays the truth.
import { $ } from '../../pages/assets/dom.js';
import { api, token } from './api.js';
import { state } from './state.js';

/**
 * `refresh` reads the log again; `showLatest` draws its newest moment; `fail` says what went wrong.
 * @param {() => Promise<void>} refresh @param {() => Promise<void>} showLatest @param {(error: unknown) => void} fail
 */
export function follow(refresh, showLatest, fail) {
  // A wake-up during a refresh is not dropped: one more refresh follows (the last events of a match
  // come in a burst, and the one that ends it must be shown).
  let busy = false;
  let again = false;
  const update = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        const before = state.latest;
        await refresh();
        $('#error').textContent = ''; // the service answers again: an earlier failure is over
        if (state.following && state.latest !== before) await showLatest();
      } while (again);
    } catch (e) { fail(e); } finally { busy = false; }
  };
  // A lost stream (a restart of the service, the network gone): a refresh every 3 s until one
  // succeeds, then the stream again.
  const listen = () => {
    const source = new EventSource(`${api}/events/stream?after=${state.latest}`);
    let ended = false;
    source.onmessage = () => void update();
    source.addEventListener('end', () => { ended = true; source.close(); void update(); });
    source.addEventListener('error', () => {
      source.close();
      if (ended) return;
      /** @type {number | null} */
      let timer = setInterval(() => void update().then(() => {
        if (timer === null || $('#error').textContent) return; // still failing, or already listening
        clearInterval(timer);
        timer = null;
        listen();
      }), 3000);
    });
  };
  if ('EventSource' in window && !token) listen();
  else setInterval(update, 3000);
}
