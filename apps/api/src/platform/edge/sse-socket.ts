// The writer of a live stream (SSE). Issue 34 asks for Node's public API unless a measured benchmark
// says otherwise. It does: the stream leaves Node's HTTP server through Node's private fields (the
// socket's `parser`, `unconsume`, the parser's `remove`/`close`), as the server does for an Upgrade,
// behind a feature check (canTakeOver) that falls back to the public API (answerOnResponse: the
// ServerResponse kept, res.writeHead/write/end, no private field) if those internals change.
//
// `npm run bench:live` on PostgreSQL, 15,000 streams over 1,000 matches, 500 commands/s, Node 20.20,
// 2 cores shared with other sessions (docs/performance.md, "Node's public API for the stream"):
//   kB per stream (bench's measure, no collection): public 23.8, 24.1; taken over 8.8, 10.9, 9.6
//   heap in use with the streams idle:              public 377, 256 MB; taken over 176, 135, 179 MB
//   RSS under load (issue 17's target: 450 MB):     public 539, 769 MB; taken over 376, 392, 435 MB
//   with a full collection every 3 s (live memory): public 17.7 kB a stream, heap 255 MB;
//                                                   taken over 3.6 kB a stream, heap 75 MB
// Both delivered every event; latency and CPU per event within the noise of a shared machine. The
// public path costs 2.5–5× the memory per stream and the RSS target, so the private path stays.
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's HTTP server hangs on a socket it reads requests from (lib/_http_server.js, Node 18–22). */
interface HttpParser {
  _consumed?: boolean;
  onIncoming: unknown;
  unconsume(): void;
  remove(): void;
  close(): void;
}
interface ServedSocket extends Socket {
  parser?: HttpParser | null;
  server?: EventEmitter;
}

/** The server's own listeners on a connection's socket; the HTTP layer's listeners go with them. */
const SERVER_EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'pause', 'resume'] as const;

/** Where a stream's frames go: its socket taken out of the HTTP server, or else its response (below). */
export type StreamSink = Pick<NodeJS.WritableStream, 'write' | 'end' | 'on' | 'off'> & {
  readonly writableLength: number;
  readonly writableEnded: boolean;
  destroy(): void;
};

/**
 * Emitted by the HTTP server with the socket once it is taken over: its old listeners are gone (those
 * of whoever tracks the server's connections too), so a tracker listens again (edge/http-adapter.ts).
 */
export const SOCKET_TAKEN_OVER = 'bismarck:socketTakenOver';

/**
 * Answers an event-stream request: status 200, every header set on `res` so far (security headers,
 * CORS, the request id) with `headers` and `Connection: close`, then `body` (the `retry:` line). The
 * body ends when the connection does: no chunked framing around each write. Returns where the stream
 * writes: the bare socket when it could be taken out of the HTTP server, else the response; undefined
 * when the client has gone. A HEAD request gets the head alone and the connection closes.
 */
export function openEventStream(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, body: string): StreamSink | undefined {
  if (res.headersSent || !res.socket || res.socket.destroyed) return undefined;
  return canTakeOver(res) ? takeOverSocket(req, res, headers, body) : answerOnResponse(req, res, headers, body);
}

/**
 * Whether Node's internals are still the ones takeOverSocket relies on: the socket's parser with the
 * methods the server's own Upgrade path calls, the server's data listener, and the response's
 * detachSocket. A Node that changes them gets the public path, and the test of this check fails.
 */
export function canTakeOver(res: ServerResponse): boolean {
  const socket = res.socket as ServedSocket | null;
  const parser = socket?.parser;
  return (
    !!socket &&
    typeof parser === 'object' &&
    parser !== null &&
    typeof parser.unconsume === 'function' &&
    typeof parser.remove === 'function' &&
    typeof parser.close === 'function' &&
    'onIncoming' in parser &&
    typeof res.detachSocket === 'function' &&
    typeof socket.server?.emit === 'function' &&
    socket.listenerCount('data') > 0
  );
}

/**
 * The public path: the response stays the stream's sink. Content-Length and Transfer-Encoding are
 * removed, so Node frames nothing and, with `Connection: close`, destroys the socket once the end is
 * written (without waiting for the client's FIN). The response, the request and the parser stay alive
 * as long as the stream (~18 kB a stream of live memory instead of ~4, measured above).
 */
export function answerOnResponse(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, body: string): ServerResponse {
  res.removeHeader('content-length');
  res.removeHeader('transfer-encoding');
  res.writeHead(200, { ...headers, connection: 'close' });
  if (req.method === 'HEAD') res.end();
  else res.write(body);
  return res;
}

/**
 * Writes the response head to the socket itself, then takes the socket out of Node's HTTP server, as
 * the server does for an `Upgrade`: its parser, the request and the response (with their headers,
 * Express's and the logger's per-request objects) are freed, and a stream that stays open for a whole
 * match holds a bare socket. Returns the socket, already reading (to notice a client that leaves) and
 * with an error listener. Call it only when canTakeOver(res).
 */
export function takeOverSocket(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, body: string): Socket {
  const socket = res.socket as ServedSocket;
  // Date as Node would send it (RFC 9110: an origin server with a clock sends one on every 2xx).
  const head = { date: new Date().toUTCString(), ...res.getHeaders(), ...headers, connection: 'close' };
  const lines = Object.entries(head).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${String(one)}\r\n`),
  );
  const bodyToo = req.method === 'HEAD' ? '' : body;
  socket.write(`HTTP/1.1 200 OK\r\n${lines.join('')}\r\n${bodyToo}`);

  res.detachSocket(socket);
  for (const event of SERVER_EVENTS) socket.removeAllListeners(event);
  freeParser(socket);
  socket.on('error', destroy);
  // A request needs no more reading; whatever else the client sends is dropped, its FIN ends the stream.
  socket.on('data', ignore);
  socket.on('end', destroy);
  // Once the stream's end is written the socket goes too, without waiting for the client's FIN
  // (http sockets are half-open by default, and a server closing would wait for it).
  socket.on('finish', destroy);
  socket.server?.emit(SOCKET_TAKEN_OVER, socket);
  if (req.method === 'HEAD') socket.end();
  return socket;
}

// Listeners at module level: a closure made inside takeOverSocket would keep its whole scope (the
// parser, hence the request and the response) alive for as long as the socket lives.
function destroy(this: Socket): void {
  this.destroy();
}

function ignore(): void {}

function freeParser(socket: ServedSocket): void {
  const parser = socket.parser!;
  socket.parser = null;
  parser.onIncoming = ignore; // a request pipelined after this one is dropped
  // On the next turn: this may run inside the parser's own call (with the match cached, the
  // microtasks of its callback), which would put it back on the server's list of connections as it
  // finishes the request, and freeing it under itself crashes the process. Node waits the same way.
  setImmediate(closeParser, parser);
}

function closeParser(parser: HttpParser): void {
  if (parser._consumed) parser.unconsume();
  parser._consumed = false;
  parser.remove(); // from the server's list of connections its timeouts and close() walk
  parser.close();
}
