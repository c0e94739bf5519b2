// Requests Node's HTTP parser refuses before Express sees them (a malformed chunk, two Content-Lengths,
// Content-Length with Transfer-Encoding, an unknown method, headers over the limit, a request not in
// by REQUEST_TIMEOUT_MS), and an `Expect` other than 100-continue: Node's default answer is a bare
// status line. They get a problem+json body with a stable code like every other refusal; after a
// parser error the connection is closed, as Node does.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { problemBody, type ProblemCode } from '../problem/problem';

/** What each refusal of the parser tells the client. */
export const CLIENT_ERROR_DETAILS = {
  MALFORMED_HTTP: 'The request is not a well-formed HTTP/1.1 message (its framing, method or headers); the connection is closed.',
  HEADERS_TOO_LARGE: 'The request headers are larger than this server reads (16 kB in all); the connection is closed.',
  REQUEST_TIMEOUT: 'The request did not arrive in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed.',
  PAYLOAD_TOO_LARGE: 'The chunk extensions of the request body are too large; the connection is closed.',
  EXPECTATION_FAILED: 'The only Expect this server meets is 100-continue.',
} as const satisfies Partial<Record<ProblemCode, string>>;

/** The problem an error of Node's parser stands for (its codes as Node's own handler, `socketOnError`, reads them). */
function problemOf(code: string | undefined): keyof typeof CLIENT_ERROR_DETAILS {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 'PAYLOAD_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    default:
      return 'MALFORMED_HTTP';
  }
}

/** Answers the requests the parser refuses, and unknown expectations, with application/problem+json. */
export function answerClientErrors(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ ...problemBody('EXPECTATION_FAILED', CLIENT_ERROR_DETAILS.EXPECTATION_FAILED), instance: req.url });
    res.writeHead(417, { 'Content-Type': 'application/problem+json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    // An answer already on its way on this connection must not be corrupted: Node's own handler checks
    // the socket's current response the same way (http-adapter.ts reads it too).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const code = problemOf(error.code);
      const problem = problemBody(code, CLIENT_ERROR_DETAILS[code]);
      const body = JSON.stringify(problem);
      socket.write(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // As Node does: the answer is small and leaves at once; the connection ends with it.
    socket.destroy();
  });
}
