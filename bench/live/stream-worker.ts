// A child process of `npm run bench:live` that holds a share of the live streams (SSE) open.
// One process may hold only so many open files, and one (source, destination) pair of addresses only
// so many ports: each worker connects from its own loopback source address.
//
// Each stream checks what it receives: versions after the one it opened at, each exactly once and in
// order (a reconnect sends Last-Event-ID); it notes when each version came, on the machine's clock.
import { request, type ClientRequest } from 'node:http';
import { sleep, wallMs } from '../common';

export interface StreamSpec {
  /** The match's index in the bench's list. */
  match: number;
  id: string;
  /** A seat token, or none for a spectator. */
  token?: string;
  /** The version the stream starts after. */
  after: number;
}

export type ToWorker =
  | { kind: 'open'; port: number; localAddress: string; streams: StreamSpec[] }
  | { kind: 'finish'; finals: number[]; acks: Record<number, number[]>; window: [number, number]; drainMs: number };

export type FromWorker =
  | { kind: 'opened'; streams: number; failures: number }
  | { kind: 'result'; result: WorkerResult };

export interface WorkerResult {
  streams: number;
  /** Streams that received every version after their start up to their match's last, once each, in order. */
  complete: number;
  /** Versions received out of turn (a gap, a repeat or a step back). */
  outOfTurn: number;
  /** Streams short of their match's last version when the bench gave up waiting. */
  behind: number;
  reconnects: number;
  /** Streams the server ended with `event: error`, or that failed to connect. */
  errors: number;
  /** The errors by kind: `status 429`, `ECONNRESET`, `event: error`… */
  errorKinds: Record<string, number>;
  /** Deliveries received within the measured window. */
  deliveredInWindow: number;
  /** Milliseconds from the command's acknowledgement to this stream's receipt, for each acknowledged version. */
  latencies: Float64Array;
}

const OPENING_AT_ONCE = 200;
const errorKinds: Record<string, number> = {};
const noteError = (kind: string): void => void (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);

class Stream {
  last: number;
  ended = false;
  outOfTurn = 0;
  reconnects = 0;
  errors = 0;
  /** [version, receipt time] pairs, flat. */
  readonly receipts: number[] = [];
  private buffer = '';
  private req: ClientRequest | undefined;

  constructor(
    readonly spec: StreamSpec,
    private readonly port: number,
    private readonly localAddress: string,
    private readonly stopping: () => boolean,
  ) {
    this.last = spec.after;
  }

  /** Connects (again) after the last version received; resolves once the server answered. */
  open(): Promise<boolean> {
    return new Promise((opened) => {
      const headers: Record<string, string> = { 'last-event-id': String(this.last), accept: 'text/event-stream' };
      if (this.spec.token) headers.authorization = `Bearer ${this.spec.token}`;
      const req = request({ host: '127.0.0.1', port: this.port, localAddress: this.localAddress, path: `/api/matches/${this.spec.id}/events/stream`, headers, agent: false });
      this.req = req;
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        if (res.statusCode === 204) this.ended = true;
        if (res.statusCode !== 200) {
          res.resume();
          if (res.statusCode === 204) return opened(true);
          this.errors++;
          noteError(`status ${res.statusCode}`);
          // Refused (a busy server): an EventSource tries again after a while.
          this.retry();
          return opened(false);
        }
        res.setEncoding('utf8');
        res.on('data', (text: string) => this.onText(text));
        res.on('close', () => this.onClose());
        opened(true);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // Before the answer (an error after it closes the response, and onClose reconnects).
        if (answered) return;
        this.errors++;
        noteError(error.code ?? error.message);
        this.retry();
        opened(false);
      });
      req.end();
    });
  }

  close(): void {
    this.ended = true;
    this.req?.destroy();
  }

  private onText(text: string): void {
    this.buffer += text;
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const frame = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      if (frame.startsWith('id: ')) this.onEvent(frame);
      else if (frame.startsWith('event: end')) this.ended = true;
      else if (frame.startsWith('event: error')) {
        this.errors++;
        noteError('event: error');
      }
    }
  }

  private onEvent(frame: string): void {
    const version = Number(frame.slice(4, frame.indexOf('\n')));
    // The data is the event itself: its version must be the id's.
    if (version !== this.last + 1 || !frame.includes(`\ndata: {"version":${version},`)) this.outOfTurn++;
    if (version > this.last) this.last = version;
    this.receipts.push(version, wallMs());
  }

  private onClose(): void {
    this.buffer = '';
    if (this.ended || this.stopping()) return;
    // Dropped (a slow reader, a restart): an EventSource reconnects with Last-Event-ID.
    this.retry();
  }

  private retry(): void {
    this.reconnects++;
    void sleep(200 + Math.random() * 300).then(() => (this.ended || this.stopping() ? undefined : this.open()));
  }
}

let streams: Stream[] = [];
let stopping = false;
const send = (message: FromWorker, sent?: () => void): void => void process.send!(message, undefined, {}, sent);

async function openAll(port: number, localAddress: string, specs: StreamSpec[]): Promise<void> {
  streams = specs.map((spec) => new Stream(spec, port, localAddress, () => stopping));
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: OPENING_AT_ONCE }, async () => {
      while (next < streams.length) if (!(await streams[next++].open())) failures++;
    }),
  );
  send({ kind: 'opened', streams: streams.length, failures });
}

async function finish(finals: number[], acks: Record<number, number[]>, [from, to]: [number, number], drainMs: number): Promise<void> {
  const caughtUp = (s: Stream): boolean => s.last >= finals[s.spec.match] || (s.ended && s.last === finals[s.spec.match]);
  const deadline = Date.now() + drainMs;
  while (Date.now() < deadline && !streams.every(caughtUp)) await sleep(100);
  stopping = true;
  const result: WorkerResult = { streams: streams.length, complete: 0, outOfTurn: 0, behind: 0, reconnects: 0, errors: 0, errorKinds, deliveredInWindow: 0, latencies: new Float64Array(0) };
  const latencies: number[] = [];
  for (const s of streams) {
    result.outOfTurn += s.outOfTurn;
    result.reconnects += s.reconnects;
    result.errors += s.errors;
    if (s.last < finals[s.spec.match]) result.behind++;
    else if (s.outOfTurn === 0 && s.last === finals[s.spec.match]) result.complete++;
    const ackOf = acks[s.spec.match];
    for (let i = 0; i < s.receipts.length; i += 2) {
      const at = s.receipts[i + 1];
      if (at >= from && at <= to) result.deliveredInWindow++;
      const acked = ackOf?.[s.receipts[i]];
      if (acked !== undefined && acked !== null) latencies.push(at - acked);
    }
    s.close();
  }
  result.latencies = Float64Array.from(latencies);
  // Exits once the result is out (an exit drops what is still queued on the channel).
  send({ kind: 'result', result }, () => process.exit(0));
}

process.on('message', (message: ToWorker) => {
  if (message.kind === 'open') void openAll(message.port, message.localAddress, message.streams);
  else void finish(message.finals, message.acks, message.window, message.drainMs);
});
process.on('disconnect', () => process.exit(0));
