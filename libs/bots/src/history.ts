// What a seat has seen of the deal in progress beyond its view, read from the events it may see
// (the public events and its own; redacted fields are simply not used).

/** Public facts of the deal in progress, in order. */
export interface DealHistory {
  /** The deal's number (1-based), 0 before the first deal. */
  readonly deal: number;
  /** The four table cards as they were shown face up when the deal started. */
  readonly tableCards: readonly string[];
  /** Every card played in this deal so far, in play order. */
  readonly plays: readonly { seat: number; card: string }[];
}

/** The smallest shape of an event this reads: the rules' events and a client's fit it. */
export interface SeenEvent {
  readonly type: string;
  readonly data?: unknown;
}

/** The history of the latest deal started in `events` (events in log order). */
export function dealHistory(events: readonly SeenEvent[]): DealHistory {
  let history: { deal: number; tableCards: string[]; plays: { seat: number; card: string }[] } = { deal: 0, tableCards: [], plays: [] };
  for (const event of events) {
    switch (event.type) {
      case 'DealStarted': {
        const data = event.data as { deal: number; tableCards: string[] };
        history = { deal: data.deal, tableCards: [...data.tableCards], plays: [] };
        break;
      }
      case 'CardPlayed': {
        const data = event.data as { deal: number; seat: number; card: string };
        if (data.deal === history.deal) history.plays.push({ seat: data.seat, card: data.card });
        break;
      }
    }
  }
  return history;
}
