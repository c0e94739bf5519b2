import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { BismarckEvent, Viewer } from '@bismarck/rules';
import { EventStore, type StoredEvent } from '@bismarck/event-store';
import { edgeConfig } from '../config/edge.config';
import { bearerToken, clientAddress } from '../edge/caller';
import { ProblemException } from '../problem/problem';
import { foldOnto, storedEventView, toDomainEvent, type FoldedMatch } from '@bismarck/projections';
import { MatchStreams } from '../matches/match-streams.service';
import { LiveHub } from './live-hub.service';
import { StreamQuota } from './stream-quota';

const logger = new Logger('EventStream');
const PAGE = 500;
/** A reader this far behind is cut off; it reconnects with Last-Event-ID and reads the log. */
const MAX_PENDING = 10_000;

/**
 * `GET /api/matches/{id}/events/stream`: the match's events as Server-Sent Events, redacted for the
 * caller exactly like `GET …/events`. Each event is `id: <version>` and `data: {version,type,at,data}`.
 *
 * No gap, no duplicate: the stream first registers with the hub (so nothing committed from then on
 * is missed), then reads the log after the client's last version, then sends live events, skipping
 * versions it has sent and reading the log for any version it has not seen yet. After MatchFinished
 * it sends `event: end` and closes.
 */
@Injectable()
export class EventStreamService {
  constructor(
    private readonly hub: LiveHub,
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
    @Inject(edgeConfig.KEY) private readonly config: ConfigType<typeof edgeConfig>,
  ) {
    this.quota = new StreamQuota(config.streamsPerAddress, config.streamsPerToken);
  }

  private readonly quota: StreamQuota;

  async open(matchId: string, viewer: Viewer, after: number, req: Request, res: Response): Promise<void> {
    const known = await this.streams.load(matchId);
    if (!known) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
    if (known.state.status === 'finished' && after >= known.version) {
      // Nothing more will ever come: 204 tells an EventSource to stop reconnecting.
      res.status(204).end();
      return;
    }
    // Each open stream holds memory and a socket for as long as the client likes: bounded per caller.
    const release = this.quota.acquire(clientAddress(req), bearerToken(req));
    if (!release) {
      throw new ProblemException('TOO_MANY_STREAMS', 'Too many live streams are open for this address or seat token: close one first.', { retryAfter: 5 });
    }
    const session = new StreamSession(matchId, viewer, after, res, this.store, this.streams);
    const untrack = this.hub.track(session);
    const stopListening = await this.hub.listen(matchId, (events) => session.deliver(events)).catch((err: unknown) => {
      untrack();
      release();
      throw err;
    });
    const keepAlive = setInterval(() => session.comment('keep-alive'), this.config.sseKeepAliveMs);
    keepAlive.unref();
    const cleanUp = (): void => {
      clearInterval(keepAlive);
      stopListening();
      untrack();
      release();
      session.close();
    };
    req.on('close', cleanUp);
    res.on('close', cleanUp);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-store, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write('retry: 2000\n\n');
    await session.start(known);
  }
}

/** One open stream: a strictly ordered writer of versions last+1, last+2, … */
class StreamSession {
  private last: number;
  /** The match as far as this stream has folded it: what redaction and the hashes go by. */
  private now: FoldedMatch | undefined;
  private readonly pending: StoredEvent[] = [];
  private running = false;
  private started = false;
  private closed = false;

  constructor(
    private readonly matchId: string,
    private readonly viewer: Viewer,
    after: number,
    private readonly res: Response,
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
  ) {
    this.last = after;
  }

  /** Catches up from the log, then starts sending what the hub delivers. */
  async start(known: FoldedMatch): Promise<void> {
    this.now = known;
    this.started = true;
    this.running = true;
    try {
      await this.catchUp(Number.POSITIVE_INFINITY);
    } catch (err) {
      this.fail(err);
      return;
    } finally {
      this.running = false;
    }
    void this.pump();
  }

  deliver(events: readonly StoredEvent[]): void {
    if (this.closed) return;
    this.pending.push(...events);
    if (this.pending.length > MAX_PENDING) return this.close();
    if (this.started) void this.pump();
  }

  comment(text: string): void {
    if (!this.closed) this.res.write(`: ${text}\n\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.length = 0;
    if (!this.res.writableEnded) this.res.end();
  }

  private async pump(): Promise<void> {
    if (this.running || this.closed) return;
    this.running = true;
    try {
      while (!this.closed && this.pending.length > 0) {
        const event = this.pending.shift()!;
        if (event.version <= this.last) continue;
        // A version we have not seen yet is missing in front of this one: the log has it.
        if (event.version > this.last + 1) await this.catchUp(event.version - 1);
        if (event.version === this.last + 1) await this.send([event]);
      }
    } catch (err) {
      this.fail(err);
    } finally {
      this.running = false;
    }
  }

  /** Reads the log after the last version sent, up to `until`, and sends it. */
  private async catchUp(until: number): Promise<void> {
    while (!this.closed && this.last < until) {
      const limit = Math.min(PAGE, until - this.last);
      const page = await this.store.readStream(this.matchId, { after: this.last, limit });
      if (page.length === 0) return;
      await this.send(page);
      if (page.length < limit) return;
    }
  }

  /** Sends contiguous events (each the next version), redacted against the newest state known. */
  private async send(events: readonly StoredEvent[]): Promise<void> {
    const newest = events[events.length - 1].version;
    if (newest > this.now!.version) await this.advanceState(events);
    let chunk = '';
    let finished = false;
    for (const stored of events) {
      if (stored.version !== this.last + 1) continue;
      const view = storedEventView(stored, this.viewer, this.now!);
      chunk += `id: ${stored.version}\ndata: ${JSON.stringify(view)}\n\n`;
      this.last = stored.version;
      if (stored.type === 'MatchFinished') finished = true;
    }
    if (this.closed || chunk === '') return;
    if (finished) chunk += `event: end\ndata: ${JSON.stringify({ version: this.last, status: 'finished' })}\n\n`;
    this.res.write(chunk);
    if (finished) this.close();
  }

  /** Folds the events into the state (reading the log when they do not follow it directly). */
  private async advanceState(events: readonly StoredEvent[]): Promise<void> {
    let now = this.now!;
    if (events[0].version > now.version + 1) {
      const fresh = await this.streams.load(this.matchId, true);
      if (fresh && fresh.version >= events[events.length - 1].version) {
        this.now = fresh;
        return;
      }
      if (fresh) now = fresh;
    }
    const next: BismarckEvent[] = [];
    for (const e of events) if (e.version === now.version + next.length + 1) next.push(toDomainEvent(e));
    this.now = foldOnto(now, next);
  }

  private fail(err: unknown): void {
    // The client reconnects with Last-Event-ID; nothing about the error (or the match) leaks here.
    logger.warn(`event stream of ${this.matchId}: ${err instanceof Error ? err.message : String(err)}`);
    if (!this.closed) this.res.write(`event: error\ndata: ${JSON.stringify({ code: 'INTERNAL_ERROR' })}\n\n`);
    this.close();
  }
}
