// The match in players' words: seats by name, contracts, cards, and each event as a sentence. Every
// text comes from the catalog (viewer.ftl); cards are written with their symbols, never as codes.
import { t } from '../../pages/assets/i18n.js';
import { SUITS, cardFace, cardText, suitMark } from '../../pages/assets/cards.js';
import { el } from '../../pages/assets/dom.js';
import { dealOf, state } from './state.js';
/** @import { Card, Contract, MatchEvent, SeatName, Suit } from '../../pages/assets/types' */

/**
 * A seat's name; two seats of one name (two bots of one strength) are told apart by their seat, as on the table.
 * @param {SeatName[] | undefined} seats @param {number} seat
 */
export function seatName(seats, seat) {
  const own = seats?.[seat]?.name;
  if (!own || !seats) return t('seat-unnamed', { seat });
  return seats.filter((s) => s?.name === own).length > 1 ? t('seat-twin', { name: own, seat }) : own;
}

/** A card drawn as a card, named for a screen reader in the page's language. @param {Card} code */
export const card = (code, extraClass = '') => cardFace(code, t('card-label', { rank: code[0] === 'T' ? '10' : code[0], suit: code[1] }), extraClass);
/** A suit symbol in running text, named for a screen reader. @param {Suit} s */
export const suit = (s) => suitMark(s, t('suit-name', { suit: s }));

/** A contract in words, its trump as a symbol (red for hearts and diamonds); nodes to append. @param {Contract | null} contract @param {Suit | null} trump */
export const contractNodes = (contract, trump) =>
  contract ? [t('contract-name', { contract }), ...(trump ? [' ', suit(trump)] : [])] : [t('contract-none')];

// Event types as catalog ids (listed, not built, so that the catalog check sees every id asked for).
/** @type {Partial<Record<string, string>>} */
const SIMPLE = {
  TableAbandoned: 'event-table-abandoned',
  DeckCommitted: 'event-deck-committed',
  HandsDealt: 'event-hands-dealt',
  SeedRevealed: 'event-seed-revealed',
};

/** One event as players say it; `seats` are the names as the replay at that moment gives them. @param {MatchEvent} e @param {SeatName[]} seats */
function what(e, seats) {
  const seat = e.data && 'seat' in e.data ? e.data.seat : null;
  const who = seat == null ? '' : seatName(seats, seat);
  switch (e.type) {
    case 'MatchCreated': return t('event-match-created');
    case 'SeatJoined': return t('event-seat-joined', { who: e.data.name ?? who });
    case 'DeckCut': return t('event-deck-cut', { who });
    case 'DealStarted': return t('event-deal-started', { dealer: seatName(seats, e.data.dealer), forehand: seatName(seats, e.data.forehand) });
    case 'ContractChosen': return t('event-contract-chosen', { who, contract: e.data.contract, suit: e.data.trump ? SUITS[e.data.trump] : '' });
    // Forehand's cards are shown only to whom may see them (everyone once the deal is scored).
    case 'CardsLaidAway': return e.data.cards ? t('event-cards-laid-away-shown', { who, cards: e.data.cards.map(cardText).join(' ') }) : t('event-cards-laid-away', { who });
    case 'CardPlayed': return t(e.standIn ? 'event-card-played-stand-in' : 'event-card-played', { who, card: cardText(e.data.card) });
    case 'TrickTaken': return t('event-trick-taken', { who: seatName(seats, e.data.winner) });
    case 'DealVoided': return t('event-deal-voided', { who });
    case 'DealScored': return t('event-deal-scored', { deal: e.data.deal });
    case 'TurnTimedOut': return t('event-turn-timed-out', { who });
    case 'SeatReturned': return t('event-seat-returned', { who });
    case 'MatchFinished': return t('event-match-finished', { count: e.data.winners.length, winners: e.data.winners.map((s) => seatName(seats, s)).join(', ') });
    case 'RematchOffered': return t('event-rematch-offered', { who });
    default: return simple(e);
  }
}

/** An event said in a sentence of its own (its deal, if it names one); any other type in general words. @param {MatchEvent} e */
function simple(e) {
  const id = SIMPLE[e.type];
  const deal = dealOf(e);
  return id ? t(id, deal === undefined ? {} : { deal }) : t('event-other');
}

/** The step line of version `version`, e.g. "Deal 2 · trick 5 · Bjørn plays K♥". @param {number} version @param {SeatName[]} seats */
export function stepLine(version, seats) {
  const e = state.events[version - 1];
  if (!e) return '';
  const { deal, trick } = state.context[version - 1];
  const where = e.type === 'DealScored' || deal == null ? null : trick != null ? t('step-trick', { deal, trick }) : t('step-deal', { deal });
  return [where, what(e, seats)].filter(Boolean).join(' · ');
}

/** A small text on a chip in a heading (a seat's role, a match's status). @param {string} text */
export const badge = (text, cls = '') => el('span', { class: `badge ${cls}` }, text);
