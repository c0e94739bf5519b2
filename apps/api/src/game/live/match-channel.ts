import type { Viewer } from '@bismarck/rules';
import type { EventStore, StoredEvent } from '@bismarck/event-store';
import { foldOnto, storedEventView, toDomainEvent, type FoldedMatch } from '@bismarck/match';
import type { StreamSink } from '../../platform/edge/sse-socket';

const PAGE = 500;
/** Events waiting while the channel reads a gap from the log; past this the channel gives up (streams reconnect). */
const MAX_PENDING = 10_000;
/**
 * Bytes a live stream may have waiting in its socket. A reader further behind is cut off rather than
 * buffered without end; it reconnects with Last-Event-ID and reads the log.
 */
export const MAX_BUFFERED_BYTES = 64 * 1024;

/** The four audiences of a match: what each seat may see, and what a spectator may see. */
const AUDIENCES: readonly Viewer[] = [0, 1, 2, 'spectator'];
const audienceOf = (viewer: Viewer): number => (viewer === 'spectator' ? 3 : viewer);

/** One event as an SSE message, redacted for `viewer` against the match `now`. */
const frameOf = (stored: StoredEvent, viewer: Viewer, now: FoldedMatch): string =>
  `id: ${stored.version}\ndata: ${JSON.stringify(storedEventView(stored, viewer, now))}\n\n`;
const endFrame = (version: number, status: Ending): string => `event: end\ndata: ${JSON.stringify({ version, status })}\n\n`;
/**
 * Presence (which seats have a live stream open): its own event type and no `id:` line, so an
 * EventSource's Last-Event-ID stays the last event's version. The same for every audience.
 */
export const presenceFrame = (connected: readonly boolean[]): string => `event: presence\ndata: ${JSON.stringify({ connected })}\n\n`;

/** The status `event: end` tells: a finished match, a lobby table closed unfilled. */
type Ending = 'finished' | 'abandoned';

/**
 * Whether a stream whose last event is `event` ends there, and how: nothing can follow TableAbandoned
 * nor RematchOffered (a match has one rematch); after MatchFinished the stream waits for the
 * rematch until `windowMs` after it (docs/clients.md, "Rematch"), then ends.
 */
export function endingAfter(event: Pick<StoredEvent, 'type' | 'recordedAt'>, windowMs: number, now = Date.now()): Ending | undefined {
  switch (event.type) {
    case 'TableAbandoned':
      return 'abandoned';
    case 'RematchOffered':
      return 'finished';
    case 'MatchFinished':
      // Without a window, at once (whatever the clocks of this process and the database say).
      return windowMs <= 0 || now >= windowEnd(event, windowMs) ? 'finished' : undefined;
    default:
      return undefined;
  }
}

/** When the rematch window after this MatchFinished closes (ms since the epoch). */
const windowEnd = (finished: Pick<StoredEvent, 'recordedAt'>, windowMs: number): number => Date.parse(finished.recordedAt) + windowMs;
const ERROR_FRAME = `event: error\ndata: ${JSON.stringify({ code: 'INTERNAL_ERROR' })}\n\n`;

/**
 * One open stream: where it stands (`last`: the last version written) and its sink. It holds no
 * copy of the match: the channel writes it the frames its audience shares.
 */
export class LiveStream {
  closed = false;

  constructor(
    readonly viewer: Viewer,
    public last: number,
    private readonly sink: StreamSink,
  ) {}

  /**
   * Writes the frames of versions `from` … `to` if `from` is the next one this stream needs; a reader
   * too far behind is dropped.
   */
  offer(from: number, to: number, frames: string | Buffer, finished: boolean): void {
    if (this.closed || from !== this.last + 1) return;
    if (this.sink.writableLength > MAX_BUFFERED_BYTES) return this.cut();
    this.sink.write(frames);
    this.last = to;
    if (finished) this.close();
  }

  /** Writes the frames of versions last+1 … `newest` (a catch-up page) and waits while the socket drains. */
  async send(chunk: string, newest: number, finished: boolean): Promise<void> {
    if (this.closed || chunk === '') return;
    const flowing = this.sink.write(chunk);
    this.last = newest;
    if (finished) return this.close();
    if (!flowing) await this.drained();
  }

  private drained(): Promise<void> {
    return new Promise((done) => {
      const go = (): void => {
        this.sink.off('drain', go).off('close', go);
        done();
      };
      this.sink.on('drain', go).on('close', go);
    });
  }

  comment(text: string): void {
    if (!this.closed) this.sink.write(`: ${text}\n\n`);
  }

  /**
   * A message outside the log (presence): no version, written as it comes, between whole frames. Not
   * cut for a full socket: a stream reading the log fills it by design, and a reader stuck at the head
   * is cut by the next event (offer).
   */
  tell(frame: string): void {
    if (!this.closed) this.sink.write(frame);
  }

