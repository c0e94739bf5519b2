export { projectMatch, scorecardChangedAt, foldOnto, UNBORN } from './projection';
export type { FoldedMatch, MatchProjection, MatchListRow, DocRow, SeatViewRow, StreamTimes } from './projection';
export { Projections1799000000000 } from './migrations/1799000000000-projections';
export { DealSeeds1799000002000 } from './migrations/1799000002000-deal-seeds';
export { SlimProjections1799000003000 } from './migrations/1799000003000-slim-projections';
export { ListPlayers1799000004000 } from './migrations/1799000004000-list-players';
export { Checkpoints1799000005000 } from './migrations/1799000005000-checkpoints';
export { DealAnalyses1799000008000 } from './migrations/1799000008000-deal-analyses';
import { Projections1799000000000 } from './migrations/1799000000000-projections';
import { DealSeeds1799000002000 } from './migrations/1799000002000-deal-seeds';
import { SlimProjections1799000003000 } from './migrations/1799000003000-slim-projections';
import { ListPlayers1799000004000 } from './migrations/1799000004000-list-players';
import { Checkpoints1799000005000 } from './migrations/1799000005000-checkpoints';
import { DealAnalyses1799000008000 } from './migrations/1799000008000-deal-analyses';

/** The read side's migrations, in order (after the event store's). */
export const projectionMigrations = [Projections1799000000000, DealSeeds1799000002000, SlimProjections1799000003000, ListPlayers1799000004000, Checkpoints1799000005000, DealAnalyses1799000008000] as const;
export { ProjectionRebuilder, PROJECTION_TABLES } from './rebuild';
export { idleLobbyTables, matchesAwaitingBots } from './lobby';
export type { RebuildStats, TableDifference, InTransaction } from './rebuild';
export { eventView, storedEventView, toDomainEvent } from './event-view';
export type { EventView } from './event-view';
export { MatchReader, isListTime } from './reader';
export type { Versioned, MatchSummary, ListPosition } from './reader';
export { SecretReader } from './secrets';
export type { SeedRow, SeatTokenHash } from './secrets';
export { AnalysisTable } from './analyses';
export type { StoredAnalysis } from './analyses';
