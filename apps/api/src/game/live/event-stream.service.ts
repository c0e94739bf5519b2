import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { Seat, Viewer } from '@bismarck/rules';
import { EventStore } from '@bismarck/event-store';
import { CommitFeed } from '../../platform/database/commit-feed';
import { edgeConfig } from '../../platform/config/edge.config';
import { bearerToken, clientAddress } from '../../platform/edge/caller';
import { invalidParameter, ProblemException } from '../../platform/problem/problem';
import { MatchFolds, type LoadedMatch } from '../matches/match-folds.service';
import { endsCredential, isPlayerCredential, PlayerCredentials } from '../../accounts/players/player-credentials.service';
import { LiveHub, LiveHubStopped } from './live-hub.service';
import { PresenceService } from './presence.service';
import { StreamQuota, type StreamTicket } from './stream-quota';
import { endingAfter, LiveStream, MatchChannel } from './match-channel';
import type { StreamSink } from '../../platform/edge/sse-socket';
import { openEventStream } from '../../platform/edge/sse-socket';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  // nginx passes each event on at once instead of filling its buffer first.
  'x-accel-buffering': 'no',
};

const logger = new Logger('EventStream');

/** Where a stream resumes: after this version, as the request named it (`Last-Event-ID` or `?after=`). */
export interface ResumePoint {
  after: number;
  parameter: 'Last-Event-ID' | 'after';
}

/**
 * `GET /api/matches/{id}/events/stream`: the match's events as Server-Sent Events, redacted for the
 * caller exactly like `GET …/events`. Each event is `id: <version>` and `data: {version,type,at,data}`.
 *
 * The streams of one match share a channel (match-channel.ts): it registers with the hub before it
 * folds the match, so nothing committed from then on is missed; a stream joins it, reads the log
 * after the client's last version, then receives the frames its audience shares, with no gap and no
 * duplicate. After TableAbandoned it sends `event: end` and closes; after MatchFinished it waits up to
 * REMATCH_WINDOW_MS for RematchOffered (docs/clients.md, "Rematch"), then sends `event: end` and closes.
 * Presence goes to every stream as `event: presence` with no `id:` (presence.service.ts): once when it
 * joins, then at each change; a seat's own stream counts for its seat while it is open.
 */
@Injectable()
export class EventStreamService implements OnModuleDestroy {
  private readonly quota: StreamQuota;
  /** The channels of the matches with open streams in this process. */
  private readonly channels = new Map<string, MatchChannel>();
  private readonly starting = new Map<string, Promise<MatchChannel>>();
  private readonly unfollow: () => void;

  constructor(
    private readonly hub: LiveHub,
    private readonly folds: MatchFolds,
    private readonly store: EventStore,
    private readonly presence: PresenceService,
    private readonly players: PlayerCredentials,
    @Inject(edgeConfig.KEY) private readonly config: ConfigType<typeof edgeConfig>,
    commits: CommitFeed,
  ) {
    this.quota = new StreamQuota(config.streamsPerAddress, config.streamsPerToken);
    // The writer's fold of this process's appends: a channel publishing them need not fold them again.
    this.unfollow = commits.follow(({ matchId, folded }) => this.channels.get(matchId)?.folded(folded));
  }

