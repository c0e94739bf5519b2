// The seat's live stream, read with fetch so that the seat's token goes in a header (an EventSource
// cannot send one, and a token never goes into an address): while it is open, the service shows the
// seat as connected to everyone (`connected`, `event: presence`). Each message is handed on by its SSE
// event type; a stream that fails or ends without `event: end` is reported once, as an error.
import { language } from '../../pages/assets/i18n.js';

/**
 * @param {string} url the stream's address (with `?after=`)
 * @param {string} token the seat's token
 * @param {{ message(data: string): void, presence(connected: boolean[]): void, end(): void, error(): void }} on
 * @returns {{ close(): void }}
 */
export function openLive(url, token, on) {
  const controller = new AbortController();
  let done = false;
  /** @param {() => void} handler */
  const finish = (handler) => {
    if (done) return;
    done = true;
    controller.abort();
    handler();
  };
  /** @param {string} event @param {string} data */
  const dispatch = (event, data) => {
    if (event === 'end') return finish(on.end);
    if (event === 'error') return finish(on.error);
    if (event === 'presence') {
      const connected = parsed(data)?.connected;
      if (Array.isArray(connected)) on.presence(connected);
    } else if (event === 'message') on.message(data);
  };
  void (async () => {
    const res = await fetch(url, { headers: { Accept: 'text/event-stream', 'Accept-Language': language(), Authorization: `Bearer ${token}` }, cache: 'no-store', signal: controller.signal });
    if (res.status !== 200 || !res.body) return finish(on.error);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let event = '';
    /** @type {string[]} */
    let data = [];
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return finish(on.error);
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0 && !done) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) dispatch(event || 'message', data.join('\n'));
          event = '';
          data = [];
        } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('event:')) event = line.slice(6).trim();
      }
      if (done) return;
    }
  })().catch(() => finish(on.error));
  return { close: () => { done = true; controller.abort(); } };
}

/** @param {string} data @returns {{ connected?: unknown } | null} */
const parsed = (data) => {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
};
