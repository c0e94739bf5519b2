// Cards are codes ('QH', 'TS') in the API and symbols on screen: converted here only (contracts too).
import { el } from '../../pages/assets/dom.js';
import { cardText, isRed, rankOf, SUITS, suitSymbol } from '../../pages/assets/cards.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
/** @import { Attrs } from '../../pages/assets/dom.js' */
/** @import { Card, Contract, Suit } from '../../pages/assets/types' */

// The hand is sorted by suit, black and red in turn, then from the ace down.
const SUIT_ORDER = 'SHCD';
const RANK_ORDER = 'AKQJT98765432';

// A digit rank goes to the catalogs as a number (Fluent matches a number only with a number: [9]).
/** @param {Card} code */
const rankArg = (code) => (/[2-9]/.test(code[0]) ? Number(code[0]) : code[0]);
/** @param {Card} code */
const spoken = (code) => t('card-name', { rank: rankArg(code), suit: code[1] });
// A card button's name begins with what it shows ("K♠, king of spades"), so that a person who speaks
// to the page (voice control) can name it by what they see (WCAG 2.5.3); a card that is not a control
// is an image named by its name alone (an aria-label on a bare span is not allowed).
/** @param {Card} code @param {string} tag @returns {Attrs} */
const named = (code, tag) => (tag === 'button'
  ? { 'aria-label': tAttr('card-button', 'aria-label', { shown: cardText(code), rank: rankArg(code), suit: code[1] }) }
  : { role: 'img', 'aria-label': spoken(code) });

/** @param {Suit} suit */
export const suitMark = (suit) => el('span', { class: `sym ${isRed(suit) ? 'red' : ''}`, title: t('suit-name', { suit }) }, SUITS[suit]);
/** @param {Card} a @param {Card} b */
export const byHandOrder = (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
/**
 * A face-up card (every one carries data-card: the browser test compares them with the seat's view).
 * @template {'span' | 'button'} [K='span']
 * @param {Card} code @param {K} [tag] @param {Attrs} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export const faceUp = (code, tag = /** @type {K} */ ('span'), attrs = {}) => el(tag, { 'data-card': code, ...named(code, tag), title: spoken(code), ...attrs, class: `card ${isRed(code[1]) ? 'red' : ''} ${attrs.class ?? ''}` },
  el('span', { class: 'rank' }, rankOf(code)), el('span', { class: 'suit' }, suitSymbol(code[1])));
export const back = () => el('span', { class: 'card back', 'aria-hidden': 'true' });
/** A contract in words, where its name alone would mislead (spades is not any free trump). @param {Contract} contract */
export const contractLabel = (contract) => t('contract-button', { contract });