  async open(matchId: string, viewer: Viewer, { after, parameter }: ResumePoint, req: Request, res: Response): Promise<void> {
    if (this.hub.isStopped) return endAtOnce(req, res);
    let known = await this.folds.load(matchId);
    if (!known) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${matchId}.`);
    // Past what this process knows: caught up first (another instance may have appended that far).
    if (after > known.version) known = (await this.folds.load(matchId, true)) ?? known;
    // Nothing more to wait for at the end of the log: a lobby table closed unfilled (TableAbandoned), a
    // finished match with its rematch, or one whose rematch window has closed (docs/clients.md, "Rematch").
    if (this.complete(known) && after >= known.version) {
      // Nothing more will ever come: 204 tells an EventSource to stop reconnecting.
      res.status(204).end();
      return;
    }
    // A version past the log's was never handed out for this match (another match's Last-Event-ID,
    // say): streaming from there would skip, without a word, every event up to it.
    if (after > known.version) {
      throw invalidParameter(parameter, `${parameter} must be at most ${known.version}, the match's current version: the events after it were never sent.`);
    }
    // Each open stream holds memory and a socket for as long as the client likes: bounded per caller.
    const ticket = this.quota.acquire(clientAddress(req), bearerToken(req));
    if (!ticket) {
      throw new ProblemException('TOO_MANY_STREAMS', 'Too many live streams are open for this address or seat token: close one first.', { retryAfter: 5 });
    }
    let channel: MatchChannel;
    try {
      channel = await this.channelOf(matchId);
    } catch (err) {
      ticket.release();
      if (err instanceof LiveHubStopped) return endAtOnce(req, res);
      throw err;
    }
    const sink = openOrNone(req, res);
    // The client left while the match was read, or asked for the head alone: no stream to keep.
    if (!sink || req.method === 'HEAD') {
      ticket.release();
      if (channel.size === 0) channel.close();
      return;
    }
    // A seat's stream makes the seat connected while it is open (a spectator's does not).
    const seat = viewer === 'spectator' ? undefined : viewer;
    const stream = new OpenStream(viewer, after, sink, matchId, seat, ticket, channel);
    this.hub.track(stream);
    const settled = seat === undefined ? undefined : this.presence.enter(matchId, seat);
    sink.on('close', this.whenClosed(stream));
    const credential = bearerToken(req);
    if (seat !== undefined && credential !== undefined && isPlayerCredential(credential)) {
      const stop = await this.endWithCredential(credential, stream);
      if (stream.closed) stop();
      else stream.unwatch = stop;
    }
    // Counted and read again first: the presence this stream is sent when it joins shows its own seat.
    if (settled) {
      await settled;
      // Meanwhile the channel's last stream may have left and closed it: this one starts a new one.
      if (stream.channel.closed && !stream.closed) stream.channel = await this.channelOf(matchId).catch(() => stream.channel);
    }
    await stream.channel.join(stream).catch((err: unknown) => {
      logger.warn(`event stream of ${matchId}: ${err instanceof Error ? err.message : String(err)}`);
      stream.fail();
    });
  }

  /**
   * The stream's socket listener for 'close', made here: a closure made in open() would keep open()'s
   * whole scope alive with the stream (each open stream costs its memory for as long as it lives).
   */
  private whenClosed(stream: OpenStream): () => void {
    return () => this.closed(stream);
  }

  /** The stream's socket closed (once): everything it held is given back. */
  private closed(stream: OpenStream): void {
    stream.unwatch?.();
    if (stream.seat !== undefined) this.presence.leave(stream.matchId, stream.seat);
    this.hub.untrack(stream);
    stream.ticket.release();
    stream.close();
    const channel = stream.channel;
    channel.leave(stream);
    // The last stream of a match ends its channel.
    if (channel.size === 0) channel.close();
  }

  /**
   * A stream opened with a player's credential ends (`event: error`, then the client's reconnection is
   * refused) once the credential is: its token revoked or the account deleted, on any instance (the
   * player's stream is followed like a match's), or a JWT past its expiry. Returns what stops watching.
   */
  private async endWithCredential(credential: string, stream: LiveStream): Promise<() => void> {
    const life = await this.players.credentialLife(credential).catch(() => null);
    if (!life) {
      stream.fail();
      return () => undefined;
    }
    let expiry: NodeJS.Timeout | undefined;
    if (life.expiresAt !== null) {
      expiry = setTimeout(() => stream.fail(), Math.min(Math.max(0, life.expiresAt - Date.now()), 2_147_483_647));
      expiry.unref();
    }
    let stopListening = (): void => undefined;
    try {
      stopListening = await this.hub.listen(life.playerId, (events) => {
        if (endsCredential(life, events)) stream.fail();
      });
    } catch {
      stream.fail();
    }
    const stop = (): void => {
      clearTimeout(expiry);
      stopListening();
    };
    // Revoked before the hub listened: the token table tells.
    if (life.tokenId !== null && !stream.closed && !(await this.players.credentialLife(credential).catch(() => null))) stream.fail();
    return stop;
  }

  private complete({ state, updatedAt }: LoadedMatch): boolean {
    if (state.status === 'abandoned') return true;
    if (state.status !== 'finished') return false;
    // The last event of a finished match without a rematch is its MatchFinished.
    return state.rematch !== null || endingAfter({ type: 'MatchFinished', recordedAt: updatedAt }, this.config.rematchWindowMs) !== undefined;
  }

  onModuleDestroy(): void {
    this.unfollow();
    for (const channel of this.channels.values()) channel.close();
  }

  /** The match's channel, started on first use (again, if the one found closed while this waited). */
  private async channelOf(matchId: string): Promise<MatchChannel> {
    let channel: MatchChannel;
    let attempts = 0;
    do {
      channel = this.channels.get(matchId) ?? (await this.started(matchId));
    } while (channel.closed && ++attempts < 3);
    // Still closed (a failing database): joining it sends `event: error`, and the client comes back.
    return channel;
  }

  private started(matchId: string): Promise<MatchChannel> {
    let starting = this.starting.get(matchId);
    if (!starting) {
      starting = this.startChannel(matchId).finally(() => this.starting.delete(matchId));
      this.starting.set(matchId, starting);
    }
    return starting;
  }

  /** Listens to the hub first, then folds the match from the log: no event falls in between. */
  private async startChannel(matchId: string): Promise<MatchChannel> {
    let stopListening = (): void => undefined;
    let stopWatching = (): void => undefined;
    const keepAlive = setInterval(() => channel.comment('keep-alive'), this.config.sseKeepAliveMs);
    keepAlive.unref();
    const channel: MatchChannel = new MatchChannel(matchId, this.store, {
      closed: () => {
        clearInterval(keepAlive);
        stopListening();
        stopWatching();
        if (this.channels.get(matchId) === channel) this.channels.delete(matchId);
      },
      failed: (err) => logger.warn(`live channel of ${matchId}: ${err instanceof Error ? err.message : String(err)}`),
    }, this.config.rematchWindowMs);
    try {
      stopListening = await this.hub.listen(matchId, (events) => channel.deliver(events));
      stopWatching = await this.presence.watch(matchId, (connected) => channel.presence(connected));
      // Fresh: what another instance appended is in the log, maybe not yet in this process's fold.
      const now = await this.folds.load(matchId, true);
      if (!now) throw new Error(`match ${matchId} has no events`);
      channel.start(now, now.updatedAt);
    } catch (err) {
      channel.close();
      throw err;
    }
    this.channels.set(matchId, channel);
    return channel;
  }
}

