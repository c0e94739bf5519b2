import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { takeOverSocket } from './sse-socket';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** A server whose every request is taken over, with a header set before (as helmet does). */
async function serve(onSocket: (socket: Socket, req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    onSocket(takeOverSocket(req, res, SSE, 'retry: 2000\n\n'), req, res);
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

describe('takeOverSocket', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    // Taken-over sockets are no longer the server's: they go by hand, or close() would wait for them.
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((done) => server?.close(done));
    server = undefined;
  });

  it('writes the head with the headers already set and Connection: close, then the body unframed', async () => {
    const served = await serve((socket) => {
      socket.write('id: 1\ndata: {}\n\n');
      socket.end();
    });
    server = served.server;
    const text = await exchange(served.port, 'GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^x-content-type-options: nosniff$/m);
    expect(head).toMatch(/^content-type: text\/event-stream; charset=utf-8$/m);
    expect(head).toMatch(/^connection: close$/m);
    expect(Date.parse(/^date: (.+)$/m.exec(head)![1])).toBeGreaterThan(Date.now() - 60_000);
    expect(head).not.toMatch(/transfer-encoding/i);
    // No chunk sizes between the frames: the connection's end is the body's.
    expect(body).toBe('retry: 2000\n\nid: 1\ndata: {}\n\n');
  });

  it('answers HEAD with the head alone and closes', async () => {
    const served = await serve(() => undefined);
    server = served.server;
    const text = await exchange(served.port, 'HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    expect(text).not.toContain('retry:');
  });

  it('lets the request, the response and the parser go while the socket stays open', async () => {
    let refs: { req: WeakRef<IncomingMessage>; res: WeakRef<ServerResponse> } | undefined;
    let open: Socket | undefined;
    const served = await serve((socket, req, res) => {
      refs = { req: new WeakRef(req), res: new WeakRef(res) };
      open = socket;
      sockets.push(socket);
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
    // The stream still works, and notices the client leaving.
    const closed = new Promise((done) => open!.once('close', done));
    open!.write('data: still here\n\n');
    expect(await new Promise((done) => client.once('data', (chunk) => done(chunk.toString())))).toBe('data: still here\n\n');
    client.destroy();
    await closed;
  });
});
