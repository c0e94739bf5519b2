// What this seat may do now, as its view's `legal` says (nothing else is offered), and, around the
// match, the invitation of a waiting table and "Play again" at the end (rematch.js). `seat` is the table's side:
// { id, token, act(command, body), name(seat), picked (the cards picked for the lay-away) }.
import { pageProblem } from './api.js';
import { contractLabel, suitMark } from './cards.js';
import { copyRow, el } from '../../pages/assets/dom.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
import { clearProblem, showProblem } from './notice.js';
import { renderPlayAgain } from './rematch.js';
/** @import { Contract, Legal, SeatView, Suit } from '../../pages/assets/types' */

/**
 * What the actions need of the table.
 * @typedef {object} TableSide
 * @property {string} id the match
 * @property {string} token the seat's token (or its player's)
 * @property {(command: string, body?: unknown) => Promise<void>} act sends a command (`deal`, `seats/1/bot`) with its body
 * @property {(seat: number) => string} name a seat's name
 * @property {Set<string>} picked the cards picked for the lay-away
 */

/** @param {HTMLElement} box @param {SeatView} view @param {TableSide} seat */
export function renderActions(box, view, seat) {
  const { act, name, picked } = seat;
  const legal = view.legal;
  if (view.status === 'finished') return renderPlayAgain(box, view, seat);
  if (view.status === 'waiting') return renderInvite(box, view, seat);
  if (view.status === 'abandoned') return box.replaceChildren(el('p', {}, el('a', { href: '/play' }, t('start-new-match'))));
  if (!legal) return box.replaceChildren(el('p', { class: 'waiting' }, view.turn === null ? t('waiting') : t('waiting-for', { name: name(view.turn) })));
  switch (legal.action) {
    case 'deal':
      return box.replaceChildren(el('p', {}, t('you-deal')), el('button', { id: 'dealBtn', type: 'button', onclick: () => act('deal', {}) }, t('deal-button')));
    case 'cut':
      return renderCut(box, act);
    case 'chooseContract':
      return renderContracts(box, view, legal, act);
    case 'discard': {
      const n = picked.size;
      return box.replaceChildren(
        el('p', {}, t('lay-away-intro', { count: legal.count, picked: n })),
        el('button', { id: 'layAway', type: 'button', disabled: n !== legal.count, onclick: () => act('discard', { cards: [...picked] }) }, t('lay-away-button', { count: legal.count })),
      );
    }
    case 'play':
      return box.replaceChildren(el('p', {}, el('strong', {}, t('play-now'))));
    default: // an action this page does not know (a newer service's)
      return box.replaceChildren(el('p', {}, t('unknown-action', { action: String(/** @type {{ action?: unknown }} */ (legal).action) })));
  }
}

/**
 * The contracts forehand may announce, a numbered button each (a free trump once per allowed suit),
 * and what they mean.
 * @param {HTMLElement} box @param {SeatView} view @param {Extract<Legal, { action: 'chooseContract' }>} legal @param {TableSide['act']} act
 */
function renderContracts(box, view, legal, act) {
  /** @typedef {{ contract: Contract, trump?: Suit }} Choice */
  const choices = legal.contracts.flatMap(/** @returns {Choice[]} */ (c) => (c === 'trump' ? legal.trumps.map((t) => ({ contract: c, trump: t })) : [{ contract: c }]));
  return box.replaceChildren(el('p', {}, view.hand.length === 0 ? t('choose-contract-blind') : t('choose-contract')), el('div', { class: 'row', id: 'contracts' }, ...choices.map((choice, i) => el('button', {
    type: 'button', class: 'contract', 'data-key': String(i + 1), 'data-contract': choice.contract, 'data-trump': choice.trump,
    onclick: () => act('contract', choice.trump ? { contract: 'trump', trump: choice.trump } : { contract: choice.contract }),
  }, el('kbd', {}, String(i + 1)), ' ', ...(choice.trump ? [t('free-trump'), ' ', suitMark(choice.trump)] : [contractLabel(choice.contract)]))),
  ), el('p', { id: 'contractHelp', class: 'muted' }, contractHelp(view, legal)));
}

/** A waiting table: the link that seats a friend (it holds no token), or a bot for an open seat. @param {HTMLElement} box @param {SeatView} view @param {TableSide} seat */
function renderInvite(box, view, { id, act }) {
  const open = view.seats.filter((s) => s.name === null).map((s) => s.seat);
  // Kept while the open seats are the same (a selection, a copy in progress), its buttons on again.
  if (box.querySelector('#inviteLink') && box.dataset.open === open.join()) {
    for (const b of box.querySelectorAll('button')) b.disabled = false;
    return;
  }
  box.dataset.open = open.join();
  const { row } = copyRow({ id: 'inviteLink', 'aria-label': tAttr('invite-link', 'aria-label') }, `${location.origin}/play/${encodeURIComponent(id)}`, 'copyLink', t('copy-link'), t('copied'));
  box.replaceChildren(
    el('p', {}, t('invite', { open: open.length })),
    row,
    el('p', {}, t('invite-bots')),
    el('div', { class: 'row' }, ...open.map((seat) => el('button', {
      type: 'button', class: 'botSeat', 'data-seat': String(seat), onclick: () => act(`seats/${seat}/bot`, { bot: 'greedy' }),
    }, t('bot-for-seat', { seat })))),
  );
}

/**
 * What the offered contracts mean (docs/rules.md §3), so that "spades" and "free trump ♠" are told apart.
 * @param {SeatView} view @param {Extract<Legal, { action: 'chooseContract' }>} legal
 */
function contractHelp(view, legal) {
  /** @type {Record<string, string>} */
  const words = {
    spades: t('help-spades'),
    trump: legal.contracts.includes('spades') && legal.trumps.includes('S') ? t('help-trump-spades') : t('help-trump'),
    notrump: t('help-notrump'),
    pass: t('help-pass'),
  };
  const once = view.options.schedule === 'modern' ? ` ${t('help-once')}` : '';
  return `${legal.contracts.map((c) => words[c] ?? c).join('; ')}. ${t('help-quotas')}${once}`;
}

/**
 * The cut: its rule said before anything is typed, and the field kept as typed across the table's
 * redraws, a refusal included (the refusal is said in the notice). Left empty, the page cuts at random.
 * @param {HTMLElement} box @param {TableSide['act']} act
 */
function renderCut(box, act) {
  if (box.querySelector('#cutText')) {
    for (const b of box.querySelectorAll('button')) b.disabled = false;
    return;
  }
  const input = el('input', { id: 'cutText', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'cutHint', placeholder: tAttr('cut-field', 'placeholder') });
  const cut = () => {
    // Only the length is checked here (in characters as a person counts them); the service judges the rest.
    const typed = input.value.normalize('NFC');
    const n = [...typed].length;
    if (n > 64) return showProblem(pageProblem('CUT_TOO_LONG', { n }));
    clearProblem();
    return act('cut', { cut: n === 0 ? randomCut() : typed });
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); void cut(); } });
  return box.replaceChildren(
    el('p', {}, t('cut-intro')),
    el('p', { id: 'cutHint', class: 'muted' }, t('cut-hint')),
    el('div', { class: 'row' }, el('label', { for: 'cutText' }, t('cut-label')), input, el('button', { id: 'cutBtn', type: 'button', onclick: cut }, t('cut-button'))),
  );
}


function randomCut() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => 'abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3456789'[b % 52]).join('');
}
