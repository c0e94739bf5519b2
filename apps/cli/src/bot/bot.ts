// A bot for one seat: acts whenever its view says it may, and waits on the match's live event stream
// (Server-Sent Events) in between: no polling.
import { randomUUID } from 'node:crypto';
import { ApiError, createBismarckClient, streamMatchEvents, unwrap, type MatchEvent, type SeatView } from '@bismarck/client';
import { chooseAction, dealHistory, requestOf, type MoveRequest, type StrategyName } from '@bismarck/bots';

export interface BotOptions {
  readonly url: string;
  readonly match: string;
  readonly token: string;
  readonly strategy?: StrategyName;
  readonly log?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** `strong` only: milliseconds per decision (libs/bots' default when absent). */
  readonly budgetMs?: number;
}

export interface BotResult {
  readonly seat: number;
  readonly actions: number;
  readonly view: SeatView;
}

/** Plays the seat of `token` until the match is finished. */
export async function runBot(options: BotOptions): Promise<BotResult> {
  const api = createBismarckClient(options.url, { token: options.token });
  const strategy = options.strategy ?? 'greedy';
  const log = options.log ?? (() => undefined);
  const path = { id: options.match };
  let actions = 0;

  const view = async (): Promise<SeatView> => unwrap(await api.GET('/api/matches/{id}/view', { params: { path } }));

  // The events this seat may see (others' cards null), oldest first, from the start of the deal in
  // progress: the strong bot reads the cards played and the voids shown in them (dealHistory).
  let seen: MatchEvent[] = [];
  let seenVersion = 0;
  const remember = (event: MatchEvent): void => {
    if (event.version <= seenVersion) return;
    seenVersion = event.version;
    seen = event.type === 'DealStarted' ? [event] : [...seen, event];
  };
  /** Reads the events up to `version` that the stream has not brought yet. */
  const catchUp = async (version: number): Promise<void> => {
    while (seenVersion < version) {
      const page = unwrap(await api.GET('/api/matches/{id}/events', { params: { path, query: { after: seenVersion } } }));
      page.events.forEach(remember);
      if (page.events.length === 0 || page.next === null) break;
    }
  };

  /** Acts for as long as it is this seat's turn; returns the newest view. */
  const actWhileMyTurn = async (): Promise<SeatView> => {
    for (;;) {
      const current = await view();
      if (strategy === 'strong' && current.legal) await catchUp(current.version);
      const action = requestOf(chooseAction(current, strategy, { history: dealHistory(seen), budgetMs: options.budgetMs }));
      if (!action) return current;
      try {
        await send(action, current.version);
        actions++;
        log(`seat ${current.seat}: ${describe(action)}`);
      } catch (err) {
        // Someone else moved first (412) or the state changed under us (409): look again.
        if (err instanceof ApiError && (err.status === 412 || err.status === 409)) continue;
        throw err;
      }
    }
  };

  const send = async (action: MoveRequest, version: number): Promise<void> => {
    const params = { path, header: { 'If-Match': `"${version}"`, 'Idempotency-Key': randomUUID() } };
    switch (action.route) {
      case 'deal':
        return void unwrap(await api.POST('/api/matches/{id}/deal', { params }));
      case 'cut':
        return void unwrap(await api.POST('/api/matches/{id}/cut', { params, body: action.body }));
      case 'contract':
        return void unwrap(await api.POST('/api/matches/{id}/contract', { params, body: action.body }));
      case 'discard':
        return void unwrap(await api.POST('/api/matches/{id}/discard', { params, body: action.body }));
      case 'play':
        return void unwrap(await api.POST('/api/matches/{id}/play', { params, body: action.body }));
    }
  };

  let latest = await actWhileMyTurn();
  if (latest.status !== 'finished') {
    // The stream resumes after `latest.version`: read what comes before it, so that no event is missed.
    if (strategy === 'strong') await catchUp(latest.version);
    for await (const event of streamMatchEvents(options.url, options.match, { token: options.token, after: latest.version, signal: options.signal })) {
      remember(event);
      if (event.type === 'MatchFinished') break;
      latest = await actWhileMyTurn();
    }
    latest = await view();
  }
  return { seat: latest.seat, actions, view: latest };
}

function describe(action: MoveRequest): string {
  switch (action.route) {
    case 'deal':
      return 'deals';
    case 'cut':
      return 'cuts';
    case 'contract':
      return `announces ${action.body.contract}${action.body.trump ? ` ${action.body.trump}` : ''}`;
    case 'discard':
      return `lays away ${action.body.cards.length} cards`;
    case 'play':
      return `plays ${action.body.card}`;
  }
}
