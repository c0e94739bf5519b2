// The HTTP server's side of a graceful stop. server.close() waits for every connection to end, and a
// client that keeps reconnecting over a kept-alive socket (a stream watcher, a bot) or a socket taken
// over for a live stream that nothing ends would make it wait for good: a stopping process that never
// exits. So, from the first step of the shutdown, every answer says `Connection: close` (the client
// goes elsewhere, to a new connection), idle sockets are closed, and whatever is still open after a
// grace period is destroyed. The adapter also notes every route registered through it, for the 405s
// and the per-route limits (allowed-methods.ts), and routes strictly: one route per path.
import express, { type Express } from 'express';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ExpressAdapter } from '@nestjs/platform-express';
import { SOCKET_TAKEN_OVER } from './sse-socket';
import { ALL, ROUTING, RouteTable } from './allowed-methods';

/** How long a stopping server waits for answers in flight before it cuts the connections left. */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * An Express application that routes by ROUTING. Express reads the two settings once, when it creates
 * its router, which ExpressAdapter's constructor does (its first `use`): so before that, here.
 */
function strictExpress(): Express {
  const app = express();
  app.set('case sensitive routing', ROUTING.caseSensitive);
  app.set('strict routing', ROUTING.strict);
  return app;
}

export class GracefulExpressAdapter extends ExpressAdapter {
  private closing = false;
  /** Every open connection, those taken over for live streams included (Node's own list drops them). */
  private readonly sockets = new Set<Socket>();
  /** Those taken over for live streams: the live hub ends them itself, with their last events. */
  private readonly streams = new WeakSet<Socket>();

  /** Every route registered through this adapter (each one Nest maps, and bootstrap's own): the 405s read it. */
  readonly routes = new RouteTable();

  constructor(private readonly graceMs = SHUTDOWN_GRACE_MS) {
    super(strictExpress());
  }

  // Nest's router registers each route of a controller through one of these: noted, then passed on.
  // (With one argument, `get` reads an Express setting: no route.)
  override get(...args: unknown[]): unknown {
    return this.route('GET', super.get, args);
  }
  override post(...args: unknown[]): unknown {
    return this.route('POST', super.post, args);
  }
  override put(...args: unknown[]): unknown {
    return this.route('PUT', super.put, args);
  }
  override patch(...args: unknown[]): unknown {
    return this.route('PATCH', super.patch, args);
  }
  override delete(...args: unknown[]): unknown {
    return this.route('DELETE', super.delete, args);
  }
  override head(...args: unknown[]): unknown {
    return this.route('HEAD', super.head, args);
  }
  override options(...args: unknown[]): unknown {
    return this.route('OPTIONS', super.options, args);
  }
  override search(...args: unknown[]): unknown {
    return this.route('SEARCH', super.search, args);
  }
  override query(...args: unknown[]): unknown {
    return this.route('QUERY', super.query, args);
  }
  override all(...args: unknown[]): unknown {
    return this.route(ALL, super.all, args);
  }

  private route(method: string, register: (...args: never[]) => unknown, args: unknown[]): unknown {
    if (args.length > 1) this.routes.add(method, args[0]);
    return Reflect.apply(register, this, args);
  }

  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    super.initHttpServer(options);
    const server = this.getHttpServer() as Server;
    // One listener for every socket ('close' comes once): a closure and a once() wrapper per socket
    // cost ~250 bytes for as long as it is open, and a live stream's socket is open for a whole match.
    const sockets = this.sockets;
    function forget(this: Socket): void {
      sockets.delete(this);
    }
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', forget);
    });
    server.on(SOCKET_TAKEN_OVER, (socket: Socket) => {
      this.streams.add(socket);
      socket.on('close', forget);
    });
    // Before Express sees the request: the header makes Node end the socket once the answer is sent.
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (this.closing) res.setHeader('Connection', 'close');
    });
  }

  override beforeClose(): void {
    super.beforeClose();
    this.closing = true;
    // Node keeps a socket's current response in `_httpMessage` (http-terminator relies on it the same
    // way): an answer in flight, its headers not sent yet, closes its connection too; a socket with none
    // is idle and closes now — Node's closeIdleConnections() misses one that has not sent a request yet
    // (a client's spare connection), which held close() until the client's own keep-alive timeout.
    for (const socket of this.sockets) {
      if (this.streams.has(socket)) continue;
      const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (!res) socket.destroy();
      else if (!res.headersSent) res.setHeader('Connection', 'close');
    }
  }

  override close(): Promise<unknown> | undefined {
    if (!this.closing) this.beforeClose();
    const server = this.getHttpServer() as Server | undefined;
    if (!server) return undefined;
    const cut = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of this.sockets) socket.destroy();
    }, this.graceMs);
    cut.unref();
    return new Promise<void>((resolve) => server.close(() => resolve())).finally(() => clearTimeout(cut));
  }

  /** Connections open now (tests). */
  get connectionCount(): number {
    return this.sockets.size;
  }
}
