// Cards are codes ('QH', 'TS') in the API and symbols on screen: converted here only (contracts too).
import { el } from '../../pages/assets/dom.js';

const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SUIT_NAMES = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_NAMES = { A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: '10' };
// The hand is sorted by suit, black and red in turn, then from the ace down.
const SUIT_ORDER = 'SHCD';
const RANK_ORDER = 'AKQJT98765432';

const isRed = (suit) => suit === 'H' || suit === 'D';
const rankOf = (code) => (code[0] === 'T' ? '10' : code[0]);
const spoken = (code) => `${RANK_NAMES[code[0]] ?? code[0]} of ${SUIT_NAMES[code[1]]}`;
// A card's name begins with the letter it shows ("K, king of spades"), so that a person who speaks to
// the page (voice control) can name the button by what they see (WCAG 2.5.3).
const named = (code) => (RANK_NAMES[code[0]] && code[0] !== 'T' ? `${code[0]}, ${spoken(code)}` : spoken(code));

export const suitMark = (suit) => el('span', { class: `sym ${isRed(suit) ? 'red' : ''}`, title: SUIT_NAMES[suit] }, SUITS[suit]);
export const byHandOrder = (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
/** A face-up card (every one carries data-card: the browser test compares them with the seat's view). */
export const faceUp = (code, tag = 'span', attrs = {}) => el(tag, { 'data-card': code, 'aria-label': named(code), title: spoken(code), ...attrs, class: `card ${isRed(code[1]) ? 'red' : ''} ${attrs.class ?? ''}` },
  el('span', { class: 'rank' }, rankOf(code)), el('span', { class: 'suit' }, SUITS[code[1]]));
export const back = () => el('span', { class: 'card back', 'aria-hidden': 'true' });
/** A contract in words, where its name alone would mislead (spades is not any free trump). */
export const CONTRACT_LABELS = { spades: 'spades (♠ trumps)', notrump: 'no trump', pass: 'pass (take few tricks)' };
