import { mulberry32, playRandomMatch, shuffleDeck, type Viewer } from '@bismarck/rules';
import type { EventStore, StoredEvent } from '@bismarck/event-store';
import { foldOnto, storedEventView, toDomainEvent, UNBORN, type FoldedMatch } from '@bismarck/match';
import { endingAfter, LiveStream, MatchChannel, MAX_BUFFERED_BYTES } from './match-channel';
import type { StreamSink } from '../../platform/edge/sse-socket';

// A whole quick match, as the log would hold it.
const played = playRandomMatch({ schedule: 'quick' }, 0, { random: mulberry32(5), deck: (i) => shuffleDeck('channel-spec', i) });
const LOG: StoredEvent[] = played.events.map((e, i) => ({
  streamId: 'm',
  version: i + 1,
  type: e.type,
  data: e.data,
  metadata: {},
  recordedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString(),
  position: String(i + 1),
  txId: String(i + 1),
  hash: `h${i + 1}`,
}));
const foldedTo = (version: number): FoldedMatch => foldOnto(UNBORN, LOG.slice(0, version).map(toDomainEvent));
const range = (from: number, to: number): StoredEvent[] => LOG.slice(from - 1, to);

/** What a socket received; `backlog` stands for bytes the client has not read yet. */
class FakeResponse {
  text = '';
  writes = 0;
  backlog = 0;
  writableEnded = false;
  destroyed = false;
  get writableLength(): number {
    return this.backlog;
  }
  write(chunk: string | Buffer): boolean {
    this.writes++;
    this.text += chunk.toString();
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  on(): this {
    return this;
  }
  off(): this {
    return this;
  }
  /** The versions received, in order. */
  versions(): number[] {
    return [...this.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  }
}

/** A log read that can be held back, so that live events arrive while a stream catches up. */
function fakeStore(): { store: EventStore; reads: number; hold: Promise<void> | undefined } {
  const fake = {
    reads: 0,
    hold: undefined as Promise<void> | undefined,
    store: {
      readStream: async (_id: string, { after, limit }: { after: number; limit: number }) => {
        fake.reads++;
        await fake.hold;
        return range(after + 1, Math.min(after + limit, LOG.length));
      },
    } as unknown as EventStore,
  };
  return fake;
}

const open = (viewer: Viewer, last: number) => {
  const res = new FakeResponse();
  return { res, stream: new LiveStream(viewer, last, res as unknown as StreamSink) };
};
const settle = () => new Promise((r) => setImmediate(r));
const channelAt = (version: number, store: EventStore) => {
  const channel = new MatchChannel('m', store, { closed: () => undefined, failed: () => undefined });
  channel.start(foldedTo(version));
  return channel;
};

describe('MatchChannel', () => {
  it('redacts and serialises each event once per audience, and each stream gets what GET …/events would show it', async () => {
    const fake = fakeStore();
    const channel = channelAt(10, fake.store);
    const viewers: Viewer[] = ['spectator', 0, 'spectator', 1, 'spectator'];
    const streams = viewers.map((v) => open(v, 10));
    for (const s of streams) await channel.join(s.stream);
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      channel.deliver(range(11, 30));
      await settle();
      // Three audiences (spectators, seat 0, seat 1), not five streams.
      expect(stringify).toHaveBeenCalledTimes(20 * 3);
    } finally {
      stringify.mockRestore();
    }
    expect(fake.reads).toBe(0);
    streams.forEach(({ res }, i) => {
      const expected = range(11, 30)
        .map((e) => `id: ${e.version}\ndata: ${JSON.stringify(storedEventView(e, viewers[i], foldedTo(e.version)))}\n\n`)
        .join('');
      expect(res.text).toBe(expected);
    });
  });

  it('a joining stream reads the log up to the channel, then follows live: no gap and no duplicate when live events come during the read', async () => {
    const fake = fakeStore();
    const channel = channelAt(20, fake.store);
    let release!: () => void;
    fake.hold = new Promise((r) => (release = r));
    const { res, stream } = open(2, 3);
    const joined = channel.join(stream);
    channel.deliver(range(18, 25)); // 21–25 go live while the stream's read of 4–20 is held back
    await settle();
    release();
    await joined;
    channel.deliver(range(26, 40));
    await settle();
    expect(res.versions()).toEqual(range(4, 40).map((e) => e.version));
  });

  it('writes events delivered together (a command and what follows it) in one write per stream, and only the missing ones to a stream part-way in', async () => {
    const channel = channelAt(10, fakeStore().store);
    const whole = open(1, 10);
    const partWay = open(1, 12);
    await channel.join(whole.stream);
    await channel.join(partWay.stream);
    channel.deliver(range(11, 14));
    await settle();
    expect(whole.res.writes).toBe(1);
    expect(whole.res.versions()).toEqual([11, 12, 13, 14]);
    expect(partWay.res.versions()).toEqual([13, 14]);
    expect(partWay.res.text).toBe(whole.res.text.slice(whole.res.text.indexOf('id: 13\n')));
  });

  it('fills a gap in the feed from the log', async () => {
    const fake = fakeStore();
    const channel = channelAt(5, fake.store);
    const { res, stream } = open('spectator', 5);
    await channel.join(stream);
    channel.deliver(range(6, 7));
    channel.deliver(range(12, 15)); // 8–11 never came from the feed
    await settle();
    expect(res.versions()).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(fake.reads).toBe(1);
  });

  it(`cuts off a reader with more than ${MAX_BUFFERED_BYTES} bytes unread; the others go on`, async () => {
    const channel = channelAt(10, fakeStore().store);
    const slow = open('spectator', 10);
    const fast = open('spectator', 10);
    await channel.join(slow.stream);
    await channel.join(fast.stream);
    channel.deliver(range(11, 12));
    await settle();
    slow.res.backlog = MAX_BUFFERED_BYTES + 1;
    channel.deliver(range(13, 14));
    await settle();
    expect(slow.res.versions()).toEqual([11, 12]);
    // Dropped at once, unread bytes and all: it reconnects with Last-Event-ID.
    expect(slow.res.destroyed).toBe(true);
    expect(fast.res.versions()).toEqual([11, 12, 13, 14]);
    expect(fast.res.writableEnded).toBe(false);
    expect(fast.res.destroyed).toBe(false);
  });

  it('ends every stream after MatchFinished with an `end` event', async () => {
    const last = LOG.length;
    const channel = channelAt(last - 3, fakeStore().store);
    const { res } = await (async () => {
      const s = open(0, last - 3);
      await channel.join(s.stream);
      return s;
    })();
    channel.deliver(range(last - 2, last));
    await settle();
    expect(LOG[last - 1].type).toBe('MatchFinished');
    expect(res.text.endsWith(`event: end\ndata: {"version":${last},"status":"finished"}\n\n`)).toBe(true);
    expect(res.writableEnded).toBe(true);
  });
});

describe('the rematch window (REMATCH_WINDOW_MS): a finished match waits for its RematchOffered', () => {
  const last = LOG.length;
  const WINDOW = 60_000;
  /** The log with its MatchFinished appended `agoMs` before now, and (`offered`) a RematchOffered after it. */
  const logOf = (agoMs: number, offered: boolean): StoredEvent[] => {
    const finished = { ...LOG[last - 1], recordedAt: new Date(Date.now() - agoMs).toISOString() };
    const rematch = { ...finished, version: last + 1, type: 'RematchOffered', data: { matchId: 'next', seat: 1 }, recordedAt: new Date().toISOString() };
    return [...LOG.slice(0, last - 1), finished, ...(offered ? [rematch] : [])];
  };
  const storeOf = (log: StoredEvent[]) =>
    ({ readStream: async (_id: string, { after, limit }: { after: number; limit: number }) => log.slice(after, after + limit) }) as unknown as EventStore;
  const channelOn = (log: StoredEvent[], version: number, windowMs: number) => {
    const channel = new MatchChannel('m', storeOf(log), { closed: () => undefined, failed: () => undefined }, windowMs);
    channel.start(foldOnto(UNBORN, log.slice(0, version).map(toDomainEvent)), log[version - 1].recordedAt);
    return channel;
  };
  const END = (version: number) => `event: end\ndata: {"version":${version},"status":"finished"}\n\n`;

  it.each([
    ['TableAbandoned ends at once', { type: 'TableAbandoned', recordedAt: new Date().toISOString() }, WINDOW, 'abandoned'],
    ['RematchOffered ends at once', { type: 'RematchOffered', recordedAt: new Date().toISOString() }, WINDOW, 'finished'],
    ['MatchFinished inside the window waits', { type: 'MatchFinished', recordedAt: new Date().toISOString() }, WINDOW, undefined],
    ['MatchFinished past the window ends', { type: 'MatchFinished', recordedAt: new Date(Date.now() - WINDOW).toISOString() }, WINDOW, 'finished'],
    ['MatchFinished without a window (0) ends', { type: 'MatchFinished', recordedAt: new Date().toISOString() }, 0, 'finished'],
    ['a card played goes on', { type: 'CardPlayed', recordedAt: new Date().toISOString() }, WINDOW, undefined],
  ] as const)('%s', (_name, event, windowMs, ending) => {
    expect(endingAfter(event, windowMs)).toBe(ending);
  });

  it('keeps a live stream open after MatchFinished, then ends it right after RematchOffered', async () => {
    const log = logOf(0, true);
    const channel = channelOn(log, last - 3, WINDOW);
    const { res, stream } = open(1, last - 3);
    await channel.join(stream);
    channel.deliver(log.slice(last - 3, last));
    await settle();
    expect(res.versions().at(-1)).toBe(last);
    expect(res.text).not.toContain('event: end');
    expect(res.writableEnded).toBe(false);
    channel.deliver(log.slice(last, last + 1));
    await settle();
    expect(res.versions().at(-1)).toBe(last + 1);
    expect(res.text).toContain('"type":"RematchOffered","at":');
    expect(res.text.endsWith(END(last + 1))).toBe(true);
    expect(res.writableEnded).toBe(true);
    channel.close();
  });

  it('ends the streams at MatchFinished when the window closes with no rematch, those reading the log too', async () => {
    // The window closes 2 s from now: time for both streams to join first, even on a busy machine.
    const log = logOf(WINDOW - 2_000, false);
    const channel = channelOn(log, last, WINDOW);
    const live = open('spectator', last);
    await channel.join(live.stream); // at the head of a finished match: it waits
    await new Promise((r) => setTimeout(r, 50));
    const late = open(2, 0);
    await channel.join(late.stream); // reads the whole log, then waits at its head
    expect(late.res.versions().at(-1)).toBe(last);
    expect(live.res.text).toBe('');
    expect(live.res.writableEnded || late.res.writableEnded).toBe(false);
    // Then the window closes (waited for, not slept on: its timer may fire late on a busy machine).
    for (const until = Date.now() + 20_000; !(live.res.writableEnded && late.res.writableEnded) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    for (const { res } of [live, late]) {
      expect(res.text.endsWith(END(last))).toBe(true);
      expect(res.writableEnded).toBe(true);
    }
    // Joining after the window: the log, then `end` at once.
    const after = open(0, last - 5);
    await channel.join(after.stream);
    expect(after.res.versions()).toEqual([last - 4, last - 3, last - 2, last - 1, last]);
    expect(after.res.text.endsWith(END(last))).toBe(true);
    channel.close();
  }, 30_000);

  it('a stream reading the log past MatchFinished reads the RematchOffered after it, then ends', async () => {
    const log = logOf(WINDOW * 2, true); // the window closed long ago, but the rematch came
    const channel = channelOn(log, last + 1, WINDOW);
    const { res, stream } = open(0, last - 2);
    await channel.join(stream);
    expect(res.versions()).toEqual([last - 1, last, last + 1]);
    expect(res.text.endsWith(END(last + 1))).toBe(true);
    expect(res.text.match(/event: end/g)).toHaveLength(1);
    channel.close();
  });
});
