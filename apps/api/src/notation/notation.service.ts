import { Injectable } from '@nestjs/common';
import { EventStore } from '@bismarck/event-store';
import { toNotation } from '@bismarck/notation';
import { storedEventView } from '@bismarck/projections';
import type { BismarckEvent, Viewer } from '@bismarck/rules';
import { ProblemException } from '../problem/problem';
import { MatchStreams } from '../matches/match-streams.service';

/** A match in the plain-text notation (docs/notation.md), as the caller may see it. */
@Injectable()
export class NotationService {
  constructor(
    private readonly store: EventStore,
    private readonly streams: MatchStreams,
  ) {}

  async notation(id: string, viewer: Viewer): Promise<string> {
    // As `GET …/events` does: caught up with the log first, then every event redacted for this caller
    // against that state by the same function (a deal scored by now has no secrets left).
    const latest = await this.streams.load(id, true);
    if (!latest) throw new ProblemException('MATCH_NOT_FOUND', `There is no match ${id}.`);
    const stored = await this.store.readStream(id, { limit: latest.version });
    const events = stored.map((e) => {
      const view = storedEventView(e, viewer, latest);
      return { type: view.type, data: view.data } as BismarckEvent;
    });
    const who = viewer === 'spectator' ? 'a spectator' : `seat ${viewer}`;
    return toNotation(events, [`Bismarck match ${id} at version ${latest.version}, as ${who} may see it (docs/notation.md)`]);
  }
}