  /** Writes the last frame (`event: end`) and closes. */
  end(frame: string): void {
    if (this.closed) return;
    this.sink.write(frame);
    this.close();
  }

  /** The client reconnects with Last-Event-ID; nothing about the error (or the match) leaks here. */
  fail(): void {
    if (!this.closed) this.sink.write(ERROR_FRAME);
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.sink.writableEnded) this.sink.end();
  }

  /** Drops a reader too far behind at once: ending would keep its unread bytes until it read them. */
  private cut(): void {
    this.closed = true;
    this.sink.destroy();
  }
}

/**
 * A match's live streams in this process. The channel folds the match once as its events arrive,
 * and redacts and serialises each event once per audience (each seat, spectators): that one frame
 * is written to every stream of the audience that is at the version before it.
 *
 * No gap, no duplicate: a stream is written only the version after its `last`. A stream that joins
 * (or falls behind) reads the log up to the channel's version, redacted for its viewer against the
 * channel's fold; the next live event then follows it directly. An event delivered beyond the
 * channel's version makes the channel read the missing ones from the log first.
 */
export class MatchChannel {
  private now: FoldedMatch | undefined;
  /** The match as this process's writer folded it after its latest append here (the CommitFeed), not yet published. */
  private ahead: FoldedMatch | undefined;
  private readonly audiences: Set<LiveStream>[] = AUDIENCES.map(() => new Set());
  private readonly pending: StoredEvent[] = [];
  private running = false;
  /** The match's presence frame as last told (presence()), for each stream that joins. */
  private presenceNow: string | undefined;
  /** Ends the streams left waiting after MatchFinished when the rematch window closes. */
  private windowTimer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    readonly matchId: string,
    private readonly store: EventStore,
    private readonly hooks: { closed(): void; failed(err: unknown): void },
    /** How long after MatchFinished the streams wait for RematchOffered (REMATCH_WINDOW_MS). */
    private readonly rematchWindowMs = 0,
  ) {}

  get size(): number {
    return this.audiences.reduce((n, streams) => n + streams.size, 0);
  }

  /**
   * Starts publishing from the match as folded up to now (events delivered before this wait).
   * `updatedAt`: when its last event was appended (a finished match's MatchFinished opens the rematch window).
   */
  start(now: FoldedMatch, updatedAt?: string): void {
    this.now = now;
    if (now.state.status === 'finished' && now.state.rematch === null && updatedAt !== undefined) this.awaitRematch({ version: now.version, recordedAt: updatedAt });
    void this.pump();
  }

  /** The match as this process's writer folded it after an append: the run that ends there is not folded again. */
  folded(after: FoldedMatch): void {
    if (!this.closed && after.version > (this.ahead?.version ?? this.now?.version ?? 0)) this.ahead = after;
  }

  /** Events of this match from the feed, in version order (possibly with gaps or repeats). */
  deliver(events: readonly StoredEvent[]): void {
    if (this.closed) return;
    this.pending.push(...events);
    if (this.pending.length > MAX_PENDING) return this.fail(new Error(`${this.pending.length} events pending`));
    void this.pump();
  }

  /** Adds a stream and sends it the log after its last version up to the channel's; live events follow. */
  async join(stream: LiveStream): Promise<void> {
    // A channel that failed meanwhile: the client reconnects and finds a new one.
    if (this.closed) return stream.fail();
    this.audiences[audienceOf(stream.viewer)].add(stream);
    // The presence first, once: the changes follow as they come (in the same turn, so none is missed).
    if (this.presenceNow) stream.tell(this.presenceNow);
    await this.catchUp(stream);
  }

  leave(stream: LiveStream): void {
    this.audiences[audienceOf(stream.viewer)].delete(stream);
  }

  /** The match's presence changed (or is first known): every stream is told (all audiences alike). */
  presence(connected: readonly boolean[]): void {
    if (this.closed) return;
    this.presenceNow = presenceFrame(connected);
    for (const streams of this.audiences) for (const s of streams) s.tell(this.presenceNow);
  }

  /** Writes a comment line to every stream (proxies keep a quiet connection open). */
  comment(text: string): void {
    for (const streams of this.audiences) for (const s of streams) s.comment(text);
  }

  /** Stops publishing (its last stream left, or the application shuts down). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.windowTimer);
    this.pending.length = 0;
    this.hooks.closed();
  }

  /** The streams wait after this MatchFinished: `event: end` to those at the head when the window closes. */
  private awaitRematch(finished: Pick<StoredEvent, 'version' | 'recordedAt'>): void {
    if (this.windowTimer !== undefined || this.closed) return;
    this.windowTimer = setTimeout(() => {
      // A stream still reading the log ends by itself: the window is closed when it reaches the end.
      // (Past MatchFinished, RematchOffered has ended every stream that reached it.)
      if (this.closed || this.now?.version !== finished.version) return;
      const frame = endFrame(finished.version, 'finished');
      for (const streams of this.audiences) for (const s of streams) if (s.last === finished.version) s.end(frame);
    }, Math.max(0, windowEnd(finished, this.rematchWindowMs) - Date.now()));
    this.windowTimer.unref();
  }

  private async pump(): Promise<void> {
    if (this.running || this.closed || !this.now) return;
    this.running = true;
    try {
      while (!this.closed && this.pending.length > 0) {
        const event = this.pending.shift()!;
        if (event.version <= this.now.version) continue;
        // A version the channel has not seen is missing in front of this one: the log has it.
        if (event.version > this.now.version + 1) await this.fill(event.version - 1);
        if (event.version !== this.now.version + 1) continue;
        // With the events that follow it directly (the rest of its command, usually): one write per stream.
        const run = [event];
        while (this.pending.length > 0 && this.pending[0].version === run[run.length - 1].version + 1) run.push(this.pending.shift()!);
        this.publish(run);
      }
    } catch (err) {
      this.fail(err);
    } finally {
      this.running = false;
    }
  }

  /** Reads the log after the channel's version up to `until` and publishes it. */
  private async fill(until: number): Promise<void> {
    while (!this.closed && this.now!.version < until) {
      const page = await this.store.readStream(this.matchId, { after: this.now!.version, limit: Math.min(PAGE, until - this.now!.version) });
      const run = page.filter((event, i) => event.version === this.now!.version + 1 + i);
      if (run.length === 0) return;
      this.publish(run);
    }
  }

  /**
   * Folds contiguous events (the channel's next versions), or takes the writer's fold when it ends
   * where they do, then writes them to every stream that waits for them: one frame per event per
   * audience, redacted against the match after the run, as a reader of the log would see them now
   * (nothing a run reveals is secret once it is committed).
   */
  private publish(run: readonly StoredEvent[]): void {
    const first = run[0].version;
    const last = run[run.length - 1].version;
    this.now = this.ahead?.version === last ? this.ahead : foldOnto(this.now!, run.map(toDomainEvent));
    if (this.ahead && this.ahead.version <= last) this.ahead = undefined;
    const now = this.now;
    // Only the last of a run can end the streams: nothing follows what ends them.
    const lastEvent = run[run.length - 1];
    const ending = endingAfter(lastEvent, this.rematchWindowMs);
    const finished = ending !== undefined;
    if (lastEvent.type === 'MatchFinished' && !finished) this.awaitRematch(lastEvent);
    this.audiences.forEach((streams, audience) => {
      if (streams.size === 0) return;
      const frames = run.map((event) => frameOf(event, AUDIENCES[audience], now));
      if (ending) frames[frames.length - 1] += endFrame(last, ending);
      // Encoded once: every socket of the audience writes the same bytes.
      const all = Buffer.from(frames.join(''));
      for (const stream of streams) {
        if (stream.last === first - 1) stream.offer(first, last, all, finished);
        // Part-way into the run already (it read some of it from the log): the rest, frame by frame.
        else for (let i = 0; i < run.length; i++) stream.offer(first + i, first + i, frames[i], finished && i === run.length - 1);
      }
    });
  }

  /** The log after the stream's last version, up to the channel's, redacted for its viewer. */
  private async catchUp(stream: LiveStream): Promise<void> {
    while (!stream.closed && !this.closed && stream.last < this.now!.version) {
      const limit = Math.min(PAGE, this.now!.version - stream.last);
      const page = await this.store.readStream(this.matchId, { after: stream.last, limit });
      if (page.length === 0) return;
      // Live events may have reached the stream while the page was read: go on from where it is now.
      let chunk = '';
      let newest = stream.last;
      let lastEvent: StoredEvent | undefined;
      for (const event of page) {
        if (event.version !== newest + 1) continue;
        chunk += frameOf(event, stream.viewer, this.now!);
        newest = event.version;
        lastEvent = event;
      }
      // Only at the head of the log: past MatchFinished, a RematchOffered may be still to read.
      const ending = lastEvent && newest >= this.now!.version ? endingAfter(lastEvent, this.rematchWindowMs) : undefined;
      if (lastEvent?.type === 'MatchFinished' && !ending) this.awaitRematch(lastEvent);
      if (ending) chunk += endFrame(newest, ending);
      await stream.send(chunk, newest, ending !== undefined);
    }
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    this.close();
    for (const streams of this.audiences) for (const s of streams) s.fail();
    this.hooks.failed(err);
  }
}
