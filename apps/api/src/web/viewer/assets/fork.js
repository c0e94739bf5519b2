// Play on from the moment on screen: a fork of the finished match (POST …/fork), a new match with
// fresh tokens; each person's seat is a link to the table (the token in the fragment, never sent).
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { api, headers, problem } from './api.js';
import { state } from './state.js';

async function fork(version) {
  const res = await fetch(`${api}/fork?version=${version}`, { method: 'POST', headers: headers() }).catch(() => null);
  if (!res) throw new Error(t('error-unreachable'));
  const body = await res.json().catch(() => null);
  // Inside a move (its events are appended together): the moment just before it.
  if (res.status === 422 && body?.nearestForkable?.before != null && body.nearestForkable.before < version) return fork(body.nearestForkable.before);
  if (!res.ok) throw problem(res, body);
  return { ...body, from: version };
}

export function setUpFork() {
  $('#forkBtn').addEventListener('click', async () => {
    $('#forkBtn').disabled = true;
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
      $('#forkResult').replaceChildren(el('span', { class: 'red' }, String(e.message || e)));
    } finally {
      $('#forkBtn').disabled = false;
    }
  });
}
