// Play on from the moment on screen: a fork of the finished match (POST …/fork), a new match with
// fresh tokens; each person's seat is a link to the table (the token in the fragment, never sent).
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { api, headers, messageOf, problem } from './api.js';
import { state } from './state.js';
/** @import { ForkCreated, ProblemBody } from '../../pages/assets/types' */

/**
 * Forks the match at `version`, or at the moment just before the move it falls inside.
 * @param {number} version
 * @returns {Promise<ForkCreated & { from: number }>}
 */
async function fork(version) {
  const res = await fetch(`${api}/fork?version=${version}`, { method: 'POST', headers: headers() }).catch(() => null);
  if (!res) throw new Error(t('error-unreachable'));
  /** @type {unknown} */
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const refusal = /** @type {ProblemBody | null} */ (body);
    // Inside a move (its events are appended together): the moment just before it.
    if (res.status === 422 && refusal?.nearestForkable?.before != null && refusal.nearestForkable.before < version) return fork(refusal.nearestForkable.before);
    throw problem(res, refusal);
  }
  return { .../** @type {ForkCreated} */ (body), from: version };
}

export function setUpFork() {
  $('#forkBtn').addEventListener('click', async () => {
    $('#forkBtn', HTMLButtonElement).disabled = true;
    $('#forkResult').replaceChildren('…');
    try {
      const made = await fork(state.version);
      const seats = made.seats.filter((s) => s.token);
      $('#forkResult').replaceChildren(
        el('span', {}, t('fork-made', { version: made.from })),
        ...seats.map((s) => el('a', { class: 'fork-seat', href: `/play/${encodeURIComponent(made.id)}#token=${encodeURIComponent(s.token)}` }, t('fork-seat', { name: s.name }))),
        el('a', { id: 'fork-viewer', href: `./${encodeURIComponent(made.id)}` }, t('fork-watch')),
      );
      $('#forkResult').dataset.fork = made.id;
    } catch (e) {
      $('#forkResult').replaceChildren(el('span', { class: 'red' }, messageOf(e)));
    } finally {
      $('#forkBtn', HTMLButtonElement).disabled = false;
    }
  });
}
