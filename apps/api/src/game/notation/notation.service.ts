import { Injectable } from '@nestjs/common';
import { toNotation } from '@bismarck/notation';
import type { BismarckEvent, Viewer } from '@bismarck/rules';
import { MatchQueries } from '../matches/match-queries.service';

/** A match in the plain-text notation (docs/notation.md), as the caller may see it. */
@Injectable()
export class NotationService {
  constructor(private readonly queries: MatchQueries) {}

  async notation(id: string, viewer: Viewer): Promise<string> {
    // The events exactly as `GET …/events` gives them to this caller.
    const { version, events } = await this.queries.log(id, viewer);
    const who = viewer === 'spectator' ? 'a spectator' : `seat ${viewer}`;
    return toNotation(
      events.map((e) => ({ type: e.type, data: e.data }) as BismarckEvent),
      [`Bismarck match ${id} at version ${version}, as ${who} may see it (docs/notation.md)`],
    );
  }
}
