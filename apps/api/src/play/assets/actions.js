// What this seat may do now, as its view's `legal` says (nothing else is offered), and, around the
// match, the invitation of a waiting table and "Play again" at the end (rematch.js). `seat` is the table's side:
// { id, token, act(command, body), name(seat), picked (the cards picked for the lay-away) }.
import { CONTRACT_LABELS, suitMark } from './cards.js';
import { copyRow, el } from '../../pages/assets/dom.js';
import { renderPlayAgain } from './rematch.js';

export function renderActions(box, view, seat) {
  const { act, name, picked } = seat;
  const legal = view.legal;
  if (view.status === 'finished') return renderPlayAgain(box, view, seat);
  if (view.status === 'waiting') return renderInvite(box, view, seat);
  if (view.status === 'abandoned') return box.replaceChildren(el('p', {}, el('a', { href: '/play' }, 'Start a new match')));
  if (!legal) return box.replaceChildren(el('p', { class: 'waiting' }, view.turn === null ? 'Waiting…' : `Waiting for ${name(view.turn)}…`));
  switch (legal.action) {
    case 'deal':
      return box.replaceChildren(el('p', {}, 'You deal this time.'), el('button', { id: 'dealBtn', type: 'button', onclick: () => act('deal', {}) }, 'Deal (D)'));
    case 'cut': {
      const input = el('input', { id: 'cutText', maxlength: '64', value: randomCut(), 'aria-label': 'Your cut', spellcheck: 'false' });
      return box.replaceChildren(
        el('p', {}, 'You may cut the next deck: your string is mixed into the shuffle (optional; the dealer may deal first).'),
        el('div', { class: 'row' }, input, el('button', { id: 'cutBtn', type: 'button', onclick: () => act('cut', { cut: input.value }) }, 'Cut (U)')),
      );
    }
    case 'chooseContract': {
      const choices = legal.contracts.flatMap((c) => (c === 'trump' ? legal.trumps.map((t) => ({ contract: c, trump: t })) : [{ contract: c }]));
      const blind = view.hand.length === 0 ? ' (blind: from the four table cards; your hand comes after)' : '';
      return box.replaceChildren(el('p', {}, `Choose the contract${blind}:`), el('div', { class: 'row', id: 'contracts' }, ...choices.map((choice, i) => el('button', {
        type: 'button', class: 'contract', 'data-key': String(i + 1), 'data-contract': choice.contract, 'data-trump': choice.trump,
        onclick: () => act('contract', choice.trump ? { contract: 'trump', trump: choice.trump } : { contract: choice.contract }),
      }, el('kbd', {}, String(i + 1)), ' ', ...(choice.trump ? ['free trump ', suitMark(choice.trump)] : [CONTRACT_LABELS[choice.contract]]))),
      ), el('p', { id: 'contractHelp', class: 'muted' }, contractHelp(view, legal)));
    }
    case 'discard': {
      const n = picked.size;
      return box.replaceChildren(
        el('p', {}, `Lay away ${legal.count} cards, face down: pick them in your hand (${n} of ${legal.count} picked).`),
        el('button', { id: 'layAway', type: 'button', disabled: n !== legal.count, onclick: () => act('discard', { cards: [...picked] }) }, `Lay away ${legal.count} (A)`),
      );
    }
    case 'play':
      return box.replaceChildren(el('p', {}, el('strong', {}, 'Your turn:'), ' play one of the raised cards.'));
    default:
      return box.replaceChildren(el('p', {}, `The service asks for “${legal.action}”, which this page does not know.`));
  }
}

/** A waiting table: the link that seats a friend (it holds no token), or a bot for an open seat. */
function renderInvite(box, view, { id, act }) {
  const open = view.seats.filter((s) => s.name === null).map((s) => s.seat);
  // Kept while the open seats are the same (a selection, a copy in progress), its buttons on again.
  if (box.querySelector('#inviteLink') && box.dataset.open === open.join()) {
    for (const b of box.querySelectorAll('button')) b.disabled = false;
    return;
  }
  box.dataset.open = open.join();
  const { row } = copyRow({ id: 'inviteLink', 'aria-label': 'Link to this table' }, `${location.origin}/play/${encodeURIComponent(id)}`, 'copyLink', 'Copy link');
  box.replaceChildren(
    el('p', {}, `Waiting for ${open.length === 1 ? 'one more player' : `${open.length} more players`}. Send this link to ${open.length === 1 ? 'a friend' : 'your friends'}: opened in a browser, it offers the open seat${open.length === 1 ? '' : 's'}.`),
    row,
    el('p', {}, 'Or let the service play a seat:'),
    el('div', { class: 'row' }, ...open.map((seat) => el('button', {
      type: 'button', class: 'botSeat', 'data-seat': String(seat), onclick: () => act(`seats/${seat}/bot`, { bot: 'greedy' }),
    }, `a bot for open seat ${seat}`))),
  );
}

/** What the offered contracts mean (docs/rules.md §3), so that "spades" and "free trump ♠" are told apart. */
function contractHelp(view, legal) {
  const words = {
    spades: 'spades: spades are trumps',
    trump: 'free trump: you name the trump suit' + (legal.contracts.includes('spades') && legal.trumps.includes('S') ? ' (♠ too: the same cards, but another contract)' : ''),
    notrump: 'no trump: no suit is trumps',
    pass: 'pass: take as few tricks as you can',
  };
  const quotas = 'Quotas: you 8 tricks, the others 4 each; in pass you 4, the others 6 (there, fewer is better).';
  const once = view.options.schedule === 'modern' ? ' Each forehand plays each contract once in the match: these are the ones you have left.' : '';
  return `${legal.contracts.map((c) => words[c] ?? c).join('; ')}. ${quotas}${once}`;
}


function randomCut() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => 'abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3456789'[b % 52]).join('');
}
