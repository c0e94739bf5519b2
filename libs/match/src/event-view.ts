import { isDealRevealed, redactEvent, type BismarckEvent, type Viewer } from '@bismarck/rules';
import type { StoredEvent } from '@bismarck/event-store';
import type { FoldedMatch } from './fold';

/** One event of the log as a caller sees it: in answers, event pages and live streams. */
export interface EventView {
  version: number;
  type: string;
  at: string;
  data: unknown;
  /** The chain's hash at this event, given only where nothing up to it is secret any more. */
  hash?: string;
  /** Only on the events of a move a stand-in bot made for an absent seat (the event's metadata says so). */
  standIn?: true;
}

/** The rules' event in a stored row (the log holds only events the rules decided). */
export const toDomainEvent = (stored: Pick<StoredEvent, 'type' | 'data'>): BismarckEvent => ({ type: stored.type, data: stored.data }) as BismarckEvent;

/**
 * `event` as `viewer` may see it, redacted against the match `now`: a deal scored by now has no
 * secrets left (docs/rules.md §7).
 */
export function eventView(event: BismarckEvent, version: number, at: string, viewer: Viewer, now: FoldedMatch, hash?: string): EventView {
  const deal = (event.data as { deal?: number }).deal;
  const revealed = deal !== undefined && isDealRevealed(now.state, deal);
  const view: EventView = { version, type: event.type, at, data: redactEvent(event, viewer, revealed).data };
  if (hash !== undefined && version <= now.checkpoint) view.hash = hash;
  return view;
}

/** A stored event as `viewer` may see it now, with its hash if the checkpoint covers it. */
export const storedEventView = (stored: StoredEvent, viewer: Viewer, now: FoldedMatch): EventView => {
  const view = eventView(toDomainEvent(stored), stored.version, stored.recordedAt, viewer, now, stored.hash);
  if (stored.metadata.standIn === true) view.standIn = true;
  return view;
};
