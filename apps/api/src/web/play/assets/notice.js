// The notice at the top of the page: what the service refused, or that it cannot be reached.
import { problemText } from './api.js';
import { $, el } from '../../pages/assets/dom.js';

/** @param {unknown} error */
export function showProblem(error) {
  const notice = $('#notice');
  const { title, detail } = problemText(error);
  notice.replaceChildren(el('strong', { class: 'title' }, title), detail ? el('span', { class: 'detail' }, ` ${detail}`) : '');
  notice.hidden = false;
  delete notice.dataset.from;
}

/** A failed read (the service restarting, the network gone): shown until the next read succeeds. @param {unknown} error */
export function readFailed(error) {
  showProblem(error);
  $('#notice').dataset.from = 'read';
}

export function clearProblem() {
  $('#notice').hidden = true;
  $('#notice').replaceChildren();
}

/**
 * A notice of the page's own: a title, words, and links ([text, href] pairs or strings between them).
 * @param {string} title @param {...(string | [string, string])} parts
 */
export function showNotice(title, ...parts) {
  $('#notice').replaceChildren(el('strong', { class: 'title' }, title),
    ...parts.map((p) => (Array.isArray(p) ? el('a', { href: p[1] }, p[0]) : el('span', { class: 'detail' }, p))));
  $('#notice').hidden = false;
}