/**
 * An open stream with what it holds until its socket closes (EventStreamService.closed): one object,
 * where a closure per resource (untrack, release, leave, the close listener's scope) cost a few
 * hundred bytes more for every open stream.
 */
class OpenStream extends LiveStream {
  /** Stops watching the player's credential (a stream opened with one). */
  unwatch: (() => void) | undefined = undefined;

  constructor(
    viewer: Viewer,
    last: number,
    sink: StreamSink,
    readonly matchId: string,
    /** The seat it counts present; undefined for a spectator. */
    readonly seat: Seat | undefined,
    readonly ticket: StreamTicket,
    /** The channel it joins (another one, if this one closed before it joined). */
    public channel: MatchChannel,
  ) {
    super(viewer, last, sink);
  }
}

function openOrNone(req: Request, res: Response): StreamSink | undefined {
  try {
    return openEventStream(req, res, SSE_HEADERS, 'retry: 2000\n\n');
  } catch {
    return undefined;
  }
}

/**
 * The process is stopping: a stream that ends as soon as it opens, not an error. An EventSource
 * comes back after `retry` (to another instance, or to this one restarted) with its Last-Event-ID;
 * an error status would make it give up for good.
 */
function endAtOnce(req: Request, res: Response): void {
  openOrNone(req, res)?.end();
}
