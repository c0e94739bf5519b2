// Cards are codes ('QH', 'TS') in the API and symbols on screen: the pages convert them here. No words
// in any language: a caller passes the spoken name (from its catalog) where one is wanted.
import { el } from './dom.js';

/** @import { Card, Suit } from './types' */

export const SUITS = /** @type {const} */ ({ S: '♠', H: '♥', D: '♦', C: '♣' });

/** @param {string} suit */
export const isRed = (suit) => suit === 'H' || suit === 'D';
/** @param {Card} code */
export const rankOf = (code) => (code[0] === 'T' ? '10' : code[0]);
/** A suit's symbol; '' for a letter that names none. @param {string} suit */
export const suitSymbol = (suit) => (Object.hasOwn(SUITS, suit) ? SUITS[/** @type {Suit} */ (suit)] : '');
/** A card as text, e.g. 'K♥' or '10♠'. @param {Card} code */
export const cardText = (code) => `${rankOf(code)}${suitSymbol(code[1])}`;
/**
 * A suit symbol in running text (a CSS chip keeps a red one legible on the felt); `label` names it for a screen reader.
 * @param {Suit} suit @param {string} [label]
 */
export const suitMark = (suit, label = undefined) =>
  el('span', { class: `sym ${isRed(suit) ? 'red' : ''}`, role: label ? 'img' : undefined, 'aria-label': label, title: label }, SUITS[suit]);
/** A card in running text, e.g. Q♥ (hearts and diamonds red). @param {Card} code */
export const cardInText = (code) => el('span', { class: `played ${isRed(code[1]) ? 'red' : ''}`, 'data-card': code }, cardText(code));
/** A face-up card drawn as a card; `label` is its spoken name (an image's name: role img). @param {Card} code @param {string} label */
export const cardFace = (code, label, extraClass = '') =>
  el('span', { class: `card ${isRed(code[1]) ? 'red' : ''} ${extraClass}`, role: 'img', 'aria-label': label, title: label, 'data-card': code },
    el('span', { class: 'rank', 'aria-hidden': 'true' }, rankOf(code)), el('span', { class: 'suit', 'aria-hidden': 'true' }, suitSymbol(code[1])));
/** A card face down: nothing to read (the count of cards is said in words beside it). */
export const cardBack = (extraClass = '') => el('span', { class: `card back ${extraClass}`, 'aria-hidden': 'true' });
