// The header's badges: the match's status, whether its deals are provably fair (explained in a
// sentence, with a link to the audit anyone can check), and where a fork comes from.
import { $, el } from '../../pages/assets/dom.js';
import { t } from '../../pages/assets/i18n.js';
import { api, get, id } from './api.js';
import { badge } from './words.js';
/** @import { Audit, PublicState } from '../../pages/assets/types' */

/** @param {PublicState} pub */
export async function renderHeader(pub) {
  const badges = [badge(t('match-status', { status: pub.status }))];
  let explained = t('fairness-explained');
  if (pub.seeded) {
    badges.push(badge(t('badge-seeded'), 'warn'));
    explained = t('fairness-seeded');
  } else if (pub.status === 'finished') {
    // The audit says which deals were provably fair (committed seed, a seat's cut, revealed seed).
    const audit = /** @type {Audit} */ (await get(`${api}/audit`));
    const fair = audit.provablyFairDeals.length;
    badges.push(el('span', { class: `badge ${audit.ok ? 'ok' : 'warn'}`, id: 'audit' },
      audit.ok ? t('badge-audit-ok', { fair, deals: audit.scoredDeals.length }) : t('badge-audit-failed', { version: audit.firstFailure ?? '?' })));
  } else badges.push(badge(t('badge-committed')));
  // A fork's origin is a finished match, public: linked without this page's token.
  if (pub.forkedFrom) {
    badges.push(el('a', { class: 'badge', id: 'forked-from', href: `./${encodeURIComponent(pub.forkedFrom.matchId)}` },
      t('badge-forked', { match: `${pub.forkedFrom.matchId.slice(0, 8)}…`, version: pub.forkedFrom.version })));
  }
  $('#badges').replaceChildren(...badges);
  $('#fairness').replaceChildren(el('span', {}, explained), ' ', el('a', { id: 'audit-link', href: `${api}/audit` }, t('fairness-audit-link')));
  $('#match').textContent = `${t('schedule-name', { schedule: pub.options.schedule })} · ${id}`;
}
