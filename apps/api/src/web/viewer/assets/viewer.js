// The replay viewer: steps through a match as the caller may see it (spectator by default; a seat
// token in the URL fragment, #token=…, shows that seat's cards), step by step, trick by trick or deal
// by deal. Plain DOM modules, no framework; every text from the catalogs (viewer.ftl).
import { $, el } from '../../pages/assets/dom.js';
import { languagePicker, loadMessages, t } from '../../pages/assets/i18n.js';
import { renderAnalysis, onAnalysis } from './analysis.js';
import { api, get, id, messageOf, statusOf } from './api.js';
import { setUpFork } from './fork.js';
import { follow } from './follow.js';
import { renderHeader } from './header.js';
import { renderScorecard } from './scorecard.js';
import { indexEvents, insideDeal, insideTrick, jumpTarget, state } from './state.js';
import { renderTable } from './table.js';
import { stepLine } from './words.js';
/** @import { EventPage, PublicState, Replay, Scorecard } from '../../pages/assets/types' */

/** The replay at `version`, read once. @param {number} version */
async function replay(version) {
  let read = state.replays.get(version);
  if (!read) {
    read = /** @type {Replay} */ (await get(`${api}/replay?version=${version}`));
    state.replays.set(version, read);
  }
  return read;
}

/** A jump's button (its id) and key. @typedef {'prevDeal' | 'prevTrick' | 'nextTrick' | 'nextDeal'} Jump */

// The jumps' targets at the moment on screen (null: no such trick or deal; the button is disabled).
/** @type {Record<Jump, () => number | null>} */
const JUMPS = {
  prevDeal: () => jumpTarget(state.dealStarts, state.version, -1, insideDeal(state.version)),
  prevTrick: () => jumpTarget(state.trickStarts, state.version, -1, insideTrick(state.version)),
  nextTrick: () => jumpTarget(state.trickStarts, state.version, 1, insideTrick(state.version)),
  nextDeal: () => jumpTarget(state.dealStarts, state.version, 1, insideDeal(state.version)),
};

/** Draws the moment `version` (within the log). @param {number} version */
async function show(version) {
  version = Math.max(1, Math.min(state.latest, version));
  state.version = version;
  const { view, revealed } = await replay(version);
  if (state.version !== version) return; // a later step won the race
  renderTable(view, revealed);
  renderAnalysis(view, revealed, version);
  renderScorecard(view, version);
  $('#slider', HTMLInputElement).max = String(state.latest);
  $('#slider', HTMLInputElement).value = String(version);
  $('#slider').setAttribute('aria-valuetext', t('slider-value', { version, latest: state.latest }));
  $('#step').textContent = stepLine(version, view.seats);
  $('#step').dataset.version = String(version);
  $('#position').textContent = t('step-position', { version, latest: state.latest });
  for (const [key, target] of Object.entries(JUMPS)) $(`#${key}`, HTMLButtonElement).disabled = target() === null;
  document.body.dataset.ready = 'true';
}

/** Reads the whole log, the scorecard and the match's state again. */
async function refresh() {
  const events = [];
  for (let after = 0; ;) {
    const page = /** @type {EventPage} */ (await get(`${api}/events?after=${after}&limit=1000`));
    events.push(...page.events);
    if (page.next === null) break;
    after = page.next;
  }
  indexEvents(events);
  state.scorecard = /** @type {Scorecard} */ (await get(`${api}/scorecard`));
  const pub = /** @type {PublicState} */ (await get(api));
  await renderHeader(pub);
  $('#fork').hidden = pub.status !== 'finished'; // only a finished match can be forked
}

/** @param {unknown} error */
function fail(error) { $('#error').textContent = messageOf(error); }

/** Goes to `version` as the person asked: following live only from the last step. @param {number | null} version */
function go(version, following = false) {
  if (version === null) return;
  state.following = following;
  $('#live', HTMLInputElement).checked = following;
  void show(version).catch(fail);
}

function setUpControls() {
  $('#first').addEventListener('click', () => go(1));
  // The last step is the live edge: from there the page follows the match again.
  $('#last').addEventListener('click', () => go(state.latest, true));
  $('#prev').addEventListener('click', () => go(state.version - 1));
  $('#next').addEventListener('click', () => go(state.version + 1));
  for (const [key, target] of Object.entries(JUMPS)) $(`#${key}`).addEventListener('click', () => go(target()));
  const slider = $('#slider', HTMLInputElement);
  slider.addEventListener('input', () => go(Number(slider.value)));
  const live = $('#live', HTMLInputElement);
  live.addEventListener('change', () => {
    state.following = live.checked;
    if (state.following) void show(state.latest).catch(fail);
  });
  // [ and ] (or Page Up / Page Down) jump by trick; with Shift, by deal.
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    const back = e.code === 'BracketLeft' || e.key === 'PageUp';
    const on = e.code === 'BracketRight' || e.key === 'PageDown';
    if (back || on) {
      e.preventDefault();
      go(JUMPS[back ? (e.shiftKey ? 'prevDeal' : 'prevTrick') : (e.shiftKey ? 'nextDeal' : 'nextTrick')]());
    } else if (e.target instanceof HTMLInputElement && e.target.type === 'range') {
      // The slider moves itself with the arrow keys, Home and End.
    } else if (e.key === 'ArrowLeft') go(state.version - 1);
    else if (e.key === 'ArrowRight') go(state.version + 1);
    else if (e.key === 'Home') go(1);
    else if (e.key === 'End') go(state.latest, true);
  });
}

/** Nothing to show (an unknown id, or not a match id at all): say so at the top, and where to start. @param {unknown} error */
function failToLoad(error) {
  const missing = statusOf(error) === 404;
  document.body.classList.add('missing');
  document.title = missing ? t('page-title-missing') : t('page-title');
  $('#notice').replaceChildren(
    el('h2', {}, missing ? t('missing-heading', { id }) : t('load-failed-heading')),
    el('p', {}, missing ? t('missing-text') : messageOf(error)),
    ...(missing ? [el('p', {}, el('a', { href: '/play' }, t('missing-play-link'))), el('p', {}, el('a', { href: '/docs' }, t('missing-docs-link')))] : []),
  );
  $('#notice').hidden = false;
  document.body.dataset.ready = missing ? 'missing' : 'failed';
}

await loadMessages(['common', 'problems', 'viewer']);
$('#language-slot').replaceChildren(languagePicker());
onAnalysis(() => void show(state.version).catch(fail), fail);
setUpControls();
setUpFork();
refresh().then(() => show(state.latest)).then(() => follow(refresh, () => show(state.latest), fail), failToLoad).catch(fail);
