// The match in players' words: seats by name, contracts, cards, and each event as a sentence. Every
// text comes from the catalog (viewer.ftl); cards are written with their symbols, never as codes.
import { t } from '../../pages/assets/i18n.js';
import { SUITS, cardFace, cardText, suitMark } from '../../pages/assets/cards.js';
import { el } from '../../pages/assets/dom.js';
import { state } from './state.js';

/** A seat's name; two seats of one name (two bots of one strength) are told apart by their seat, as on the table. */
export function seatName(seats, seat) {
  const own = seats?.[seat]?.name;
  if (!own) return t('seat-unnamed', { seat });
  return seats.filter((s) => s?.name === own).length > 1 ? t('seat-twin', { name: own, seat }) : own;
}

/** A card drawn as a card, named for a screen reader in the page's language. */
export const card = (code, extraClass = '') => cardFace(code, t('card-label', { rank: code[0] === 'T' ? '10' : code[0], suit: code[1] }), extraClass);
/** A suit symbol in running text, named for a screen reader. */
export const suit = (s) => suitMark(s, t('suit-name', { suit: s }));

/** A contract in words, its trump as a symbol (red for hearts and diamonds); nodes to append. */
export const contractNodes = (contract, trump) =>
  contract ? [t('contract-name', { contract }), ...(trump ? [' ', suit(trump)] : [])] : [t('contract-none')];

// Event types as catalog ids (listed, not built, so that the catalog check sees every id asked for).
const SIMPLE = {
  TableAbandoned: 'event-table-abandoned',
  DeckCommitted: 'event-deck-committed',
  HandsDealt: 'event-hands-dealt',
  SeedRevealed: 'event-seed-revealed',
};

/** One event as players say it; `seats` are the names as the replay at that moment gives them. */
function what(e, seats) {
  const d = e.data ?? {};
  const who = d.seat == null ? '' : seatName(seats, d.seat);
  switch (e.type) {
    case 'MatchCreated': return t('event-match-created');
    case 'SeatJoined': return t('event-seat-joined', { who: d.name ?? who });
    case 'DeckCut': return t('event-deck-cut', { who });
    case 'DealStarted': return t('event-deal-started', { dealer: seatName(seats, d.dealer), forehand: seatName(seats, d.forehand) });
    case 'ContractChosen': return t('event-contract-chosen', { who, contract: d.contract, suit: d.trump ? SUITS[d.trump] : '' });
    // Forehand's cards are shown only to whom may see them (everyone once the deal is scored).
    case 'CardsLaidAway': return d.cards ? t('event-cards-laid-away-shown', { who, cards: d.cards.map(cardText).join(' ') }) : t('event-cards-laid-away', { who });
    case 'CardPlayed': return t(e.standIn ? 'event-card-played-stand-in' : 'event-card-played', { who, card: cardText(d.card) });
    case 'TrickTaken': return t('event-trick-taken', { who: seatName(seats, d.winner) });
    case 'DealVoided': return t('event-deal-voided', { who });
    case 'DealScored': return t('event-deal-scored', { deal: d.deal });
    case 'TurnTimedOut': return t('event-turn-timed-out', { who });
    case 'SeatReturned': return t('event-seat-returned', { who });
    case 'MatchFinished': return t('event-match-finished', { count: d.winners.length, winners: d.winners.map((s) => seatName(seats, s)).join(', ') });
    case 'RematchOffered': return t('event-rematch-offered', { who });
    default: return SIMPLE[e.type] ? t(SIMPLE[e.type], { deal: d.deal }) : t('event-other');
  }
}

/** The step line of version `version`, e.g. "Deal 2 · trick 5 · Bjørn plays K♥". */
export function stepLine(version, seats) {
  const e = state.events[version - 1];
  if (!e) return '';
  const { deal, trick } = state.context[version - 1];
  const where = e.type === 'DealScored' || deal == null ? null : trick != null ? t('step-trick', { deal, trick }) : t('step-deal', { deal });
  return [where, what(e, seats)].filter(Boolean).join(' · ');
}

/** A small text on a chip in a heading (a seat's role, a match's status). */
export const badge = (text, cls = '') => el('span', { class: `badge ${cls}` }, text);
