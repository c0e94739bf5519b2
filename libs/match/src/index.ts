export { foldOnto, UNBORN } from './fold';
export type { FoldedMatch } from './fold';
export { eventView, storedEventView, toDomainEvent } from './event-view';
export type { EventView } from './event-view';
