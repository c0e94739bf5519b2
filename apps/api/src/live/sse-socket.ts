import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's HTTP server hangs on a socket it reads requests from (lib/_http_server.js). */
interface ServedSocket extends Socket {
  parser?: { _consumed?: boolean; onIncoming: unknown; unconsume(): void; remove(): void; close(): void } | null;
}

/** The server's own listeners on a connection's socket; the HTTP layer's listeners go with them. */
const SERVER_EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'pause', 'resume'] as const;

/**
 * Emitted by the HTTP server with the socket once it is taken over: its old listeners are gone (those
 * of whoever tracks the server's connections too), so a tracker listens again (edge/http-adapter.ts).
 */
export const SOCKET_TAKEN_OVER = 'bismarck:socketTakenOver';

/**
 * Answers an event-stream request by writing the response head to the socket itself, then takes the
 * socket out of Node's HTTP server, as the server does for an `Upgrade`: its parser, the request and
 * the response (with their headers, Express's and the logger's per-request objects) are freed, and a
 * stream that stays open for a whole match holds a bare socket (3–4 kB instead of ~20 kB).
 *
 * The head carries every header set on `res` so far (security headers, CORS, the request id) and
 * `Connection: close`: the body ends when the socket does, so no chunked framing per write.
 * Returns the socket, already reading (to notice a client that leaves) and with an error listener.
 */
export function takeOverSocket(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, body: string): Socket {
  const socket = res.socket as ServedSocket | null;
  if (!socket || socket.destroyed) throw new Error('the client has gone');
  // Date as Node would send it (RFC 9110: an origin server with a clock sends one on every 2xx).
  const head = { date: new Date().toUTCString(), ...res.getHeaders(), ...headers, connection: 'close' };
  const lines = Object.entries(head).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${String(one)}\r\n`),
  );
  const bodyToo = req.method === 'HEAD' ? '' : body;
  socket.write(`HTTP/1.1 200 OK\r\n${lines.join('')}\r\n${bodyToo}`);

  res.detachSocket(socket);
  for (const event of SERVER_EVENTS) socket.removeAllListeners(event);
  if (socket.parser) freeParser(socket);
  socket.on('error', destroy);
  // A request needs no more reading; whatever else the client sends is dropped, its FIN ends the stream.
  socket.on('data', ignore);
  socket.on('end', destroy);
  // Once the stream's end is written the socket goes too, without waiting for the client's FIN
  // (http sockets are half-open by default, and a server closing would wait for it).
  socket.on('finish', destroy);
  (socket as Socket & { server?: EventEmitter }).server?.emit(SOCKET_TAKEN_OVER, socket);
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

function closeParser(parser: NonNullable<ServedSocket['parser']>): void {
  if (parser._consumed) parser.unconsume();
  parser._consumed = false;
  parser.remove(); // from the server's list of connections its timeouts and close() walk
  parser.close();
}
