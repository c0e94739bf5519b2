import type { Card, PlayedCard, Triple } from '@bismarck/rules';
import { CONTRACT, NAT, next, parseContract, SEAT, seatOf, STRING, unword, WORD } from './format';
import { CARD, CARD_LIST, re, SEAT_LIST, splitWords, TRIPLE, triple, type Rule } from './parser';

/** One rule per kind of body line; an unknown line's error lists their keys in this order. */
export const BODY: Rule[] = [
  {
    key: 'Joined',
    form: 'Joined s: "name" [bot "strategy"] [player "id"]',
    pattern: re(`Joined ${SEAT}: ${STRING}(?: bot ${STRING})?(?: player ${STRING})?`),
    apply: (m, _l, p) =>
      p.push({
        type: 'SeatJoined',
        data: {
          seat: seatOf(m[1]),
          name: JSON.parse(m[2]) as string,
          ...(m[3] === undefined ? {} : { bot: JSON.parse(m[3]) as string }),
          ...(m[4] === undefined ? {} : { account: JSON.parse(m[4]) as string }),
        },
      }),
  },
  {
    key: 'Abandoned',
    form: 'Abandoned: open s …',
    pattern: re(`Abandoned: open${SEAT_LIST}`),
    apply: (m, _l, p) => p.push({ type: 'TableAbandoned', data: { openSeats: splitWords(m[1]).map(seatOf) } }),
  },
  {
    key: 'Commit',
    form: 'Commit n: commitment',
    pattern: re(`Commit ${NAT}: ${WORD}`),
    apply: (m, _l, p) => p.push({ type: 'DeckCommitted', data: { deal: Number(m[1]), commitment: unword(m[2]) } }),
  },
  {
    key: 'Cut',
    form: 'Cut n: seat s "cut"',
    pattern: re(`Cut ${NAT}: seat ${SEAT} ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'DeckCut', data: { deal: Number(m[1]), seat: seatOf(m[2]), cut: JSON.parse(m[3]) as string } }),
  },
  {
    key: 'Reveal',
    form: 'Reveal n: commitment seed',
    pattern: re(`Reveal ${NAT}: ${WORD} ${WORD}`),
    apply: (m, _l, p) => p.push({ type: 'SeedRevealed', data: { deal: Number(m[1]), commitment: unword(m[2]), seed: unword(m[3]) } }),
  },
  {
    key: 'Deal',
    form: 'Deal n: dealer d, forehand f',
    pattern: re(`Deal ${NAT}: dealer ${SEAT}, forehand ${SEAT}`),
    apply: (m, _l, p) => {
      p.deal = { number: Number(m[1]), forehand: seatOf(m[3]), contract: null };
      p.push({
        type: 'DealStarted',
        data: { deal: Number(m[1]), dealer: seatOf(m[2]), forehand: seatOf(m[3]), deck: null, tableCards: [], contract: null, trump: null },
      });
    },
  },
  {
    key: 'Shuffle',
    form: 'Shuffle: {a JSON object}',
    pattern: re('Shuffle: (\\{[^]*\\})'),
    apply: (m, l, p) => {
      let value: unknown;
      try {
        value = JSON.parse(m[1]);
      } catch {
        return p.fail(l, 'Shuffle: expected one JSON object');
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return p.fail(l, 'Shuffle: expected one JSON object');
      p.started().data.shuffle = value as Record<string, unknown>;
    },
  },
  {
    key: 'Deck',
    form: 'Deck: 52 cards, or ??',
    pattern: re(`Deck: ${CARD_LIST}`),
    apply: (m, l, p) => {
      p.started().data.deck = p.cards(l, m[1], 52, 'Deck');
    },
  },
  {
    key: 'Table',
    form: 'Table: 4 cards',
    pattern: re(`Table: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const table = p.cards(l, m[1], 4, 'Table');
      if (table === null) return p.fail(l, 'Table: the table cards are public, never ??');
      p.started().data.tableCards = table;
    },
  },
  {
    key: 'Contract',
    form: 'Contract: spades | trump X | notrump | pass',
    pattern: re(`Contract: ${CONTRACT}`),
    apply: (m, _l, p) => {
      const c = parseContract(m[1]);
      p.started().data.contract = c.contract;
      p.started().data.trump = c.trump;
      p.deal!.contract = c;
    },
  },
  {
    key: 'Chosen',
    form: 'Chosen by s: spades | trump X | notrump | pass',
    pattern: re(`Chosen by ${SEAT}: ${CONTRACT}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Chosen by"');
      const c = parseContract(m[2]);
      deal.contract = c;
      p.push({ type: 'ContractChosen', data: { deal: deal.number, seat: seatOf(m[1]), contract: c.contract, trump: c.trump } });
    },
  },
  {
    key: 'Hand',
    form: 'Hand s: 16 cards, or ??',
    pattern: re(`Hand ${SEAT}: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Hand"');
      const seat = Number(m[1]);
      const expected = p.hands === null ? 0 : p.hands.length;
      if (seat !== expected) p.fail(l, `expected "Hand ${expected}: …": the three hands come together, seats 0, 1, 2`);
      if (seat === 0) p.handsLine = l.number;
      p.hands = [...(p.hands ?? []), p.cards(l, m[2], 16, `Hand ${seat}`)];
      if (p.hands.length < 3) return;
      p.push({ type: 'HandsDealt', data: { deal: deal.number, hands: p.hands as Triple<Card[] | null> } });
      p.hands = null;
    },
  },
  {
    key: 'Laid',
    form: 'Laid away by s: 4 cards, or ??',
    pattern: re(`Laid away by ${SEAT}: ${CARD_LIST}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Laid away"');
      p.push({ type: 'CardsLaidAway', data: { deal: deal.number, seat: seatOf(m[1]), cards: p.cards(l, m[2], 4, 'Laid away') } });
    },
  },
  {
    key: 'Voided',
    form: 'Voided: seat s led card (leadBeforeDiscard)',
    pattern: re(`Voided: seat ${SEAT} led (${CARD}) \\((leadBeforeDiscard)\\)`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Voided"');
      p.push({ type: 'DealVoided', data: { deal: deal.number, seat: seatOf(m[1]), card: m[2], reason: 'leadBeforeDiscard' } });
    },
  },
  {
    key: 'trick',
    form: 'n. leader: card card card -> winner',
    pattern: re(`${NAT}\\. ${SEAT}: (${CARD}(?: ${CARD}){0,2})(?: -> ${SEAT})?`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, 'A trick');
      const trick = Number(m[1]);
      if (trick > 16) p.fail(l, `a deal has 16 tricks, not ${trick}`);
      const list = p.cards(l, m[3], null, `trick ${trick}`)!;
      // The same trick again: it goes on after a clock's line fell in its middle.
      const open = p.trick !== null && p.trick.deal === deal.number && p.trick.trick === trick && p.trick.cards.length < 3 ? p.trick.cards : [];
      const leader = seatOf(m[2]);
      if (open.length > 0 && leader !== next(open[open.length - 1].seat)) p.fail(l, `trick ${trick} goes on with seat ${next(open[open.length - 1].seat)}, not ${leader}`);
      const played: PlayedCard[] = [...open, ...list.map((card, k) => ({ seat: next(leader, k), card }))];
      if (played.length > 3) p.fail(l, `trick ${trick} has 3 cards, not ${played.length}`);
      for (const { seat, card } of played.slice(open.length)) p.push({ type: 'CardPlayed', data: { deal: deal.number, trick, seat, card } });
      p.trick = { deal: deal.number, trick, cards: played };
      if (m[4] === undefined) return;
      if (played.length !== 3) p.fail(l, `trick ${trick} is taken with 3 cards, not ${played.length}`);
      p.trick = null;
      p.push({ type: 'TrickTaken', data: { deal: deal.number, trick, winner: seatOf(m[4]), cards: played } });
    },
  },
  {
    key: 'Score',
    form: 'Score: tricks a b c; quotas a b c; points a b c; totals a b c',
    pattern: re(`Score: tricks ${TRIPLE}; quotas ${TRIPLE}; points ${TRIPLE}; totals ${TRIPLE}`),
    apply: (m, l, p) => {
      const deal = p.inDeal(l, '"Score"');
      const contract = deal.contract ?? p.fail(l, 'a deal is scored once its contract is known: expected a "Contract:" or "Chosen by" line before');
      p.push({
        type: 'DealScored',
        data: {
          deal: deal.number,
          forehand: deal.forehand,
          contract: contract.contract,
          trump: contract.trump,
          tricks: triple(m, 1),
          quotas: triple(m, 4),
          points: triple(m, 7),
          totals: triple(m, 10),
        },
      });
    },
  },
  {
    key: 'Result',
    form: 'Result: totals a b c; winners s …',
    pattern: re(`Result: totals ${TRIPLE}; winners${SEAT_LIST}`),
    apply: (m, _l, p) => p.push({ type: 'MatchFinished', data: { totals: triple(m, 1), winners: splitWords(m[4]).map(seatOf) } }),
  },
  {
    key: 'Timed',
    form: 'Timed out: seat s, deadline "time"',
    pattern: re(`Timed out: seat ${SEAT}, deadline ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'TurnTimedOut', data: { seat: seatOf(m[1]), deadline: JSON.parse(m[2]) as string } }),
  },
  {
    key: 'Back',
    form: 'Back: seat s',
    pattern: re(`Back: seat ${SEAT}`),
    apply: (m, _l, p) => p.push({ type: 'SeatReturned', data: { seat: seatOf(m[1]) } }),
  },
  {
    key: 'Rematch',
    form: 'Rematch by s: "match id"',
    pattern: re(`Rematch by ${SEAT}: ${STRING}`),
    apply: (m, _l, p) => p.push({ type: 'RematchOffered', data: { matchId: JSON.parse(m[2]) as string, seat: seatOf(m[1]) } }),
  },
];
