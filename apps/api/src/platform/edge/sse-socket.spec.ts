import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { canTakeOver, openEventStream, type StreamSink } from './sse-socket';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** Node's internals changed: the parser has no `remove` when the stream opens (the public path then). */
function withoutParserRemove<T>(res: ServerResponse, open: () => T): T {
  const parser = (res.socket as Socket & { parser: { remove?: unknown } }).parser;
  parser.remove = undefined;
  try {
    return open();
  } finally {
    delete parser.remove; // the prototype's again, for Node's own freeParser when the socket closes
  }
}

type Mode = 'taken over' | 'public';

/** A server whose every request opens a stream, with a header set before (as helmet does). */
async function serve(mode: Mode, onStream: (sink: StreamSink, req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    const open = (): StreamSink | undefined => openEventStream(req, res, SSE, 'retry: 2000\n\n');
    const sink = mode === 'public' ? withoutParserRemove(res, open) : open();
    expect(sink).toBeInstanceOf(mode === 'public' ? (res.constructor as typeof ServerResponse) : Socket);
    onStream(sink!, req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as { port: number }).port };
}

/** Sends a raw request and resolves with everything received once the server closes the connection. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((done, fail) => {
    let text = '';
    const client = connect(port, '127.0.0.1', () => client.write(request));
    client.on('data', (chunk) => (text += chunk.toString()));
    client.on('error', fail);
    client.on('close', () => done(text));
  });
}

describe('openEventStream', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    // Taken-over sockets are no longer the server's: they go by hand, or close() would wait for them.
    for (const socket of sockets.splice(0)) socket.destroy();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
    server = undefined;
  });

  it('takes the socket over on this Node (its internals are the ones the take-over relies on)', async () => {
    let supported: boolean | undefined;
    const bare = createServer((req, res) => {
      supported = canTakeOver(res);
      res.end();
    });
    server = bare;
    await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
    await exchange((bare.address() as { port: number }).port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(supported).toBe(true);
  });

  for (const mode of ['taken over', 'public'] as const) {
    describe(mode, () => {
      it('writes the head with the headers already set and Connection: close, then the body unframed', async () => {
        const served = await serve(mode, (sink) => {
          sink.write('id: 1\ndata: {}\n\n');
          sink.end();
        });
        server = served.server;
        const text = await exchange(served.port, 'GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
        const [head, body] = text.split('\r\n\r\n');
        expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
        expect(head).toMatch(/^x-content-type-options: nosniff$/im);
        expect(head).toMatch(/^content-type: text\/event-stream; charset=utf-8$/im);
        expect(head).toMatch(/^connection: close$/im);
        expect(Date.parse(/^date: (.+)$/im.exec(head)![1])).toBeGreaterThan(Date.now() - 60_000);
        expect(head).not.toMatch(/transfer-encoding|content-length/i);
        // No chunk sizes between the frames: the connection's end is the body's.
        expect(body).toBe('retry: 2000\n\nid: 1\ndata: {}\n\n');
      });

      it('closes the connection once the stream ends, without waiting for the client (a half-open socket)', async () => {
        const served = await serve(mode, (sink) => setImmediate(() => sink.end('event: end\n\n')));
        server = served.server;
        const client = connect(served.port, '127.0.0.1', () => client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n'));
        sockets.push(client);
        let text = '';
        client.on('data', (chunk) => (text += chunk.toString()));
        // The client never ends its side: the server's end of the body must still close the connection.
        await new Promise((done) => client.once('end', done));
        expect(text.endsWith('retry: 2000\n\nevent: end\n\n')).toBe(true);
      });

      it('answers HEAD with the head alone and closes', async () => {
        const served = await serve(mode, () => undefined);
        server = served.server;
        const text = await exchange(served.port, 'HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n');
        expect(text.endsWith('\r\n\r\n')).toBe(true);
        expect(text).not.toContain('retry:');
      });

      it('keeps writing, and notices the client leaving', async () => {
        let open: StreamSink | undefined;
        const served = await serve(mode, (sink) => {
          open = sink;
          if (sink instanceof Socket) sockets.push(sink);
        });
        server = served.server;
        const client = connect(served.port, '127.0.0.1', () => client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n'));
        sockets.push(client);
        expect(await new Promise<string>((done) => client.once('data', (chunk) => done(chunk.toString())))).toContain('retry: 2000');
        const closed = new Promise((done) => open!.on('close', done));
        open!.write('data: still here\n\n');
        expect(await new Promise((done) => client.once('data', (chunk) => done(chunk.toString())))).toBe('data: still here\n\n');
        client.destroy();
        await closed;
      });
    });
  }

  it('taken over: lets the request, the response and the parser go while the socket stays open', async () => {
    let refs: { req: WeakRef<IncomingMessage>; res: WeakRef<ServerResponse> } | undefined;
    let open: StreamSink | undefined;
    const served = await serve('taken over', (sink, req, res) => {
      refs = { req: new WeakRef(req), res: new WeakRef(res) };
      open = sink;
      sockets.push(sink as Socket);
    });
    server = served.server;
    const client = connect(served.port, '127.0.0.1', () => client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n'));
    sockets.push(client);
    const head = await new Promise<string>((done) => client.once('data', (chunk) => done(chunk.toString())));
    expect(head).toContain('retry: 2000');
    await turn(); // the parser is closed on the next turn
    await turn();
    gc();
    expect(refs!.req.deref()).toBeUndefined();
    expect(refs!.res.deref()).toBeUndefined();
    // No longer on the server's list of connections (a parser freed while still on it crashed
    // the process here): closing the idle ones passes it by.
    served.server.closeIdleConnections();
    const closed = new Promise((done) => open!.on('close', done));
    open!.write('data: still here\n\n');
    expect(await new Promise((done) => client.once('data', (chunk) => done(chunk.toString())))).toBe('data: still here\n\n');
    client.destroy();
    await closed;
  });

  it('opens nothing when the client has already gone', async () => {
    let opened: StreamSink | undefined | 'not yet' = 'not yet';
    const bare = createServer((req, res) => {
      req.socket.destroy();
      setImmediate(() => (opened = openEventStream(req, res, SSE, 'retry: 2000\n\n')));
    });
    server = bare;
    await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
    await exchange((bare.address() as { port: number }).port, 'GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 50 && opened === 'not yet'; i++) await new Promise((done) => setTimeout(done, 10));
    expect(opened).toBeUndefined();
  });
});
