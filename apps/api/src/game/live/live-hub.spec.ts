import type { EventStore } from '@bismarck/event-store';
import { LiveHub } from './live-hub.service';

describe('LiveHub', () => {
  it('ends a stream tracked after shutdown (it would hold the server open) and refuses new listeners', async () => {
    const hub = new LiveHub({} as EventStore);
    const early = { close: jest.fn() };
    hub.track(early);
    await hub.onModuleDestroy();
    expect(early.close).toHaveBeenCalledTimes(1);
    const tracked = hub.openStreams; // (a real stream leaves when its socket closes)
    const late = { close: jest.fn() };
    hub.track(late);
    expect(late.close).toHaveBeenCalledTimes(1);
    expect(hub.openStreams).toBe(tracked);
    await expect(hub.listen('m', () => undefined)).rejects.toThrow(/shut down/);
  });
});
