import type { BismarckEvent, Command } from './types';

/**
 * The command a recorded move of a deal answers (a cut, a contract, a lay-away, a card), or null for
 * any other event. The audit re-decides these from the log and a fork replays them.
 */
export const recordedMove = (e: BismarckEvent): Command | null => {
  switch (e.type) {
    case 'DeckCut':
      return { type: 'cut', seat: e.data.seat, cut: e.data.cut };
    case 'ContractChosen':
      // The event names the trump of every contract (spades: S); the command names it only for `trump`.
      return { type: 'chooseContract', seat: e.data.seat, contract: e.data.contract, trump: e.data.contract === 'trump' ? e.data.trump : null };
    case 'CardsLaidAway':
      return { type: 'discard', seat: e.data.seat, cards: e.data.cards ?? [] };
    case 'CardPlayed':
    case 'DealVoided':
      return { type: 'playCard', seat: e.data.seat, card: e.data.card };
    default:
      return null;
  }
};
