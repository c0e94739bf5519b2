import { parseSse } from './sse';
import type { components } from './schema';

/**
 * One event of a match's log, as the caller may see it (`GET …/events` and the live stream). `type`
 * tells which `data` it carries: switch on it and `data` is narrowed (docs/clients.md, "Event catalogue").
 */
export type MatchEvent = components['schemas']['EventDto'];

/** The event of one type, e.g. `MatchEventOf<'TrickTaken'>['data']['winner']`. */
export type MatchEventOf<T extends MatchEvent['type']> = Extract<MatchEvent, { type: T }>;

export interface StreamOptions {
  /** A seat token: see that seat's own cards. Without one the stream is a spectator's. */
  readonly token?: string;
  /** Resume after this version (0: from the start). */
  readonly after?: number;
  readonly signal?: AbortSignal;
  /** Reconnect after a dropped connection, resuming after the last version seen (default true). */
  readonly reconnect?: boolean;
  /** Wait before reconnecting (default 500 ms; after a 429 or 503, the answer's `Retry-After` when it is longer). */
  readonly retryMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * The events of a match, live: those after `after`, then each new one as it is appended, in version
 * order with no gap and no duplicate. Ends when the server ends the stream: after RematchOffered, or
 * after MatchFinished once the rematch window (the server's REMATCH_WINDOW_MS) closes without one, or
 * after TableAbandoned for a lobby table closed unfilled (or when `signal` aborts). To stop at the end
 * of play, break on MatchFinished.
 */
export async function* streamMatchEvents(baseUrl: string, matchId: string, options: StreamOptions = {}): AsyncGenerator<MatchEvent> {
  const doFetch = options.fetch ?? fetch;
  let last = options.after ?? 0;
  for (;;) {
    const headers: Record<string, string> = { accept: 'text/event-stream', 'last-event-id': String(last) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let ended = false;
    let waitMs = options.retryMs ?? 500;
    try {
      const res = await doFetch(`${baseUrl.replace(/\/$/, '')}/api/matches/${encodeURIComponent(matchId)}/events/stream`, {
        headers,
        signal: options.signal,
      });
      if (res.status === 204) return;
      if (!res.ok || !res.body) {
        const problem = await res.text().catch(() => '');
        throw new StreamError(res.status, problem, retryAfterMs(res.headers.get('retry-after')));
      }
      for await (const message of parseSse(res.body)) {
        if (message.event === 'end') {
          ended = true;
          break;
        }
        if (message.event !== 'message') continue;
        const event = JSON.parse(message.data) as MatchEvent;
        if (event.version <= last) continue;
        last = event.version;
        yield event;
      }
    } catch (err) {
      if (err instanceof StreamError && err.status < 500 && err.status !== 429) throw err;
      if (options.signal?.aborted || options.reconnect === false) throw err;
      // Too many streams, rate limited, the database away: not before the server says.
      if (err instanceof StreamError && err.retryAfterMs !== undefined) waitMs = Math.max(waitMs, err.retryAfterMs);
    }
    if (ended) return;
    if (options.signal?.aborted || options.reconnect === false) return;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** `Retry-After` in seconds (the service sends no date form), as milliseconds; at most a minute. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Math.min(Number(header), 60) * 1000;
}

export class StreamError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The answer's `Retry-After`, in milliseconds (429, 503). */
    readonly retryAfterMs?: number,
  ) {
    super(`event stream answered ${status}: ${body.slice(0, 200)}`);
  }
}
